import type { FastifyInstance } from 'fastify';
import { UsageError } from '../base/errors.js';

/**
 * Listens on `host`:`port`, turning the operating system's refusals into one line that names the flag to change
 * (exit 2: the fix is on the command line), and releasing what the server had opened. Shared by the sandbox and
 * the webhook receiver.
 */
export async function listenOn(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw listenFailure(error, host, port) ?? error;
  }
}

/** The usage error for a refused listen, or undefined when the cause is not one a flag can fix. */
export function listenFailure(error: unknown, host: string, port: number): UsageError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  switch (code) {
    case 'EADDRINUSE':
      return new UsageError(
        `Port ${port} on ${host} is already in use: a server listens on ${where}, or an outgoing connection of this machine holds the port for a while (Linux lends ports 32768–60999 to those). Choose another with --port (one below 32768 is never lent), or --port 0 for a free one.`,
        { cause: error },
      );
    case 'EACCES':
    case 'EPERM':
      return new UsageError(
        `Not allowed to listen on ${where} (${code}; ports below 1024 need privileges). Choose a port of 1024 or above with --port, or --port 0 for a free one.`,
        { cause: error },
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(
        `Cannot listen on ${where}: "${host}" is not an address of this machine (${code}). Pass --host with one of its addresses, such as 127.0.0.1.`,
        { cause: error },
      );
    default:
      return undefined;
  }
}
