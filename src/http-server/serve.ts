import type { AddressInfo } from 'node:net';

/** A started HTTP server as the serving loop needs it. */
export interface RunningServer {
  /** Base URL such as http://127.0.0.1:40123, printed first on stdout. */
  url: string;
  /** Stops accepting, lets in-flight requests finish, releases the port. */
  close(): Promise<void>;
}

/** What serving needs of a command's context: where to print, what to log, and the run's Ctrl-C. */
export interface ServingContext {
  io: { stdout: NodeJS.WritableStream };
  log: { info(line: string): void };
  interrupt: AbortSignal;
}

/**
 * Prints the server's URL as the first stdout line (so a script or test can start it with `--port 0` and read
 * where it is), serves until SIGINT/SIGTERM, then closes it. Shared by `sandbox` and `webhook listen`.
 */
export async function serveUntilInterrupted(
  server: RunningServer,
  context: ServingContext,
  messages: { started: string; stopped: string },
): Promise<void> {
  context.io.stdout.write(`${server.url}\n`);
  context.log.info(messages.started);
  await new Promise((resolve) => {
    if (context.interrupt.aborted) resolve(undefined);
    context.interrupt.addEventListener('abort', resolve, { once: true });
  });
  await server.close();
  context.log.info(messages.stopped);
}

/** The base URL of a server listening on `host` and `port` (IPv6 literals in brackets). */
export function baseUrlOf(protocol: 'http' | 'https', host: string, port: number): string {
  return `${protocol}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** The port a listening node server was given (the chosen one when asked for port 0). */
export function listeningPort(address: AddressInfo | string | null, fallback: number): number {
  return typeof address === 'object' && address ? address.port : fallback;
}
