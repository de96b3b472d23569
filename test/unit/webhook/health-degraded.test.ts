import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { backlogHealth } from '../../../src/webhook/backlog.js';
import { forwardTo } from '../../../src/webhook/consumers.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { StoredEvent } from '../../../src/webhook/store/types.js';
import { sampleEvent } from '../../../src/webhook/sender.js';
import {
  clientId,
  clientSecret,
  postEvent,
  receiverToken,
  temporaryFolder,
  useTestReceivers,
} from '../../support/webhook-receiver.js';

const receiver = useTestReceivers();
const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function health(url: string): Promise<[number, unknown]> {
  const answer = await fetch(`${url}/healthz`);
  return [answer.status, await answer.json()];
}

describe('/healthz degraded', () => {
  it('answers 503 naming a store that cannot write, from the failed append until one succeeds', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const store = await SqliteStore.open(temporaryFolder());
    let full = true;
    const disk = Object.create(store) as SqliteStore;
    disk.append = async (event) => {
      if (full) throw new Error('database or disk is full');
      return store.append(event);
    };
    // A full disk refuses /healthz's probe write as well.
    disk.shareToken = async (digest, expiresAt, keptExpiredMs) => {
      if (full) throw new Error('database or disk is full');
      return store.shareToken(digest, expiresAt, keptExpiredMs);
    };
    const started = await receiver({ store: disk, now: () => now, log: () => undefined });
    full = false;
    const token = await receiverToken(started.url);
    full = true;
    expect((await postEvent(started.url, 'orders', order, token)).status).toBe(503);
    now += 30_000;
    expect(await health(started.url)).toEqual([
      503,
      { status: 'degraded', problems: [{ problem: 'store cannot write', seconds: 30 }], handOffs: [] },
    ]);
    full = false;
    expect((await postEvent(started.url, 'orders', order, token)).status).toBe(200);
    expect(await health(started.url)).toEqual([200, { status: 'ok', problems: [], handOffs: [] }]);
    // The store's own share of the answer, apart from queueing: what a monitor graphs.
    expect((await fetch(`${started.url}/healthz`)).headers.get('server-timing')).toMatch(
      /^store;dur=\d+\.\d\d, cpu-wait;dur=\d+\.\d\d$/,
    );
  });

  it('a token the store cannot keep: 503 to the token request, a log line, and /healthz degraded', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const store = await SqliteStore.open(temporaryFolder());
    let full = true;
    const disk = Object.create(store) as SqliteStore;
    disk.shareToken = async (digest, expiresAt, keptExpiredMs) => {
      if (full) throw new Error('database or disk is full');
      return store.shareToken(digest, expiresAt, keptExpiredMs);
    };
    const lines: string[] = [];
    const started = await receiver({ store: disk, now: () => now, log: (line) => lines.push(line) });
    await expect(receiverToken(started.url)).rejects.toThrow('token: HTTP 503');
    const asked = await fetch(`${started.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(asked.status).toBe(503);
    expect(await asked.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'The token could not be kept; ask again later',
    });
    expect(lines.join('\n')).toMatch(/Could not keep an issued token in .*: database or disk is full\. Answered 503/);
    now += 30_000;
    expect(await health(started.url)).toEqual([
      503,
      { status: 'degraded', problems: [{ problem: 'store cannot write', seconds: 30 }], handOffs: [] },
    ]);
    full = false;
    await receiverToken(started.url);
    expect((await health(started.url))[0]).toBe(200);
  });

  it('finds by itself that the store writes again, with no event sent to it (a balancer took it out on the 503)', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const store = await SqliteStore.open(temporaryFolder());
    let full = true;
    const tried: number[] = [];
    const disk = Object.create(store) as SqliteStore;
    disk.append = async (event) => {
      if (full) throw new Error('database or disk is full');
      return store.append(event);
    };
    disk.shareToken = async (digest, expiresAt, keptExpiredMs) => {
      tried.push(now);
      if (full) throw new Error('database or disk is full');
      return store.shareToken(digest, expiresAt, keptExpiredMs);
    };
    const lines: string[] = [];
    const started = await receiver({ store: disk, now: () => now, log: (line) => lines.push(line) });
    full = false;
    const token = await receiverToken(started.url);
    full = true;
    tried.length = 0;
    expect((await postEvent(started.url, 'orders', order, token)).status).toBe(503);
    now += 2_000;
    // Still full: the probe write fails, and the answer stays 503.
    expect((await health(started.url))[0]).toBe(503);
    // Logged as the event's failure is, once a minute at most (a full disk fails every request).
    now += 60_000;
    expect((await health(started.url))[0]).toBe(503);
    expect(lines.at(-1)).toMatch(
      /^\/healthz could not write to SQLite .*: database or disk is full; it tries again at its next check\. \(and 1 more failures since the last such line\)$/,
    );
    full = false;
    // The space is back. A balancer polling every second costs a write every 5 s, not one a poll.
    now += 4_000;
    expect(await health(started.url)).toEqual([
      503,
      { status: 'degraded', problems: [{ problem: 'store cannot write', seconds: 66 }], handOffs: [] },
    ]);
    expect(tried).toEqual([now - 64_000, now - 4_000]);
    now += 1_000;
    expect(await health(started.url)).toEqual([200, { status: 'ok', problems: [], handOffs: [] }]);
    expect(tried).toEqual([now - 65_000, now - 5_000, now]);
    // Once it writes, /healthz writes nothing more.
    now += 60_000;
    expect((await health(started.url))[0]).toBe(200);
    expect(tried).toHaveLength(3);
    expect(await store.tokenExpiry('unknown', 0)).toBeUndefined();
  });

  it('a nearly full disk that takes a token but no event: 503 and no "writes again" until an event-sized write fits (a user test)', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const store = await SqliteStore.open(temporaryFolder());
    // Room for a small write, not for an event: the probe and the tokens fit unless as large as an event.
    let roomBytes = 100;
    const eventBytes = Buffer.byteLength(JSON.stringify(order));
    const probes: number[] = [];
    const disk = Object.create(store) as SqliteStore;
    disk.append = async (event) => {
      if (Buffer.byteLength(event.raw) > roomBytes) throw new Error('database or disk is full');
      return store.append(event);
    };
    disk.shareToken = async (digest, expiresAt, keptExpiredMs) => {
      if (expiresAt <= now) probes.push(digest.length);
      if (digest.length > roomBytes) throw new Error('database or disk is full');
      return store.shareToken(digest, expiresAt, keptExpiredMs);
    };
    const lines: string[] = [];
    const started = await receiver({ store: disk, now: () => now, log: (line) => lines.push(line) });
    const token = await receiverToken(started.url);
    expect((await postEvent(started.url, 'orders', order, token)).status).toBe(503);
    // A token asked after the refusal is kept: it shows nothing of whether an event fits.
    const next = await receiverToken(started.url);
    now += 2_000;
    expect(await health(started.url)).toEqual([
      503,
      { status: 'degraded', problems: [{ problem: 'store cannot write', seconds: 2 }], handOffs: [] },
    ]);
    // The probe was as large as the event refused, and did not fit.
    expect(probes).toEqual([eventBytes]);
    expect(lines.filter((line) => line.startsWith('The store writes again'))).toEqual([]);
    expect((await postEvent(started.url, 'orders', order, next)).status).toBe(503);
    now += 6_000;
    expect((await health(started.url))[0]).toBe(503);
    expect(lines.filter((line) => line.startsWith('The store writes again'))).toEqual([]);
    // Room made: the next probe fits, /healthz is ready, and the line says so once; the event is stored.
    roomBytes = 1_000_000;
    now += 6_000;
    expect(await health(started.url)).toEqual([200, { status: 'ok', problems: [], handOffs: [] }]);
    expect(lines.filter((line) => line.startsWith('The store writes again'))).toHaveLength(1);
    expect((await postEvent(started.url, 'orders', order, next)).status).toBe(200);
  });

  it('answers 200 degraded naming the hand-off while a dead letter waits (it still takes events), ok once dropped', async () => {
    const started = await receiver();
    await started.store.openHandOff('erp', 'http://erp', true);
    await started.store.append({
      receivedAt: Date.now(),
      kind: 'orders',
      deliveryId: 'one',
      key: 'orders:one',
      flags: [],
      clientAddress: '',
      raw: '{}',
    });
    const next = (await started.store.nextForHandOff('erp')) as StoredEvent;
    await started.store.markDead('erp', next, 'HTTP 422', 1);
    // A load balancer that took every receiver sharing the store out stopped intake for one refused event (a user test).
    const [status, body] = await health(started.url);
    expect([status, body]).toMatchObject([
      200,
      { status: 'degraded', problems: [{ problem: 'dead letters', handOff: 'erp', count: 1 }] },
    ]);
    await started.store.dropDead([next.id]);
    expect(await health(started.url)).toMatchObject([200, { status: 'ok', problems: [] }]);
  });
});

describe('stuck: by the event in hand, or by the backlog when another receiver delivers', () => {
  it('judges a hand-off this process delivers by its current event, one it stands by for by its oldest pending', async () => {
    const store = await SqliteStore.open(temporaryFolder());
    closers.push(() => store.close());
    const now = Date.parse('2026-11-23T07:00:00Z');
    await store.openHandOff('erp', 'http://erp', true);
    await store.append({
      receivedAt: now - 3_600_000,
      kind: 'orders',
      deliveryId: 'old',
      key: 'orders:old',
      flags: [],
      clientAddress: '',
      raw: '{}',
    });
    // Delivering here, between two events: an hour-old backlog being worked through is no stuck delivery.
    expect((await backlogHealth(store, now, 900_000, { handOffs: [{ name: 'erp' }] })).problems).toEqual([]);
    // Standing by while another receiver holds it: only the backlog tells.
    expect(
      (await backlogHealth(store, now, 900_000, { handOffs: [{ name: 'erp', standingBy: true }] })).problems,
    ).toEqual([{ problem: 'delivery stuck', handOff: 'erp', seconds: 3600 }]);
  });
});

describe('--forward-timeout', () => {
  it('cuts a POST the ERP does not answer in time, and the error names the flag', async () => {
    const server = createServer(() => undefined); // takes the request, never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    const consumer = forwardTo(url, {}, 200);
    const stored = { id: 1, kind: 'orders', deliveryId: 'd1', event: {} } as unknown as StoredEvent;
    const failure = (await consumer.deliver(stored, new AbortController().signal).catch((error) => error)) as Error;
    expect(failure.message).toMatch(
      /^127\.0\.0\.1:\d+ did not answer in time \(UND_ERR_HEADERS_TIMEOUT\); the ERP has --forward-timeout \(0\.2 s\) to answer: raise it for a slow ERP, or check that it runs$/,
    );
  });

  it("names --forward-to, not the API client's --base-url, when nothing listens", async () => {
    const consumer = forwardTo('http://127.0.0.1:1/hook', {}, 1000);
    const stored = { id: 1, kind: 'orders', deliveryId: 'd1', event: {} } as unknown as StoredEvent;
    const failure = (await consumer.deliver(stored, new AbortController().signal).catch((error) => error)) as Error;
    expect(failure.message).toBe(
      'nothing listens at 127.0.0.1:1 (ECONNREFUSED); check --forward-to and that the server runs',
    );
  });
});
