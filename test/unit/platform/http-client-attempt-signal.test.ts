import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
import { InterruptedError, NothingSentError, UnavailableError } from '../../../src/base/errors.js';
import { HttpClient } from '../../../src/platform/http-client.js';
import { until } from '../../support/until.js';

// Each attempt's signal is built by hand instead of AbortSignal.any([signal, AbortSignal.timeout(ms)]) (issue 14):
// it must still time out when the caller brings a signal, stop on the caller's abort, and leave nothing behind on
// the caller's signal, which a bulk run keeps for thousands of requests. The URL of a route is parsed once.

const clock: Clock = { now: () => 0, sleep: async () => {} };
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

/** A server that answers `{}` at once, except that a path starting /hang never answers. */
async function serve(): Promise<{ baseUrl: string; paths: string[]; started: Promise<void> }> {
  const paths: string[] = [];
  let hangStarted!: () => void;
  const started = new Promise<void>((resolve) => (hangStarted = resolve));
  const server: Server = createServer((request, response) => {
    paths.push(request.url ?? '');
    request.resume();
    if (request.url?.startsWith('/base/hang')) return hangStarted();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/base`, paths, started };
}

function clientOf(baseUrl: string, timeoutMs = 5_000): HttpClient {
  const client = new HttpClient({ baseUrl, timeoutMs, maxRetries: 0, clock, random: () => 0 });
  cleanups.push(() => client.close());
  return client;
}

describe('HttpClient attempts', () => {
  it('time out even when the caller brings a signal of its own', async () => {
    const { baseUrl } = await serve();
    const run = new AbortController();
    const error = await clientOf(baseUrl, 100)
      .request({ method: 'GET', path: '/hang', signal: run.signal })
      .catch((failure: unknown) => failure as Error);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as Error).message).toMatch(
      /after 1 attempt: .* did not answer within the 0\.1 s time-out \(timed out\)/,
    );
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });

  it("stop at the caller's abort, mid-request, as an interruption", async () => {
    const { baseUrl, started } = await serve();
    const run = new AbortController();
    const pending = clientOf(baseUrl)
      .request({ method: 'PUT', path: '/hang', body: '{}', signal: run.signal })
      .catch((failure: unknown) => failure as Error);
    await started;
    run.abort('SIGINT');
    const error = await pending;
    expect(error).toBeInstanceOf(InterruptedError);
    // Written, its answer never read: it may have been applied (a PUT is safe to repeat unless said otherwise).
    expect((error as Error).message).toBe(
      `Interrupted (SIGINT) during PUT ${baseUrl}/hang, after the request was sent: the platform may have applied it; sending it again does no harm (it is safe to repeat).`,
    );
  });

  it("leave no listener on the caller's signal, and reach each route's own path", async () => {
    const { baseUrl, paths } = await serve();
    const client = clientOf(baseUrl);
    const run = new AbortController();
    for (const path of ['/a', '/a', '/b', '/a', 'c'])
      expect((await client.request({ method: 'GET', path, signal: run.signal })).url).toBe(
        `${baseUrl}/${path.replace(/^\//, '')}`,
      );
    await client.request({ method: 'GET', path: '/a', query: { page: 2 } });
    expect(paths).toEqual(['/base/a', '/base/a', '/base/b', '/base/a', '/base/c', '/base/a?page=2']);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
  });
});

/** A pace whose turns come only when the test says; it records the signal each wait was given. */
function heldPace() {
  let give!: () => void;
  const waits: (AbortSignal | undefined)[] = [];
  const pace = {
    take: (signal?: AbortSignal) => {
      waits.push(signal);
      return new Promise<void>((resolve, reject) => {
        give = resolve;
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    },
    succeeded: () => {},
    throttled: () => {},
  };
  return { pace, waits, give: () => give() };
}

describe('HttpClient stopStarting (a bulk run interrupted)', () => {
  it('sends no request once interrupted, and stops one waiting for its turn: NothingSentError, nothing reached', async () => {
    const { baseUrl, paths } = await serve();
    const stop = new AbortController();
    const { pace } = heldPace();
    const client = new HttpClient({ baseUrl, timeoutMs: 5_000, maxRetries: 0, clock, pace, stopStarting: stop.signal });
    cleanups.push(() => client.close());
    const run = new AbortController();
    const waiting = client
      .request({ method: 'PUT', path: '/stock', body: '{}', signal: run.signal })
      .catch((failure: unknown) => failure as Error);
    stop.abort('SIGINT');
    const error = await waiting;
    expect(error).toBeInstanceOf(NothingSentError);
    expect((error as Error).message).toBe(`Interrupted before PUT ${baseUrl}/stock was sent.`);
    const after = await client
      .request({ method: 'PUT', path: '/stock', body: '{}' })
      .catch((failure: unknown) => failure);
    expect(after).toBeInstanceOf(NothingSentError);
    expect(paths).toEqual([]);
  });

  it('lets a request that got its turn go, and one not interrupted is unaffected', async () => {
    const { baseUrl, paths } = await serve();
    const stop = new AbortController();
    const held = heldPace();
    const client = new HttpClient({
      baseUrl,
      timeoutMs: 5_000,
      maxRetries: 0,
      clock,
      pace: held.pace,
      stopStarting: stop.signal,
    });
    cleanups.push(() => client.close());
    const going = client.request({ method: 'GET', path: '/a' });
    await until(() => held.waits.length === 1, 'the request to wait for its turn', { everyMs: 1 });
    held.give();
    expect((await going).status).toBe(200);
    expect(paths).toEqual(['/base/a']);
  });
});
