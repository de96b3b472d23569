import { startTaxServer, type TaxServerOptions } from '../../src/tax/server.js';
import { sandboxTaxShape } from '../../src/tax/shape.js';

/**
 * `tax serve` on a loopback port of its own, answering POST /tax in the sandbox's shape, with `options` on top
 * (the credential style and the log at least); its close is added to `closers`.
 */
export async function startLoopbackTaxServer(
  options: Partial<TaxServerOptions> & Pick<TaxServerOptions, 'auth' | 'log'>,
  closers: (() => Promise<void> | void)[],
): ReturnType<typeof startTaxServer> {
  const server = await startTaxServer({
    host: '127.0.0.1',
    port: 0,
    path: '/tax',
    shape: sandboxTaxShape,
    // As the flags' defaults give them.
    requestTimeoutMs: 5000,
    maxConnections: 1024,
    maxConnectionsPerAddress: 64,
    ...options,
  });
  closers.push(() => server.close());
  return server;
}
