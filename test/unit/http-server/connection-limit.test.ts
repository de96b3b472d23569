/**
 * The connection caps both servers the platform calls share (y/Y1: one client's idle connections shut out the
 * platform, and the log never said from where nor how many): per client address, in all, and the request timeout
 * that ends an idle connection. Node's own sockets; events (a close, an answer's first line), never a clock.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RefusedConnections } from '../../../src/http-server/connection-limit.js';
import type { TaxServerOptions } from '../../../src/tax/server.js';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { useTestReceivers } from '../../support/webhook-receiver.js';

const closers: (() => Promise<void> | void)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const close of closers.splice(0)) await close();
});
const receiver = useTestReceivers();

/** A connection to `url` that has sent the start of a request and waits; `answer` is its first line, or undefined. */
function idleConnection(url: string): { socket: Socket; answer: Promise<string | undefined> } {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.write('POST /tax HTTP/1.1\r\nHost: x\r\n');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const answer = new Promise<string | undefined>((resolve) =>
    socket.on('close', () => resolve(received === '' ? undefined : received.split('\r\n')[0])),
  );
  return { socket, answer };
}

/** The status line a connection gets for GET /healthz, sent on it now. */
function healthOn(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0] ?? ''));
    socket.write('\r\n');
  });
}

async function taxServer(options: Partial<TaxServerOptions>) {
  const lines: string[] = [];
  const server = await startLoopbackTaxServer(
    { auth: { kind: 'none' }, log: { warn: (line) => lines.push(line) }, ...options },
    closers,
  );
  return { url: server.url, lines };
}

describe('tax serve: connections from one address', () => {
  it('past --max-connections-per-address, a new one is closed as it arrives, said in one line; those open are served', async () => {
    const { url, lines } = await taxServer({ maxConnectionsPerAddress: 2 });
    const first = idleConnection(url);
    const second = idleConnection(url);
    // Accepted in order: the third comes when two are open from 127.0.0.1.
    expect(await idleConnection(url).answer).toBeUndefined();
    expect(lines).toEqual([
      'tax serve: Closed 1 connection as it arrived: 1 from 127.0.0.1; each from an address with 2 open already (--max-connections-per-address).',
    ]);
    first.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    second.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    // The two open ones had started a POST without a body: their headers end here, and they are answered.
    expect(await healthOn(first.socket)).toMatch(/^HTTP\/1\.1 \d{3} /);
  });

  it('from a trusted proxy, which carries many clients: held to --max-connections alone', async () => {
    const { url, lines } = await taxServer({ maxConnectionsPerAddress: 2, trustProxy: ['127.0.0.1'] });
    idleConnection(url);
    idleConnection(url);
    const third = idleConnection(url);
    expect(await healthOn(third.socket)).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(lines.filter((line) => line.includes('Closed'))).toEqual([]);
  });

  it('a connection that sends no whole request in --request-timeout is answered 408 and closed', async () => {
    const { url } = await taxServer({ requestTimeoutMs: 200 });
    expect(await idleConnection(url).answer).toBe('HTTP/1.1 408 Request Timeout');
  });
});

describe('webhook listen: connections from one address', () => {
  it('past --max-connections-per-address, a new one is closed as it arrives, said in one line', async () => {
    const lines: string[] = [];
    const started = await receiver({ maxConnectionsPerAddress: 2, log: (line) => lines.push(line) });
    idleConnection(started.url);
    idleConnection(started.url);
    expect(await idleConnection(started.url).answer).toBeUndefined();
    expect(lines).toEqual([
      'Closed 1 connection as it arrived: 1 from 127.0.0.1; each from an address with 2 open already (--max-connections-per-address).',
    ]);
    // Before the receiver's own afterEach closes it, which waits for connections in the middle of a request.
    for (const socket of sockets.splice(0)) socket.destroy();
  });
});

describe('the lines about connections closed as they arrived', () => {
  it('the first at once, then those of its minute in one line, naming the addresses that had most; then quiet', () => {
    const lines: string[] = [];
    const timers: (() => void)[] = [];
    const refusals = new RefusedConnections(
      (line) => lines.push(line),
      '1024 were open already (--max-connections)',
      (run) => timers.push(run),
    );
    refusals.refused('127.0.0.2');
    for (let count = 0; count < 5100; count++) refusals.refused('127.0.0.2');
    for (let count = 0; count < 23; count++) refusals.refused('2001:db8:1:2::/64');
    for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']) refusals.refused(address);
    expect(lines).toEqual([
      'Closed 1 connection as it arrived: 1 from 127.0.0.2; 1024 were open already (--max-connections).',
    ]);
    timers.shift()?.();
    expect(lines.slice(1)).toEqual([
      'Closed 5127 connections as they arrived in the last 60 s: 5100 from 127.0.0.2, 23 from 2001:db8:1:2::/64, 1 from 203.0.113.1, 3 from 3 more addresses; 1024 were open already (--max-connections).',
    ]);
    // A minute without refusals: the window closes, and the next one is said at once.
    timers.shift()?.();
    expect(lines).toHaveLength(2);
    refusals.refused('203.0.113.9');
    expect(lines.slice(2)).toEqual([
      'Closed 1 connection as it arrived: 1 from 203.0.113.9; 1024 were open already (--max-connections).',
    ]);
  });
});
