/**
 * The reach of a proxy itself (doctor's proxy check for a plain http base URL, asked of the proxy by URL): a TCP
 * connection opened and closed at once, the socket's own error when nothing listens.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { reachProxy } from '../../../src/net/tls-probe.js';
import { refusedPort } from '../../support/cli.js';

describe('reachProxy', () => {
  it('resolves once the proxy accepts the connection, and closes it', async () => {
    const closed: Promise<void>[] = [];
    const server = createServer((socket) => closed.push(new Promise((resolve) => socket.on('close', resolve))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await expect(reachProxy(new URL(`http://127.0.0.1:${port}`), 5000)).resolves.toBeUndefined();
      await expect.poll(() => closed.length).toBe(1);
      await closed[0];
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('rejects with the socket error when nothing listens there', async () => {
    const port = await refusedPort();
    await expect(reachProxy(new URL(`http://127.0.0.1:${port}`), 5000)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});
