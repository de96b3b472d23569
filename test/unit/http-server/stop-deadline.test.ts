/**
 * A stopped server ends though a client keeps a request open: a body trickled a byte at a time (by anyone who reaches
 * the port, no credential needed) held a stopped `b2bctl sandbox` or `tax serve` alive as long as the client liked,
 * and a service manager's stop with it (a user test). After the stop deadline the connections still open are dropped,
 * with one warning, and the stopped line follows.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, serveUntilInterrupted } from '../../../src/http-server/serve.js';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { startTestSandbox } from '../../support/sandbox.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A POST whose headers promise 1,000 bytes and whose body never comes whole; resolves once its socket is closed. */
async function trickle(url: string, path: string): Promise<{ closed: Promise<void> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
  );
  socket.on('error', () => {});
  socket.resume();
  return { closed: new Promise<void>((resolve) => socket.once('close', () => resolve())) };
}

/** Serves `server` as the commands do, stops it once the trickling request is in, and says what was logged. */
async function stopWhileTrickling(server: RunningServer, path: string) {
  const lines: string[] = [];
  const controller = new AbortController();
  const stdout = { write: () => true } as unknown as NodeJS.WritableStream;
  const served = serveUntilInterrupted(
    server,
    {
      io: { stdout },
      log: { info: (line) => lines.push(line), warn: (line) => lines.push(line) },
      interrupt: controller.signal,
    },
    { started: 'started', stopped: 'stopped' },
    200,
  );
  const client = await trickle(server.url, path);
  // Another request answered after the trickle's headers were written: the server has read them by then, so the
  // stop finds a request in flight, not an idle connection it would close at once.
  await (await fetch(`${server.url}/healthz`)).arrayBuffer();
  controller.abort();
  await served;
  await client.closed;
  return lines;
}

describe('a stop while a client trickles a request body', () => {
  it('b2bctl sandbox: the connection is dropped after the deadline, one warning, then the stopped line', async () => {
    const sandbox = await startTestSandbox();
    expect(await stopWhileTrickling(sandbox, '/v1/customer')).toEqual([
      'started',
      'warning: stopping took over 0.2 s; closing the connections still open.',
      'stopped',
    ]);
  });

  it('tax serve: the same', async () => {
    const closers: (() => Promise<void> | void)[] = [];
    const server = await startLoopbackTaxServer({ auth: { kind: 'none' }, log: { warn: () => {} } }, closers);
    expect(await stopWhileTrickling(server, '/tax')).toEqual([
      'started',
      'warning: stopping took over 0.2 s; closing the connections still open.',
      'stopped',
    ]);
  });
});
