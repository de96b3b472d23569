import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { importNdjsonInbox } from '../../../src/webhook/store/ndjson-import.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import {
  clientId,
  clientSecret,
  inboxOnDisk,
  oldInboxLine,
  postEvent,
  receiverToken,
  startTestReceiver,
  useTestReceivers,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));
const customer = sampleEvent('customers', new Date('2026-11-23T06:00:00Z'));
const receiver = useTestReceivers();

function tokenRequest(style: string, id: string, secret: string): [string, RequestInit] {
  if (style === 'basic') {
    return [
      '/oauth/token',
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      },
    ];
  }
  if (style === 'body') {
    return [
      '/oauth/token',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'platform' },
        body: JSON.stringify({ clientId: id, clientSecret: secret }),
      },
    ];
  }
  // Many HTTP clients mark every POST as JSON, with no body: the header style carries nothing in it.
  const marked: Record<string, string> = style === 'headers, marked JSON' ? { 'content-type': 'application/json' } : {};
  return [
    '/oauth/token?grant_type=password',
    { method: 'POST', headers: { username: id, password: secret, ...marked } },
  ];
}

describe('token endpoint', () => {
  it.each(['basic', 'body', 'headers', 'headers, marked JSON'])(
    'issues a Bearer token to the %s style, which then delivers an event',
    async (style) => {
      const started = await receiver();
      const [path, init] = tokenRequest(style, clientId, clientSecret);
      const answer = await fetch(`${started.url}${path}`, init);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(typeof body.access_token).toBe('string');
      expect((await postEvent(started.url, 'orders', order, body.access_token as string)).status).toBe(200);
      expect(started.onDisk()).toHaveLength(1);
    },
  );

  it.each(['basic', 'body', 'headers'])('answers 401 to the %s style with a wrong secret or id', async (style) => {
    const logged: string[] = [];
    const started = await receiver({ log: (line) => logged.push(line) });
    for (const [id, secret] of [
      [clientId, 'bad-secret-value'],
      ['someone-else', clientSecret],
    ] as const) {
      const [path, init] = tokenRequest(style, id, secret);
      const answer = await fetch(`${started.url}${path}`, init);
      expect(answer.status).toBe(401);
      expect(await answer.text()).not.toContain('access_token');
    }
    // One line for the address's first failure in its window, not one per failure.
    expect(logged).toHaveLength(1);
    expect(logged.join('\n')).not.toMatch(/bad-secret-value|receiver-s3cret/);
  });
});

describe('event authentication', () => {
  it('answers 401 without a token, with a forged one, an expired one and one of another instance; nothing stored', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const started = await receiver({ tokenTtlSeconds: 1, now: () => now });
    const other = await receiver();
    const expiring = await receiverToken(started.url);
    const foreign = await receiverToken(other.url);
    now += 1000;
    for (const token of [undefined, 'forged-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAA', expiring, foreign]) {
      const answer = await postEvent(started.url, 'orders', order, token);
      expect(answer.status).toBe(401);
    }
    expect(started.stored).toEqual([]);
    expect(started.onDisk()).toEqual([]);
  });
});

describe('event bodies', () => {
  it('answers 415 to non-JSON and 400 to malformed JSON, storing nothing', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    expect((await postEvent(started.url, 'orders', 'id=1', token, 'application/x-www-form-urlencoded')).status).toBe(
      415,
    );
    expect((await postEvent(started.url, 'orders', 'hello', token, 'text/plain')).status).toBe(415);
    expect((await postEvent(started.url, 'orders', '{"id": 1,', token)).status).toBe(400);
    expect(started.onDisk()).toEqual([]);
  });

  it('answers 413 to a 3 MB body and stores nothing', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    const huge = { ...order, padding: 'x'.repeat(3 * 1024 * 1024) };
    const answer = await postEvent(started.url, 'orders', huge, token).catch((error: Error) => error);
    // The receiver may answer 413 and close before the client finished sending; either way nothing is stored.
    expect(answer instanceof Response ? answer.status : 413).toBe(413);
    expect(started.onDisk()).toEqual([]);
    expect((await postEvent(started.url, 'orders', order, token)).status).toBe(200);
  });

  it('stores an array and an off-spec payload, flagged, and keeps the event as sent', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    expect((await postEvent(started.url, 'customers', '[1, 2]', token)).status).toBe(200);
    const pretty = JSON.stringify({ ...customer, email: undefined, extra: 'kept' }, null, 2);
    expect((await postEvent(started.url, 'customers', pretty, token)).status).toBe(200);
    const [array, offSpec] = started.onDisk();
    expect(array).toMatchObject({ kind: 'customers', flags: ['payload is an array, not an object'], event: [1, 2] });
    expect(offSpec?.flags).toEqual(['email missing']);
    expect(offSpec?.event).toEqual(JSON.parse(pretty));
  });

  it('answers 408 to a client sending one byte at a time and keeps serving others', async () => {
    const started = await receiver({ requestTimeoutMs: 400 });
    const token = await receiverToken(started.url);
    const { port } = new URL(started.url);
    const socket = connect(Number(port), '127.0.0.1');
    const body = JSON.stringify(order);
    socket.write(
      `POST /webhooks/orders HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
    );
    let sent = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed && sent < body.length) socket.write(body[sent++] as string);
    }, 100);
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.on('close', resolve));
    // Meanwhile another sender is served at once.
    expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
    await closed;
    clearInterval(trickle);
    expect(sent).toBeLessThan(body.length);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(started.onDisk()).toEqual([]);
    expect((await postEvent(started.url, 'orders', order, token)).status).toBe(200);
  });
});

describe('durability and de-duplication', () => {
  it('stores 500 concurrent deliveries, each once, each answered 200 only once on disk', async () => {
    // 500 connections at once from one address: past the default cap per address (64), raised as for a platform
    // that sends that many at once.
    const started = await receiver({ maxConnectionsPerAddress: 1024 });
    const token = await receiverToken(started.url);
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, index) => postEvent(started.url, 'orders', { ...order, id: index + 1 }, token)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(500).fill(200));
    const deliveryIds = await Promise.all(
      answers.map(async (answer) => ((await answer.json()) as { deliveryId: string }).deliveryId),
    );
    const onDisk = started.onDisk();
    expect(onDisk).toHaveLength(500);
    expect(new Set(onDisk.map((record) => (record.event as { id: number }).id)).size).toBe(500);
    expect(new Set(onDisk.map((record) => record.deliveryId))).toEqual(new Set(deliveryIds));
  });

  it('answers 200 to the same order version twice and concurrently, storing it once', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    expect((await postEvent(started.url, 'orders', order, token)).status).toBe(200);
    // The same content (a status changed under a stamp to the second would be another version: webhook-events.ts).
    const again = await postEvent(started.url, 'orders', { ...order }, token);
    expect(await again.json()).toEqual({ status: 'duplicate' });
    const concurrent = await Promise.all(
      Array.from({ length: 20 }, () => postEvent(started.url, 'orders', { ...order, id: 99 }, token)),
    );
    expect(concurrent.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(started.onDisk().map((record) => (record.event as { id: number }).id)).toEqual([order.id, 99]);
  });

  it('stores two orders whose ids past 2^53 parse to one number: each is keyed by its id as written', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    const version = '"lastUpdated":"2026-11-29T12:00:00Z"';
    for (const raw of [
      `{"id":9007199254740993,"orderId":1,"status":"NEW",${version}}`,
      `{"id":9007199254740992,"orderId":2,"status":"CANCELED",${version}}`,
    ])
      expect(await (await postEvent(started.url, 'orders', raw, token)).json()).toMatchObject({ status: 'stored' });
    expect(started.onDisk().map((record) => record.key.split('#')[0])).toEqual([
      'orders:9007199254740993:2026-11-29T12:00:00.000Z',
      'orders:9007199254740992:2026-11-29T12:00:00.000Z',
    ]);
  });

  it('stores every customers event, the same content too: it carries no version, and may be a change it does not show', async () => {
    // A phone changed and changed back, or a field the event does not carry (a state registration): dropped as a
    // resend, the change would never reach the ERP; stored twice, a resend is applied twice, which changes nothing.
    const started = await receiver();
    const token = await receiverToken(started.url);
    for (const phone of ['(11) 3333-4444', '(11) 5555-6666', '(11) 3333-4444', '(11) 3333-4444'])
      expect(await (await postEvent(started.url, 'customers', { ...customer, phone }, token)).json()).toMatchObject({
        status: 'stored',
      });
    expect(started.onDisk().map((record) => (record.event as { phone: string }).phone)).toEqual([
      '(11) 3333-4444',
      '(11) 5555-6666',
      '(11) 3333-4444',
      '(11) 3333-4444',
    ]);
  });

  it('a store that cannot write is logged once a minute with a count, not once an event; its recovery is said', async () => {
    let clock = Date.parse('2026-11-23T06:00:00Z');
    let failing = true;
    const log: string[] = [];
    const started = await receiver({
      now: () => clock,
      log: (line) => log.push(line),
      appendThrough: async (append) => {
        if (failing) throw new Error('database or disk is full');
        return append();
      },
    });
    const token = await receiverToken(started.url);
    for (let id = 1; id <= 30; id++)
      expect((await postEvent(started.url, 'orders', { ...order, id }, token)).status).toBe(503);
    expect(log.filter((line) => line.startsWith('Could not store'))).toHaveLength(1);
    clock += 61_000;
    expect((await postEvent(started.url, 'orders', { ...order, id: 31 }, token)).status).toBe(503);
    expect(log.filter((line) => line.startsWith('Could not store')).at(-1)).toMatch(
      /\(and 29 more failures since the last such line\)$/,
    );
    for (const id of [32, 33])
      expect((await postEvent(started.url, 'orders', { ...order, id }, token)).status).toBe(503);
    failing = false;
    expect((await postEvent(started.url, 'orders', { ...order, id: 34 }, token)).status).toBe(200);
    expect(log.at(-1)).toBe('The store writes again (2 more failures were not logged one by one).');
  });

  it('remembers stored events across a restart', async () => {
    const directory = temporaryFolder();
    const first = await startTestReceiver({}, directory);
    expect((await postEvent(first.url, 'orders', order, await receiverToken(first.url))).status).toBe(200);
    await first.close();
    const second = await receiver({}, directory);
    const answer = await postEvent(second.url, 'orders', order, await receiverToken(second.url));
    expect(await answer.json()).toEqual({ status: 'duplicate' });
    expect(second.onDisk()).toHaveLength(1);
  });

  it('answers 503, never 2xx, when the commit fails (disk full), and stores a resend afterwards', async () => {
    let failures = 1;
    const started = await receiver({
      appendThrough: async (append) => {
        if (failures-- > 0) throw new Error('database or disk is full');
        return append();
      },
    });
    const token = await receiverToken(started.url);
    const answer = await postEvent(started.url, 'orders', order, token);
    expect(answer.status).toBe(503);
    expect(started.stored).toEqual([]);
    expect(started.onDisk()).toEqual([]);
    // Not remembered as stored: the resend is stored, not answered "duplicate".
    const resend = await postEvent(started.url, 'orders', order, token);
    expect(await resend.json()).toMatchObject({ status: 'stored' });
    expect(started.onDisk()).toHaveLength(1);
  });

  it('answers the HTTP request only once the store has appended (committed) the event', async () => {
    const gate: { open?: () => void } = {};
    const held = new Promise<void>((resolve) => (gate.open = resolve));
    let committed = 0;
    const reached: { append?: () => void } = {};
    const appending = new Promise<void>((resolve) => (reached.append = resolve));
    // The store's own append resolves only after its commit (the store contract); held here, it has not run.
    const started = await receiver({
      appendThrough: async (append) => {
        reached.append?.();
        await held;
        const result = await append();
        committed++;
        return result;
      },
    });
    const token = await receiverToken(started.url);
    let answered = false;
    const answer = postEvent(started.url, 'orders', order, token).then((response) => {
      answered = true;
      return response;
    });
    await appending;
    // While the append is held, the receiver answers a request sent after it: an answer to the event that did not
    // wait for the commit was written before that one (the handler reached the held append first), so it has come.
    expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
    expect({ answered, committed, stored: started.stored.length }).toEqual({
      answered: false,
      committed: 0,
      stored: 0,
    });
    gate.open?.();
    expect((await answer).status).toBe(200);
    expect(committed).toBe(1);
    expect(started.onDisk()).toHaveLength(1);
  });

  it('stores the client address the HTTP server gives for the request', async () => {
    const started = await receiver();
    await postEvent(started.url, 'orders', order, await receiverToken(started.url));
    expect(started.onDisk()[0]?.clientAddress).toBe('127.0.0.1');
    expect(started.stored[0]?.clientAddress).toBe('127.0.0.1');
  });

  it('imports an old NDJSON inbox once, skipping a torn and a NUL-filled tail', async () => {
    const directory = temporaryFolder();
    const file = join(directory, 'events.ndjson');
    writeFileSync(
      file,
      `${oldInboxLine(1)}\n${oldInboxLine(2)}\n${'\0'.repeat(5000)}\n{"receivedAt":"2026-11-23T06:00:09.000Z","kind":"ord`,
    );
    const store = await SqliteStore.open(join(directory, 'new'));
    try {
      // The torn tail is the last line, what a receiver killed mid-write leaves.
      const torn = { unreadable: 1, unreadableLines: [4], lastLineUnreadable: true };
      expect(await importNdjsonInbox(file, store)).toEqual({ stored: 2, duplicates: 0, ...torn });
      expect(await importNdjsonInbox(file, store)).toEqual({ stored: 0, duplicates: 2, ...torn });
    } finally {
      await store.close();
    }
    expect(inboxOnDisk(join(directory, 'new')).map((event) => event.event)).toEqual([{ id: 1 }, { id: 2 }]);
  });
});
