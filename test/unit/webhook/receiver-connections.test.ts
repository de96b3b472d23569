import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestReceivers } from '../../support/webhook-receiver.js';

// --max-connections: past the cap a new connection is closed as it is accepted, without an answer, so a flood of
// connections cannot take the descriptors the platform's own requests need; the log says so once, with the count.

const receiver = useTestReceivers();

/** A connection that has been answered once and is kept alive; or, when refused, the close with no answer. */
function askHealth(url: string, localAddress?: string): Promise<{ socket: Socket; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress }, () =>
      socket.write(`GET /healthz HTTP/1.1\r\nhost: ${hostname}\r\nconnection: keep-alive\r\n\r\n`),
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString();
      if (answer.includes('\r\n\r\n')) resolve({ socket, answer });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ socket, answer }));
    socket.setTimeout(30_000, () => reject(new Error('no answer and no close')));
  });
}

describe('receiver: --max-connections', () => {
  it('closes connections past the cap as they arrive, and serves again once one is gone', async () => {
    const logged: string[] = [];
    const started = await receiver({ maxConnections: 2, log: (line) => logged.push(line) });
    const first = await askHealth(started.url);
    const second = await askHealth(started.url);
    expect(first.answer).toMatch(/^HTTP\/1\.1 200/);
    expect(second.answer).toMatch(/^HTTP\/1\.1 200/);
    const third = await askHealth(started.url);
    expect(third.answer).toBe('');
    expect(logged).toEqual([
      'Closed 1 connection as it arrived: 1 from 127.0.0.1; each from the address holding the most of the 2 open (--max-connections).',
    ]);
    first.socket.destroy();
    // The server counts the closed connection once it has seen it close: ask until it has.
    let again = await askHealth(started.url);
    while (again.answer === '') again = await askHealth(started.url);
    expect(again.answer).toMatch(/^HTTP\/1\.1 200/);
    second.socket.destroy();
    again.socket.destroy();
  });

  // v2/N7: 17 addresses holding 64 connections each shut the platform out of the 1,024 in all.
  it('answers a new address while other addresses hold the cap, closing one of the busiest address', async () => {
    const logged: string[] = [];
    const started = await receiver({
      maxConnections: 4,
      maxConnectionsPerAddress: 2,
      log: (line) => logged.push(line),
    });
    const held: Socket[] = [];
    for (const address of ['127.0.0.10', '127.0.0.11', '127.0.0.11', '127.0.0.10'])
      held.push((await askHealth(started.url, address)).socket);
    const platform = await askHealth(started.url, '127.0.0.12');
    expect(platform.answer).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((resolve) => (held[0]?.closed ? resolve(undefined) : held[0]?.once('close', resolve)));
    expect(logged).toEqual([
      'Closed 1 connection to make room for a new one: 1 from 127.0.0.10; each from the address holding the most of the 4 open (--max-connections).',
    ]);
    for (const socket of [...held, platform.socket]) socket.destroy();
  });
});
