import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { EventStore } from '../../../src/webhook/store/types.js';
import { makeSelfSignedCertificate } from '../../support/certificates.js';
import { requireTools } from '../../support/external-tools.js';
import {
  postEvent,
  receiverToken,
  startTestReceiver,
  useTestReceivers,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

// The receiver's answers, word for word, and its token check's wiring: what the platform reads to decide
// whether to send an event again, and the paths by which an event is stored or refused.

const openssl = requireTools('openssl');
const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));
const receiver = useTestReceivers();

/** A SQLite store given the token sharing a PostgreSQL one has, to watch the receiver use it. */
type SharedStore = SqliteStore & Pick<EventStore, 'shareToken' | 'tokenExpiry'>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('receiver answers', () => {
  it('stores under each kind, answering the delivery id it gives the event and telling onStored after the commit', async () => {
    const started = await receiver({ now: () => Date.parse('2026-11-23T06:00:05Z') });
    const token = await receiverToken(started.url);
    const answer = await postEvent(started.url, 'orders', order, token);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { status: string; deliveryId: string };
    expect(body).toEqual({ status: 'stored', deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await postEvent(started.url, 'customers', { id: 9 }, token)).status).toBe(200);
    expect(started.stored).toEqual([
      {
        receivedAt: '2026-11-23T06:00:05.000Z',
        kind: 'orders',
        deliveryId: body.deliveryId,
        key: started.onDisk()[0]?.key,
        flags: [],
        clientAddress: '127.0.0.1',
        event: order,
      },
      expect.objectContaining({ kind: 'customers', event: { id: 9 } }),
    ]);
    expect(started.onDisk().map((event) => [event.kind, event.deliveryId, event.receivedAt])).toEqual([
      ['orders', body.deliveryId, '2026-11-23T06:00:05.000Z'],
      ['customers', started.stored[1]?.deliveryId, '2026-11-23T06:00:05.000Z'],
    ]);
  });

  it('tells onDuplicate the kind and key of a redelivery, and not onStored', async () => {
    const duplicates: string[] = [];
    const started = await receiver({ onDuplicate: (kind, key) => duplicates.push(`${kind} ${key}`) });
    const token = await receiverToken(started.url);
    await postEvent(started.url, 'orders', order, token);
    const again = await postEvent(started.url, 'orders', order, token);
    expect(await again.json()).toEqual({ status: 'duplicate' });
    expect(duplicates).toEqual([`orders ${started.onDisk()[0]?.key}`]);
    expect(started.stored).toHaveLength(1);
  });

  it('answers 503 with its reason and logs the store and the error when the commit fails', async () => {
    const logged: string[] = [];
    const started = await receiver({
      log: (line) => logged.push(line),
      appendThrough: async () => {
        throw new Error('database or disk is full');
      },
    });
    const answer = await postEvent(started.url, 'customers', { id: 1 }, await receiverToken(started.url));
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      error: 'inbox_unavailable',
      error_description: 'The event could not be stored; send it again later',
    });
    expect(logged).toEqual([
      `Could not store a customers event in SQLite ${started.directory}/inbox.sqlite: database or disk is full. Answered 503 so the platform can resend it.`,
    ]);
  });

  it('takes application/json and +json media types in any case, with parameters; refuses look-alikes with 415', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    const body = JSON.stringify(order);
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/JSON;charset=UTF-8',
      'application/vnd.platform.v2+json; charset=utf-8',
    ]) {
      const answer = await postEvent(started.url, 'orders', { ...order, id: type }, token, type);
      expect([type, answer.status]).toEqual([type, 200]);
    }
    for (const type of [
      'application/jsonx',
      'application/jsonx; charset=utf-8',
      'text/application/json',
      'x-application/json',
      'application/+json',
      'application/json-seq',
    ]) {
      const answer = await postEvent(started.url, 'orders', body, token, type);
      expect([type, answer.status]).toEqual([type, 415]);
      const refusal = (await answer.json()) as { error: string };
      expect(refusal.error).toBe('unsupported_media_type');
    }
    expect(started.onDisk()).toHaveLength(4);
  });

  it('answers malformed JSON 400 saying why, an unknown route 404 naming it, a large body 413', async () => {
    const started = await receiver({ bodyLimitBytes: 2000 });
    const token = await receiverToken(started.url);
    const malformed = await postEvent(started.url, 'orders', '{"id": 1,', token);
    expect(malformed.status).toBe(400);
    const refusal = (await malformed.json()) as { error: string; error_description: string };
    expect(refusal.error).toBe('bad_request');
    expect(refusal.error_description).toMatch(/^Body is not valid JSON: /);
    const missing = await fetch(`${started.url}/webhooks/invoices?token=secret`, { method: 'POST' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'not_found', error_description: 'No route POST /webhooks/invoices' });
    const large = await postEvent(started.url, 'orders', { ...order, padding: 'x'.repeat(3000) }, token);
    expect(large.status).toBe(413);
    expect(((await large.json()) as { error: string }).error).toBe('payload_too_large');
    expect(started.onDisk()).toEqual([]);
  });

  it('answers an error no route expected 500 server_error', async () => {
    const started = await receiver();
    started.store.backlog = async () => {
      throw new Error('disk I/O error');
    };
    const answer = await fetch(`${started.url}/healthz`);
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({ error: 'server_error', error_description: 'disk I/O error' });
  });

  it('refuses a token request over 64 KB before reading it', async () => {
    const started = await receiver();
    const answer = await fetch(`${started.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&padding=${'x'.repeat(70 * 1024)}`,
    });
    expect([answer.status, await answer.json()]).toEqual([
      413,
      {
        error: 'payload_too_large',
        error_description: 'The request is larger than 65536 bytes, the most this receiver reads',
      },
    ]);
  });
});

describe('receiver health, errors and shutdown', () => {
  it('answers /healthz 200 ok while hand-offs keep up, and 200 degraded with the backlog when one is stuck', async () => {
    const now = Date.parse('2026-11-23T06:10:00Z');
    const started = await receiver({ stuckAfterMs: 60_000, now: () => now });
    expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
    await started.store.openHandOff('erp', 'http://erp', true);
    await started.store.append({
      receivedAt: now - 120_000,
      kind: 'orders',
      deliveryId: 'old',
      key: 'orders:old',
      flags: [],
      clientAddress: '',
      raw: '{}',
    });
    const stuck = await fetch(`${started.url}/healthz`);
    // Still ready: it takes events; the monitor reads "degraded" and the problem in the body (a user test).
    expect(stuck.status).toBe(200);
    expect(await stuck.json()).toMatchObject({
      status: 'degraded',
      problems: [{ problem: 'delivery stuck', handOff: 'erp', seconds: 120 }],
    });
  });

  it.each([302, 600, 200])(
    'answers 500 server_error to a failure carrying the status %i, which is no error status',
    async (statusCode) => {
      const started = await receiver();
      started.store.backlog = async () => {
        throw Object.assign(new Error('odd failure'), { statusCode });
      };
      const answer = await fetch(`${started.url}/healthz`);
      expect(answer.status).toBe(500);
      expect(await answer.json()).toEqual({ error: 'server_error', error_description: 'odd failure' });
    },
  );

  it('answers 415 saying what to send to a form or an empty body on an event route', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    const form = await postEvent(started.url, 'orders', 'id=1', token, 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({
      error: 'unsupported_media_type',
      error_description: 'Send the event as application/json',
    });
    const empty = await fetch(`${started.url}/webhooks/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(empty.status).toBe(415);
    expect(started.onDisk()).toEqual([]);
  });

  it('stores an event without an onStored listener', async () => {
    const started = await receiver({ onStored: undefined });
    const answer = await postEvent(started.url, 'orders', order, await receiverToken(started.url));
    expect(answer.status).toBe(200);
    expect(started.onDisk()).toHaveLength(1);
  });

  it('stops listening on close()', async () => {
    const started = await startTestReceiver();
    expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
    await started.close();
    await expect(fetch(`${started.url}/healthz`)).rejects.toThrow(/fetch failed/);
  });

  it.skipIf(openssl.missing)(`serves HTTPS with a certificate${openssl.note}`, async () => {
    const folder = temporaryFolder();
    const certFile = join(folder, 'cert.pem');
    const keyFile = join(folder, 'key.pem');
    makeSelfSignedCertificate({ certFile, keyFile, subject: '/CN=127.0.0.1', days: 1 });
    const started = await receiver({ tls: { cert: readFileSync(certFile), key: readFileSync(keyFile) } });
    expect(started.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    const answer = await fetch(`${started.url}/healthz`, { dispatcher });
    expect(answer.status).toBe(200);
    await dispatcher.close();
  });
});

describe('receiver token check', () => {
  it('says which of missing, expired or unknown, with the Bearer challenge; reads the scheme in any case', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const started = await receiver({ tokenTtlSeconds: 60, now: () => now });
    const token = await receiverToken(started.url);
    const answerWith = (authorization: string | undefined) =>
      fetch(`${started.url}/webhooks/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify(order),
      });
    const refusals: [string | undefined, string][] = [
      [undefined, 'Bearer token missing'],
      [`Basic ${token}`, 'Bearer token missing'],
      [`Bearer ${token} extra`, 'Bearer token missing'],
      [`xBearer ${token}`, 'Bearer token missing'],
      ['Bearer   ', 'Bearer token missing'],
      ['Bearer forged-token', 'Token unknown'],
    ];
    for (const [authorization, description] of refusals) {
      const answer = await answerWith(authorization);
      expect([authorization, answer.status]).toEqual([authorization, 401]);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(await answer.json()).toEqual({ error: 'invalid_token', error_description: description });
    }
    expect((await answerWith(`bearer  ${token}`)).status).toBe(200);
    now += 60_000;
    const expired = await answerWith(`Bearer ${token}`);
    expect(await expired.json()).toEqual({ error: 'invalid_token', error_description: 'Token expired' });
    expect(started.onDisk()).toHaveLength(1);
  });

  it('shares the digest of each token it issues with a shared store, and takes a token another receiver issued', async () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    const shared = new Map<string, number>();
    const asked: [string, number][] = [];
    const store: SharedStore = await SqliteStore.open(temporaryFolder());
    store.shareToken = async (digest, expiresAt) => void shared.set(digest, expiresAt);
    store.tokenExpiry = async (digest, at) => {
      asked.push([digest, at]);
      const expiresAt = shared.get(digest);
      return expiresAt !== undefined && expiresAt > at ? expiresAt : undefined;
    };
    const first = await receiver({ store, tokenTtlSeconds: 600, now: () => now });
    const second = await receiver({ store, tokenTtlSeconds: 600, now: () => now + 1000 });
    const token = await receiverToken(first.url);
    expect([...shared]).toEqual([[sha256(token), now + 600_000]]);
    // The second receiver never issued it: it asks the store, by digest, at its own time.
    expect((await postEvent(second.url, 'orders', order, token)).status).toBe(200);
    // It asks for a token expiring after one lifetime ago: one that expired before a restart is told expired.
    expect(asked).toEqual([[sha256(token), now + 1000 - 600_000]]);
    // Held from then on: not asked again.
    expect((await postEvent(second.url, 'orders', order, token)).status).toBe(200);
    expect(asked).toHaveLength(1);
    // A token the store's key did not sign never reaches the store.
    for (const forged of ['forged-token', Buffer.alloc(40, 7).toString('base64url')]) {
      const unknown = await postEvent(second.url, 'orders', order, forged);
      expect(await unknown.json()).toMatchObject({ error_description: 'Token unknown' });
    }
    expect(asked).toHaveLength(1);
  });

  it('tells a token that expired before a restart expired for one lifetime more, then unknown', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const store = await SqliteStore.open(temporaryFolder());
    const before = await receiver({ store, tokenTtlSeconds: 60, now: () => now });
    const token = await receiverToken(before.url);
    // Another receiver of the same store, as after a restart: it never held the token.
    const after = await receiver({ store, tokenTtlSeconds: 60, now: () => now });
    now += 61_000;
    const expired = await postEvent(after.url, 'orders', order, token);
    expect(await expired.json()).toEqual({ error: 'invalid_token', error_description: 'Token expired' });
    now += 60_000;
    // Another token is issued: its sweep removes only the tokens expired more than a lifetime ago.
    await receiverToken(before.url);
    const later = await receiver({ store, tokenTtlSeconds: 60, now: () => now });
    const forgotten = await postEvent(later.url, 'orders', order, token);
    expect(await forgotten.json()).toEqual({ error: 'invalid_token', error_description: 'Token unknown' });
  });

  it('never asks the shared store about an expired token of its own', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const store: SharedStore = await SqliteStore.open(temporaryFolder());
    let asked = 0;
    store.shareToken = async () => undefined;
    store.tokenExpiry = async () => {
      asked++;
      return Number.MAX_SAFE_INTEGER;
    };
    const started = await receiver({ store, tokenTtlSeconds: 60, now: () => now });
    const token = await receiverToken(started.url);
    now += 61_000;
    const answer = await postEvent(started.url, 'orders', order, token);
    expect(await answer.json()).toMatchObject({ error_description: 'Token expired' });
    // Retried, as a platform does: still expired (it was "Token unknown" from the second try), the store not asked.
    const retried = await postEvent(started.url, 'orders', order, token);
    expect(await retried.json()).toEqual({ error: 'invalid_token', error_description: 'Token expired' });
    expect(asked).toBe(0);
    expect((await postEvent(started.url, 'orders', order, undefined)).status).toBe(401);
    expect(asked).toBe(0);
  });
});
