import { describe, expect, it } from 'vitest';
import { clientId, clientSecret, useTestReceivers } from '../../support/webhook-receiver.js';

// The token endpoint against online guessing: wrong credentials are counted per client address, never per client
// id (no secret: a lock on it would shut the platform out); past 10 in a minute the address's requests are answered
// 429 with Retry-After, the right secret included, until the minute is over; the log gets a line per window, not
// per failure.

const receiver = useTestReceivers();

function basic(url: string, secret: string, options: { id?: string; from?: string } = {}): Promise<Response> {
  return fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${options.id ?? clientId}:${secret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.from ? { 'x-forwarded-for': options.from } : {}),
    },
    body: 'grant_type=client_credentials',
  });
}

describe('token endpoint: failures limited', () => {
  it('answers 429 with Retry-After after 10 wrong secrets from one address, even to the right one, for a minute', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const logged: string[] = [];
    const started = await receiver({ now: () => now, log: (line) => logged.push(line) });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      statuses.push((await basic(started.url, `wrong-${attempt}`)).status);
      now += 1000;
    }
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);
    const refused = await basic(started.url, clientSecret);
    expect(refused.status).toBe(429);
    // The window opened at the first failure, 20 s ago.
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(await refused.json()).toEqual({
      error: 'too_many_requests',
      error_description: 'Too many failed token requests; try again in 40 s',
    });
    expect(logged).toEqual([
      'Token refused: wrong client credentials (basic style) from 127.0.0.1; further failures from 127.0.0.1 in the next 60 s are counted, not logged.',
      'Token requests from 127.0.0.1 are refused with 429 for up to 60 s: too many wrong credentials.',
    ]);
    now += 40_000;
    expect((await basic(started.url, clientSecret)).status).toBe(200);
  });

  it('does not lock the client id: wrong secrets for it from ten addresses leave the platform its token', async () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    const logged: string[] = [];
    const started = await receiver({ now: () => now, trustProxy: ['127.0.0.1'], log: (line) => logged.push(line) });
    for (let address = 1; address <= 10; address++)
      expect((await basic(started.url, 'wrong', { from: `203.0.113.${address}` })).status).toBe(401);
    expect((await basic(started.url, clientSecret, { from: '198.51.100.1' })).status).toBe(200);
    expect(logged.filter((line) => line.includes('429'))).toEqual([]);
  });

  it('ten wrong secrets from one address lock that address alone: another one with the right secret gets its token', async () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    const started = await receiver({ now: () => now, trustProxy: ['127.0.0.1'] });
    for (let attempt = 0; attempt < 10; attempt++)
      expect((await basic(started.url, `wrong-${attempt}`, { from: '203.0.113.7' })).status).toBe(401);
    expect((await basic(started.url, clientSecret, { from: '203.0.113.7' })).status).toBe(429);
    expect((await basic(started.url, clientSecret, { from: '198.51.100.1' })).status).toBe(200);
  });

  // y/Y3: each address of a /64 (2^64 of them, any provider's one client) was a bucket of its own.
  it('wrong secrets from one IPv6 /64, each from another address, are counted as one client', async () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    const logged: string[] = [];
    const started = await receiver({ now: () => now, trustProxy: ['127.0.0.1'], log: (line) => logged.push(line) });
    for (let guess = 1; guess <= 10; guess++)
      expect((await basic(started.url, `wrong-${guess}`, { from: `2001:db8:1:2:${guess}::1` })).status).toBe(401);
    expect((await basic(started.url, clientSecret, { from: '2001:db8:1:2:ffff::9' })).status).toBe(429);
    expect((await basic(started.url, clientSecret, { from: '2001:db8:1:3::1' })).status).toBe(200);
    expect(logged).toEqual([
      'Token refused: wrong client credentials (basic style) from 2001:db8:1:2::/64; further failures from 2001:db8:1:2::/64 in the next 60 s are counted, not logged.',
      'Token requests from 2001:db8:1:2::/64 are refused with 429 for up to 60 s: too many wrong credentials.',
    ]);
  });

  it('does not count good requests or malformed ones', async () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    const started = await receiver({ now: () => now });
    for (let attempt = 0; attempt < 9; attempt++)
      expect((await basic(started.url, `wrong-${attempt}`)).status).toBe(401);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await basic(started.url, clientSecret)).status).toBe(200);
      const malformed = await fetch(`${started.url}/oauth/token`, { method: 'POST' });
      expect(malformed.status).toBe(400);
    }
    expect((await basic(started.url, 'wrong-9')).status).toBe(401);
    expect((await basic(started.url, clientSecret)).status).toBe(429);
  });

  // A user test: a SaaS platform sends every tenant's webhooks from a few egress addresses; another tenant pointed here with
  // its own secret (or a store left on the old secret after a rotation) locked the platform out with ten requests.
  it("one wrong secret sent again and again from the platform's address is one guess: the platform keeps its token", async () => {
    const now = Date.parse('2026-11-23T06:00:00Z');
    const logged: string[] = [];
    const started = await receiver({ now: () => now, trustProxy: ['127.0.0.1'], log: (line) => logged.push(line) });
    for (let attempt = 0; attempt < 50; attempt++)
      expect((await basic(started.url, 'another-tenants-secret', { from: '203.0.113.7' })).status).toBe(401);
    expect((await basic(started.url, clientSecret, { from: '203.0.113.7' })).status).toBe(200);
    expect(logged.filter((line) => line.includes('429'))).toEqual([]);
    // Ten different ones are ten guesses: the limit holds.
    for (let guess = 0; guess < 9; guess++)
      expect((await basic(started.url, `guess-${guess}`, { from: '203.0.113.7' })).status).toBe(401);
    expect((await basic(started.url, clientSecret, { from: '203.0.113.7' })).status).toBe(429);
  });
});
