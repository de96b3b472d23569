/**
 * A client that keeps a request body coming after the receiver answered it from the headers (a made-up token,
 * `Content-Length: 100000`, then a byte now and then): a user test. The connection stayed open as long as the
 * client liked, and it kept a receiver stopped by SIGTERM alive after its "stopped" line, any host that reaches the
 * port being able to hold a service manager's stop. An answer given before the body is all in now closes the
 * connection; the stop closes the receiver.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useTestReceivers } from '../../support/webhook-receiver.js';

const receiver = useTestReceivers();

/**
 * Sends the headers of a 100,000-byte event with a made-up token and its first bytes, never the rest: resolves to
 * the answer the receiver wrote and whether it closed the connection (`closed`), once it did, or once the stop came.
 */
function trickle(url: string): { answer: Promise<string>; closed: Promise<void>; stop: () => void } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(
    'POST /webhooks/orders HTTP/1.1\r\nHost: receiver\r\nAuthorization: Bearer made-up\r\n' +
      'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"id":',
  );
  let received = '';
  const answer = new Promise<string>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      if (received.includes('\r\n\r\n')) resolve(received);
    }),
  );
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { answer, closed, stop: () => socket.destroy() };
}

describe('a body still trickling in after the receiver answered from the headers', () => {
  it('the 401 says Connection: close, and the receiver closes the connection without waiting for the body', async () => {
    const started = await receiver();
    const client = trickle(started.url);
    const answer = await client.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
    // Closed by the receiver: the client never ends its body.
    await client.closed;
  });

  it('a receiver closed meanwhile ends: its close does not wait on the trickling client', async () => {
    const started = await receiver();
    const client = trickle(started.url);
    expect(await client.answer).toMatch(/^HTTP\/1\.1 401 /);
    await started.close();
    await expect(client.closed).resolves.toBeUndefined();
  });
});
