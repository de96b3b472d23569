/**
 * The connection caps both servers the platform calls share (y/Y1: one client's idle connections shut out the
 * platform, and the log never said from where nor how many): per client address, in all, and the request timeout
 * that ends an idle connection. Node's own sockets; events (a close, an answer's first line), never a clock.
 */
import { EventEmitter } from 'node:events';
import { connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedConnectionLines, limitConnections } from '../../../src/http-server/connection-limit.js';
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

/**
 * A connection from `localAddress` (any of 127/8 reaches a loopback server) answered once and kept alive, so the
 * server has counted it; `closed` settles when the server closes it.
 */
async function heldConnection(url: string, localAddress: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  sockets.push(socket);
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  const answer = await Promise.race([healthAnswer(socket), closed.then(() => '')]);
  expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  return { socket, closed };
}

/** The status line of the next answer on `socket`, or '' when it closes first. */
function healthAnswer(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0] ?? ''));
    socket.once('close', () => resolve(''));
  });
}

/** Holds `count` connections from each `127.0.0.<n>`, in order; all of them, by address. */
async function holdFrom(url: string, counts: Record<number, number>) {
  const held: Record<number, { socket: Socket; closed: Promise<void> }[]> = {};
  for (const [host, count] of Object.entries(counts))
    for (let index = 0; index < count; index++)
      (held[Number(host)] ??= []).push(await heldConnection(url, `127.0.0.${host}`));
  return held;
}

/** The status line a new connection from `localAddress` gets for GET /healthz, or '' when it is closed unanswered. */
function healthFrom(url: string, localAddress: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), localAddress });
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  return healthAnswer(socket);
}

// v2/N7: 17 addresses at 64 connections each filled the 1,024 of --max-connections, and every new connection, the
// platform's too, was closed as it arrived.
describe('tax serve: the cap in all makes room', () => {
  const limits = { maxConnections: 8, maxConnectionsPerAddress: 3 };

  it('a new address is answered while others hold the cap: the address holding the most loses its oldest idle one', async () => {
    const { url, lines } = await taxServer(limits);
    const held = await holdFrom(url, { 10: 3, 11: 3, 12: 2 });
    expect(await healthFrom(url, '127.0.0.13')).toMatch(/^HTTP\/1\.1 200 /);
    await held[10]?.[0]?.closed;
    expect(lines).toEqual([
      'tax serve: Closed 1 connection to make room for a new one: 1 from 127.0.0.10; each from the address holding the most of the 8 open (--max-connections).',
    ]);
    // The others are still served.
    held[11]?.[0]?.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await healthAnswer(held[11]![0]!.socket)).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('a connection from the address holding the most is the one closed, as it arrives', async () => {
    const { url, lines } = await taxServer(limits);
    await holdFrom(url, { 10: 2, 11: 2, 12: 2, 13: 2 });
    expect(await healthFrom(url, '127.0.0.10')).toBe('');
    expect(lines).toEqual([
      'tax serve: Closed 1 connection as it arrived: 1 from 127.0.0.10; each from the address holding the most of the 8 open (--max-connections).',
    ]);
  });

  it('a connection whose request is in progress is kept: an idle one of its address is closed instead', async () => {
    const { url, lines } = await taxServer(limits);
    const held = await holdFrom(url, { 10: 3, 11: 3, 12: 2 });
    const busy = held[10]![0]!.socket;
    // The server says 100 Continue once it has the request's head: from then on the request is in progress.
    const cart = '{"items":[]}';
    busy.write(
      `POST /tax HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${cart.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(await healthAnswer(busy)).toBe('HTTP/1.1 100 Continue');
    expect(await healthFrom(url, '127.0.0.13')).toMatch(/^HTTP\/1\.1 200 /);
    await held[10]?.[1]?.closed;
    expect(lines).toEqual([
      'tax serve: Closed 1 connection to make room for a new one: 1 from 127.0.0.10; each from the address holding the most of the 8 open (--max-connections).',
    ]);
    const answered = healthAnswer(busy);
    busy.write(cart);
    expect(await answered).toMatch(/^HTTP\/1\.1 \d{3} /);
  });

  it('a trusted proxy, which carries many clients, keeps its connections: the busiest direct address loses one', async () => {
    const { url, lines } = await taxServer({ ...limits, trustProxy: ['127.0.0.1'] });
    const held = await holdFrom(url, { 1: 5, 10: 2, 11: 1 });
    expect(await healthFrom(url, '127.0.0.12')).toMatch(/^HTTP\/1\.1 200 /);
    await held[10]?.[0]?.closed;
    expect(lines).toEqual([
      'tax serve: Closed 1 connection to make room for a new one: 1 from 127.0.0.10; each from the address holding the most of the 8 open (--max-connections).',
    ]);
  });
});

/** A socket as the server's `connection` event hands it, closed by a test when it says. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  readonly remoteAddress: string | undefined;
  readonly remotePort: number | undefined;
  constructor(remoteAddress: string | undefined, remotePort: number | undefined) {
    super();
    this.remoteAddress = remoteAddress;
    this.remotePort = remotePort;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

describe('the count of open connections', () => {
  it('forgets connections reset before they were accepted, which have no peer address: they take no room', () => {
    const server = new EventEmitter();
    const lines: string[] = [];
    limitConnections(
      server as unknown as Server,
      { max: 2, perAddress: 3 },
      (line) => lines.push(line),
      () => {},
    );
    const arrive = (address: string | undefined, port: number | undefined) => {
      const socket = new FakeSocket(address, port);
      server.emit('connection', socket);
      return socket;
    };
    const reset = [arrive(undefined, undefined), arrive(undefined, undefined)];
    for (const socket of reset) socket.emit('close');
    const first = arrive('127.0.0.10', 40_001);
    arrive('127.0.0.11', 40_002);
    const newcomer = arrive('127.0.0.12', 40_003);
    expect([first.destroyed, newcomer.destroyed]).toEqual([true, false]);
    expect(lines).toEqual([
      'Closed 1 connection to make room for a new one: 1 from 127.0.0.10; each from the address holding the most of the 2 open (--max-connections).',
    ]);
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
    const refused = closedConnectionLines(
      (line) => lines.push(line),
      '1024 were open already (--max-connections)',
      (run) => timers.push(run),
    );
    refused('127.0.0.2');
    for (let count = 0; count < 5100; count++) refused('127.0.0.2');
    for (let count = 0; count < 23; count++) refused('2001:db8:1:2::/64');
    for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4']) refused(address);
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
    refused('203.0.113.9');
    expect(lines.slice(2)).toEqual([
      'Closed 1 connection as it arrived: 1 from 203.0.113.9; 1024 were open already (--max-connections).',
    ]);
  });
});
