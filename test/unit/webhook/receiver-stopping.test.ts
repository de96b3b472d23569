/**
 * A request that reaches a stopping receiver on a connection already open (a user test: events posted one after the
 * other on a kept-alive connection during a SIGTERM were answered fastify's `{"error":"Service Unavailable",
 * "message":…,"statusCode":503}`, not the receiver's shape, and with no Retry-After).
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { until } from '../../support/until.js';
import { receiverToken, useTestReceivers } from '../../support/webhook-receiver.js';

const receiver = useTestReceivers();

/** A POST of `event` as raw HTTP/1.1 on a kept-alive connection. */
function rawPost(path: string, token: string, event: unknown): string {
  const body = JSON.stringify(event);
  return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe('webhook receiver: a request while it stops', () => {
  it("is answered 503 in the receiver's one shape with a Retry-After, and not stored; the one in flight finishes", async () => {
    let release: (() => void) | undefined;
    const held: number[] = [];
    const started = await receiver({
      // The first event's commit waits until the test lets it go: the receiver's stop waits for it meanwhile.
      appendThrough: async (append) => {
        held.push(held.length);
        if (held.length === 1) await new Promise<void>((resolve) => (release = resolve));
        return append();
      },
    });
    const token = await receiverToken(started.url);
    const port = Number(new URL(started.url).port);
    const socket = connect({ port, host: '127.0.0.1' });
    let answers = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answers += chunk));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(rawPost('/webhooks/orders', token, { id: 1, lastUpdated: '2026-11-30T12:00:00.001Z' }));
    await until(() => release !== undefined, 'the first commit');
    const closing = started.receiver.close();
    // The next event on the same connection, once the receiver is stopping.
    socket.write(rawPost('/webhooks/orders', token, { id: 2, lastUpdated: '2026-11-30T12:00:00.002Z' }));
    // Answers go out in the order of their requests: the second's once the first's commit is let go.
    release?.();
    await closing;
    await ended;
    const [first, second] = answers.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toContain('"status":"stored"');
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(second?.split('\r\n\r\n')[1] ?? '')).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'The receiver is stopping; the event was not stored: send it again in a moment',
    });
    // Only the first reached the store.
    expect(held).toEqual([0]);
    expect(started.onDisk().map((event) => event.event)).toEqual([{ id: 1, lastUpdated: '2026-11-30T12:00:00.001Z' }]);
  });
});
