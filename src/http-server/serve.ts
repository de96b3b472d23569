import type { AddressInfo } from 'node:net';

/** A started HTTP server as the serving loop needs it. */
export interface RunningServer {
  /** Base URL such as http://127.0.0.1:40123, printed first on stdout. */
  url: string;
  /** Stops accepting, lets in-flight requests finish, releases the port. */
  close(): Promise<void>;
  /**
   * Ends every connection still open, requests in flight too: for a stop that has waited stopDeadlineMs. Without it,
   * the server's close is its own to bound.
   */
  dropConnections?(): void;
}

/** What serving needs of a command's context: where to print, what to log, and the run's Ctrl-C. */
export interface ServingContext {
  io: { stdout: NodeJS.WritableStream };
  log: { info(line: string): void; warn(line: string): void };
  interrupt: AbortSignal;
}

/**
 * How long a stop waits for the requests in flight: a client that keeps a request open (a body trickled a byte at a
 * time, by anyone who reaches the port) held a stopped server's process alive as long as it liked, and a service
 * manager's stop with it (a user test).
 */
export const stopDeadlineMs = 10_000;

/** Waits for `work`, or `ms` at most (then calls `late`). */
export async function withinDeadline(work: Promise<unknown>, ms: number, late: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([work.then(() => 'done' as const), deadline]);
  clearTimeout(timer);
  if (outcome === 'late') late();
}

/**
 * Prints the server's URL as the first stdout line (so a script or test can start it with `--port 0` and read
 * where it is), serves until SIGINT/SIGTERM, then closes it, the connections still open after stopDeadlineMs dropped
 * where the server can. Shared by `sandbox`, `tax serve` and `webhook listen`.
 */
export async function serveUntilInterrupted(
  server: RunningServer,
  context: ServingContext,
  messages: { started: string; stopped: string },
  deadlineMs = stopDeadlineMs,
): Promise<void> {
  context.io.stdout.write(`${server.url}\n`);
  context.log.info(messages.started);
  await new Promise((resolve) => {
    if (context.interrupt.aborted) resolve(undefined);
    context.interrupt.addEventListener('abort', resolve, { once: true });
  });
  const closed = server.close();
  const { dropConnections } = server;
  if (dropConnections !== undefined)
    await withinDeadline(closed, deadlineMs, () => {
      context.log.warn(`warning: stopping took over ${deadlineMs / 1000} s; closing the connections still open.`);
      dropConnections();
    });
  await closed;
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
