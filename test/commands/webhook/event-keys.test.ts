import { buffer } from 'node:stream/consumers';
import { brotliCompressSync, constants, createZstdCompress, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { postEvent, receiverToken, useTestReceivers } from '../../support/webhook-receiver.js';

const startTestReceiver = useTestReceivers();
const stamp = '2026-11-30T10:00:00Z';

/** Posts each event in turn (as written) and returns the answers as `status body`. */
async function postAll(url: string, events: unknown[]): Promise<string[]> {
  const token = await receiverToken(url);
  const answers: string[] = [];
  for (const event of events) {
    const answer = await postEvent(url, 'orders', event, token);
    answers.push(`${answer.status} ${(await answer.text()).replace(/"deliveryId":"[^"]+"/, '"deliveryId":…')}`);
  }
  return answers;
}

const stored = '200 {"status":"stored","deliveryId":…}';
const duplicate = '200 {"status":"duplicate"}';

describe('an orders event whose lastUpdated is blank (a user test)', () => {
  it.each(['', ' '])('is recognised by its content: each later change is stored, flagged (%j)', async (blank) => {
    const receiver = await startTestReceiver();
    const changes = ['SHIPPED', 'DELIVERED', 'CANCELED', 'CANCELED'].map((status) => ({
      id: 150002,
      orderId: 150002,
      status,
      lastUpdated: blank,
    }));
    // The last is the third sent again, word for word: that one is a redelivery.
    expect(await postAll(receiver.url, changes)).toEqual([stored, stored, stored, duplicate]);
    const events = receiver.onDisk();
    expect(events.map((event) => (event.event as { status: string }).status)).toEqual([
      'SHIPPED',
      'DELIVERED',
      'CANCELED',
    ]);
    for (const event of events) {
      expect(event.key).toMatch(/^orders:150002:[\w-]{22}$/);
      expect(event.flags).toContain('lastUpdated is blank');
    }
  });
});

describe('an orders event whose id names no order (a user test)', () => {
  it.each([[''], [0], ['  ']])('is keyed by its orderId: two orders with one stamp stay two (id %j)', async (id) => {
    const receiver = await startTestReceiver();
    const orders = [160001, 160002, 160002].map((orderId) => ({ id, orderId, status: 'A', lastUpdated: stamp }));
    expect(await postAll(receiver.url, orders)).toEqual([stored, stored, duplicate]);
    // The stamp as its instant (`…10:00:00Z` is `…10:00:00.000Z`).
    const instant = new Date(stamp).toISOString();
    // Under a stamp to the second, a digest of the order's content follows (`#…`).
    expect(receiver.onDisk().map((event) => event.key.split('#')[0])).toEqual([
      `orders:160001:${instant}`,
      `orders:160002:${instant}`,
    ]);
    expect(receiver.onDisk()[0]?.flags).toContain(id === 0 ? 'id 0 names no order' : 'id is not an integer');
  });

  it('is recognised by its content when no orderId names the order either', async () => {
    const receiver = await startTestReceiver();
    const orders = ['A', 'B'].map((status) => ({ id: 0, orderId: '', status, lastUpdated: stamp }));
    expect(await postAll(receiver.url, orders)).toEqual([stored, stored]);
    expect(receiver.onDisk().map((event) => event.key)).toEqual([
      expect.stringMatching(/^orders:-:[\w-]{22}$/),
      expect.stringMatching(/^orders:-:[\w-]{22}$/),
    ]);
  });
});

/** Posts a body in the given Content-Encoding and returns the answer as `status body`. */
async function postEncoded(url: string, body: Buffer, coding: string): Promise<string> {
  const answer = await fetch(`${url}/webhooks/orders`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await receiverToken(url)}`,
      'content-type': 'application/json',
      'content-encoding': coding,
    },
    body,
  });
  return `${answer.status} ${(await answer.text()).replace(/"deliveryId":"[^"]+"/, '"deliveryId":…')}`;
}

describe('a compressed event (Content-Encoding)', () => {
  const event = { id: 140002, orderId: 140002, status: 'A', lastUpdated: stamp };
  const text = Buffer.from(JSON.stringify(event));

  it.each([
    ['gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['br', brotliCompressSync(text)],
    ['zstd', zstdCompressSync(text)],
    ['identity', text],
  ])('is decoded and stored as its sender wrote it (%s)', async (coding, body) => {
    const receiver = await startTestReceiver();
    expect(await postEncoded(receiver.url, body, coding)).toBe(stored);
    expect(receiver.onDisk().map((kept) => kept.event)).toEqual([event]);
  });

  it('is refused 415, naming a coding the receiver does not decode, and not stored', async () => {
    const lines: string[] = [];
    const receiver = await startTestReceiver({ log: (line) => lines.push(line) });
    expect(await postEncoded(receiver.url, text, 'compress')).toBe(
      '415 {"error":"unsupported_media_type","error_description":"Content-Encoding compress is not accepted; send the body uncompressed, or gzip, deflate, br or zstd"}',
    );
    expect(receiver.onDisk()).toEqual([]);
    expect(lines.join('\n')).toContain('answered HTTP 415 "Content-Encoding compress is not accepted');
  });

  it('is refused 400 when its bytes are not in the coding it names, and not stored', async () => {
    const receiver = await startTestReceiver();
    expect(await postEncoded(receiver.url, text, 'gzip')).toBe(
      '400 {"error":"bad_request","error_description":"The body is not valid gzip (incorrect header check)"}',
    );
    expect(receiver.onDisk()).toEqual([]);
  });

  it('is refused 400 as empty, not 415, when its body is empty as sent or once decoded, and not stored', async () => {
    const receiver = await startTestReceiver();
    const emptyAnswer = `400 {"error":"bad_request","error_description":"The body is empty; send the event's JSON"}`;
    expect(await postEncoded(receiver.url, Buffer.alloc(0), 'identity')).toBe(emptyAnswer);
    expect(await postEncoded(receiver.url, gzipSync(Buffer.alloc(0)), 'gzip')).toBe(emptyAnswer);
    expect(await postEncoded(receiver.url, brotliCompressSync(Buffer.alloc(0)), 'br')).toBe(emptyAnswer);
    expect(receiver.onDisk()).toEqual([]);
  });

  it('is refused 413 when it decodes past the body limit (a zip bomb), and not stored', async () => {
    const receiver = await startTestReceiver({ bodyLimitBytes: 4096 });
    // 64 MB of spaces, 64 kB compressed: stopped at 4 kB decoded, never held whole.
    const bomb = gzipSync(Buffer.concat([text.subarray(0, -1), Buffer.alloc(64 * 1024 * 1024, ' '), Buffer.from('}')]));
    expect(bomb.length).toBeLessThan(4096 * 32);
    expect(await postEncoded(receiver.url, bomb, 'gzip')).toBe(
      '413 {"error":"payload_too_large","error_description":"The event is larger than 4096 bytes, the most this receiver reads (--body-limit); it was not stored"}',
    );
    // The receiver goes on taking events.
    expect(await postEncoded(receiver.url, gzipSync(text), 'gzip')).toBe(stored);
    expect(receiver.onDisk().map((kept) => kept.event)).toEqual([event]);
  });

  it('is refused 413 when its zstd decodes past the body limit (a zstd bomb), and not stored', async () => {
    const receiver = await startTestReceiver({ bodyLimitBytes: 4096 });
    // 64 MB of spaces, 2 kB compressed: stopped at 4 kB decoded, never held whole.
    const bomb = zstdCompressSync(
      Buffer.concat([text.subarray(0, -1), Buffer.alloc(64 * 1024 * 1024, ' '), Buffer.from('}')]),
    );
    expect(bomb.length).toBeLessThan(4096);
    expect(await postEncoded(receiver.url, bomb, 'zstd')).toBe(
      '413 {"error":"payload_too_large","error_description":"The event is larger than 4096 bytes, the most this receiver reads (--body-limit); it was not stored"}',
    );
    expect(await postEncoded(receiver.url, zstdCompressSync(text), 'zstd')).toBe(stored);
    expect(receiver.onDisk().map((kept) => kept.event)).toEqual([event]);
  });

  it('is refused 400 when its zstd frame asks a window past 8 MB (RFC 9659), before reserving it, and not stored', async () => {
    const receiver = await startTestReceiver();
    // Compressed as a stream, whose size the frame does not state, with a 128 MB window: the frame declares it.
    const compressor = createZstdCompress({ params: { [constants.ZSTD_c_windowLog]: 27 } });
    compressor.end(text);
    const wideWindow = await buffer(compressor);
    expect(await postEncoded(receiver.url, wideWindow, 'zstd')).toBe(
      '400 {"error":"bad_request","error_description":"The body is not valid zstd (its window is larger than 8 MB, the most RFC 9659 allows)"}',
    );
    expect(await postEncoded(receiver.url, Buffer.from('not zstd'), 'zstd')).toBe(
      '400 {"error":"bad_request","error_description":"The body is not valid zstd (Unknown frame descriptor)"}',
    );
    expect(receiver.onDisk()).toEqual([]);
  });
});
