import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
import { InterruptedError, UnavailableError } from '../../../src/base/errors.js';
import {
  AmbiguousRequestError,
  HttpClient,
  type HttpClientOptions,
  type HttpRequest,
} from '../../../src/platform/http-client.js';
import { refusedPort } from '../../support/cli.js';

/** What the server saw of one request. */
interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

const reply =
  (status: number, body = '', headers: Record<string, string> = {}): Answer =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(body);
  };
/** An answer without the `Date` header Node's server adds by itself. */
const undated =
  (answer: Answer): Answer =>
  (request, response) => {
    response.sendDate = false;
    answer(request, response);
  };
/** Drops the connection without answering, as a crashing proxy does. */
const resetConnection: Answer = (request) => request.socket.destroy();
/** Never answers; the client's time-out must end the wait. */
const hang: Answer = () => {};

/** A real server on 127.0.0.1 that plays its answers in order, the last one forever after. */
class ScriptedServer {
  readonly seen: SeenRequest[] = [];
  private readonly server: Server;
  private readonly answers: Answer[];
  constructor(answers: Answer[]) {
    this.answers = answers;

    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.seen.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const answer = this.answers[Math.min(this.seen.length, this.answers.length) - 1]!;
        answer(request, response);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A clock frozen at one instant whose sleep records the delay instead of waiting. */
function fakeClock(nowMs = Date.parse('2026-11-02T12:00:00Z')): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => nowMs,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).toReversed()) await cleanup();
});

async function setUp(answers: Answer[], options: Partial<HttpClientOptions> = {}) {
  const server = new ScriptedServer(answers);
  const baseUrl = await server.start();
  cleanups.push(() => server.stop());
  const clock = fakeClock();
  const client = new HttpClient({ baseUrl, timeoutMs: 5_000, maxRetries: 3, clock, random: () => 0, ...options });
  cleanups.push(() => client.close());
  return { server, baseUrl, clock, client };
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the request to fail');
}

const get: HttpRequest = { method: 'GET', path: '/sellerModule/listSellers' };
const post: HttpRequest = {
  method: 'POST',
  path: '/v1/customer',
  body: '{"name":"Ana"}',
  headers: { 'content-type': 'application/json' },
};

describe('HttpClient retries', () => {
  it.each([
    { name: '503 then 200', answers: [reply(503), reply(200, '[]')], sleeps: [125] },
    { name: '502, 504 then 200', answers: [reply(502), reply(504), reply(200, '[]')], sleeps: [125, 250] },
    {
      name: '429 with Retry-After: 2',
      answers: [reply(429, '', { 'retry-after': '2' }), reply(200, '[]')],
      sleeps: [2000],
    },
    {
      name: '429 with an HTTP-date Retry-After and no Date, measured on the injected clock',
      answers: [
        undated(reply(429, '', { 'retry-after': new Date(Date.parse('2026-11-02T12:00:30Z')).toUTCString() })),
        reply(200, '[]'),
      ],
      sleeps: [30_000],
    },
    {
      // The platform's clock 10 minutes ahead: it asked for 3 s, not 603 (records failed as "unavailable").
      name: "429 with an HTTP-date Retry-After, measured from the answer's Date",
      answers: [
        reply(429, '', {
          date: new Date(Date.parse('2026-11-02T12:10:00Z')).toUTCString(),
          'retry-after': new Date(Date.parse('2026-11-02T12:10:03Z')).toUTCString(),
        }),
        reply(200, '[]'),
      ],
      sleeps: [3_000],
    },
    { name: 'a reset connection on GET', answers: [resetConnection, reply(200, '[]')], sleeps: [125] },
  ])('$name: retried, then answered', async ({ answers, sleeps }) => {
    const { server, clock, client } = await setUp(answers);
    const response = await client.request(get);
    expect(response.status).toBe(200);
    expect(response.text).toBe('[]');
    expect(response.attempts).toBe(sleeps.length + 1);
    expect(clock.sleeps).toEqual(sleeps);
    expect(server.seen).toHaveLength(sleeps.length + 1);
  });

  it.each([
    { name: '400', status: 400, maxRetries: 3 },
    { name: '422', status: 422, maxRetries: 3 },
    { name: '404', status: 404, maxRetries: 3 },
    { name: '500', status: 500, maxRetries: 3 },
    { name: '500 with retries off', status: 500, maxRetries: 0 },
    { name: '422 with retries off', status: 422, maxRetries: 0 },
  ])('$name is returned without a retry', async ({ status, maxRetries }) => {
    const body =
      '{"status":"UNPROCESSABLE_ENTITY","message":"Property [document] with value [1] does not pass validation"}';
    const { server, clock, client } = await setUp([reply(status, body), reply(200)], { maxRetries });
    const response = await client.request(post);
    expect([response.status, response.text, response.attempts]).toEqual([status, body, 1]);
    expect(server.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('gives up with UnavailableError after maxRetries of 503', async () => {
    const { server, baseUrl, clock, client } = await setUp([reply(503)], { maxRetries: 2 });
    const error = await failureOf(client.request(get));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).not.toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toBe(
      `GET ${baseUrl}/sellerModule/listSellers kept failing with HTTP 503 after 3 attempts; the platform is unavailable, try again later.`,
    );
    expect(server.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([125, 250]);
  });

  it('does not wait for a Retry-After beyond five minutes', async () => {
    const { server, clock, client } = await setUp([reply(503, '', { 'retry-after': '3600' }), reply(200)]);
    await client.request(get).catch(() => undefined);
    expect(server.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it.each([
    { name: 'with retries', maxRetries: 3 },
    { name: 'with retries off', maxRetries: 0 },
  ])('a reset connection on POST is ambiguous, never repeated ($name)', async ({ maxRetries }) => {
    const { server, baseUrl, clock, client } = await setUp([resetConnection, reply(201)], { maxRetries });
    const error = await failureOf(client.request(post));
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toMatch(
      new RegExp(`^POST ${baseUrl}/v1/customer failed \\(\\w+\\) after the request may have reached the platform\\.$`),
    );
    expect(server.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('a POST marked safeToRepeat is retried after a reset', async () => {
    const { server, client } = await setUp([resetConnection, reply(200, '{}')]);
    const response = await client.request({ ...post, safeToRepeat: true });
    expect(response.status).toBe(200);
    expect(server.seen.map((seen) => seen.body)).toEqual(['{"name":"Ana"}', '{"name":"Ana"}']);
  });

  it('with a pacer, 429s are waited out through the pacer and do not spend the retries', async () => {
    const throttled: number[] = [];
    let takes = 0;
    const pace = {
      take: async () => void takes++,
      succeeded: () => {},
      throttled: (ms: number) => void throttled.push(ms),
    };
    const throttle = reply(429, '', { 'retry-after': '1' });
    const { server, clock, client } = await setUp(
      [throttle, throttle, throttle, throttle, throttle, reply(200, '[]')],
      { maxRetries: 1, pace },
    );
    const response = await client.request(get);
    expect(response.status).toBe(200);
    expect(server.seen).toHaveLength(6);
    expect(throttled).toEqual([1000, 1000, 1000, 1000, 1000]);
    expect(takes).toBe(6);
    // The pacer's pause is the wait; the client itself does not sleep on top of it.
    expect(clock.sleeps).toEqual([]);
    // A 429 waited out is counted as throttled, not as a retry (docs/platform.md, "Status codes").
    expect(client.stats).toEqual({ requests: 6, retries: 0, throttled: 5 });
  });

  it('with a pacer and no retries at all (--retries 0), 429s are still waited out', async () => {
    const pace = { take: async () => undefined, succeeded: () => {}, throttled: () => {} };
    const throttle = reply(429, '', { 'retry-after': '1' });
    const { server, client } = await setUp([throttle, throttle, reply(200, '[]')], { maxRetries: 0, pace });
    const response = await client.request(get);
    expect(response.status).toBe(200);
    expect(server.seen).toHaveLength(3);
    expect(client.stats).toEqual({ requests: 3, retries: 0, throttled: 2 });
  });

  it('with a pacer, a platform answering 429 for ever ends: 50 are waited out, then they spend the retries', async () => {
    const pace = { take: async () => undefined, succeeded: () => {}, throttled: () => {} };
    const { server, baseUrl, client } = await setUp([reply(429, '', { 'retry-after': '1' })], {
      maxRetries: 1,
      pace,
    });
    const error = await failureOf(client.request(get));
    expect(error).toBeInstanceOf(UnavailableError);
    // The attempts are every request sent: the 50 waited out, the one that spent the retry and the last.
    expect(error.message).toBe(
      `GET ${baseUrl}/sellerModule/listSellers kept answering HTTP 429 (too many requests) after 52 attempts; the platform is throttling b2bctl's requests, try again later.`,
    );
    expect(server.seen).toHaveLength(52);
    expect(client.stats).toEqual({ requests: 52, retries: 1, throttled: 52 });
  });

  it('with a pacer, 429s waited out leave the retries whole for a failure that follows', async () => {
    const pace = { take: async () => undefined, succeeded: () => {}, throttled: () => {} };
    const retries: number[] = [];
    const throttle = reply(429, '', { 'retry-after': '1' });
    const { server, client } = await setUp([throttle, throttle, reply(503), reply(200, '[]')], {
      maxRetries: 1,
      pace,
      onRetry: (event: { attempt: number }) => void retries.push(event.attempt),
    });
    const response = await client.request(get);
    expect(response.status).toBe(200);
    expect(server.seen).toHaveLength(4);
    // The attempt each retry reports counts failures only: the two 429s are attempt 0's waits, the 503 is the first.
    expect(retries).toEqual([0, 0, 1]);
  });

  it('tells the pacer when the answered attempt started, as take() said', async () => {
    const starts = [101, 102];
    const answeredStarts: (number | undefined)[] = [];
    const pace = {
      take: async () => starts.shift(),
      succeeded: (startedAt?: number) => void answeredStarts.push(startedAt),
      throttled: () => {},
    };
    const { client } = await setUp([reply(429, '', { 'retry-after': '1' }), reply(200, '[]')], { pace });
    await client.request(get);
    expect(answeredStarts).toEqual([102]);
  });

  it('without a pacer, 429s are retries like any other', async () => {
    const throttle = reply(429, '', { 'retry-after': '1' });
    const { server, client } = await setUp([throttle, throttle, throttle], { maxRetries: 1 });
    const error = await failureOf(client.request(get));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(server.seen).toHaveLength(2);
  });

  it('a time-out on GET, the request sent, is retried, then reported as no answer (the platform was reached)', async () => {
    const { server, baseUrl, clock, client } = await setUp([hang], { timeoutMs: 150, maxRetries: 1 });
    const error = await failureOf(client.request(get));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).not.toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toBe(
      `No answer from ${baseUrl} after 2 attempts: ${new URL(baseUrl).host} did not answer within the 0.15 s time-out (timed out). If the platform is this slow, raise the time-out (B2BCTL_TIMEOUT=30s, or b2bctl config set http.timeout 30s), then try again.`,
    );
    expect(server.seen).toHaveLength(2);
    expect(clock.sleeps).toEqual([125]);
  });

  it('a write safe to repeat (a stock batch PUT) timing out once sent is retried, then ambiguous: it may have been applied', async () => {
    const { server, baseUrl, client } = await setUp([hang], { timeoutMs: 150, maxRetries: 1, timeoutFlag: true });
    const error = await failureOf(
      client.request({ method: 'PUT', path: '/v1/stock/batch', body: '{"items":[]}', safeToRepeat: true }),
    );
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toBe(
      `PUT ${baseUrl}/v1/stock/batch was sent, and ${new URL(baseUrl).host} did not answer within the 0.15 s time-out (timed out), after 2 attempts: the request may have been applied. If the platform is this slow, raise the time-out (--timeout 30s, B2BCTL_TIMEOUT=30s, or b2bctl config set http.timeout 30s).`,
    );
    expect(server.seen).toHaveLength(2);
  });

  it('a POST that changes nothing (the token route) timing out once sent: no answer, not "may have been applied"', async () => {
    const { server, baseUrl, client } = await setUp([hang], { timeoutMs: 150, maxRetries: 1 });
    const error = await failureOf(
      client.request({ method: 'POST', path: '/v1/auth/token', body: '{}', safeToRepeat: true, changesNothing: true }),
    );
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).not.toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toBe(
      `No answer from ${baseUrl} after 2 attempts: ${new URL(baseUrl).host} did not answer within the 0.15 s time-out (timed out). If the platform is this slow, raise the time-out (B2BCTL_TIMEOUT=30s, or b2bctl config set http.timeout 30s), then try again.`,
    );
    expect(server.seen).toHaveLength(2);
  });

  it('a write safe to repeat whose connection is refused was never sent: "Cannot reach", not ambiguous', async () => {
    const baseUrl = await closedPortUrl();
    const client = new HttpClient({ baseUrl, timeoutMs: 1000, maxRetries: 0, clock: fakeClock() });
    cleanups.push(() => client.close());
    const error = await failureOf(
      client.request({ method: 'PUT', path: '/v1/stock/batch', body: '{"items":[]}', safeToRepeat: true }),
    );
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).not.toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toMatch(/^Cannot reach \S+ after 1 attempt: nothing listens at \S+ \(ECONNREFUSED\)/);
  });
});

/** The origin of a port nothing listens on: connecting to it is refused (refusedPort says why not a just-freed one). */
async function closedPortUrl(): Promise<string> {
  return `http://127.0.0.1:${await refusedPort()}`;
}

describe('HttpClient on a closed port', () => {
  it.each([
    { name: 'GET', request: get },
    { name: 'POST (refused means it never left, so it is retried)', request: post },
  ])('$name throws UnavailableError naming the origin', async ({ request }) => {
    const baseUrl = await closedPortUrl();
    const clock = fakeClock();
    const client = new HttpClient({
      baseUrl: `${baseUrl}/api/`,
      timeoutMs: 5_000,
      maxRetries: 2,
      clock,
      random: () => 0,
    });
    cleanups.push(() => client.close());
    const error = await failureOf(client.request(request));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).not.toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toBe(
      `Cannot reach ${baseUrl} after 3 attempts: nothing listens at ${new URL(baseUrl).host} (ECONNREFUSED). Check the base URL (--base-url or B2BCTL_BASE_URL) and that the server runs, then try again.`,
    );
    expect(clock.sleeps).toEqual([125, 250]);
  });
});

describe('HttpClient requests', () => {
  it('sends method, path under the base path, query, headers and body', async () => {
    const server = new ScriptedServer([reply(201, '{"id":9}')]);
    const origin = await server.start();
    cleanups.push(() => server.stop());
    const client = new HttpClient({
      baseUrl: `${origin}/api/v2/`,
      timeoutMs: 5_000,
      maxRetries: 0,
      clock: fakeClock(),
    });
    cleanups.push(() => client.close());
    const response = await client.request({
      ...post,
      query: { limit: 50, active: true, tag: ['a', 'b c'], skip: undefined },
    });
    expect(response).toMatchObject({
      status: 201,
      text: '{"id":9}',
      url: `${origin}/api/v2/v1/customer?limit=50&active=true&tag=a&tag=b+c`,
      attempts: 1,
    });
    expect(server.seen[0]).toMatchObject({
      method: 'POST',
      url: '/api/v2/v1/customer?limit=50&active=true&tag=a&tag=b+c',
      body: '{"name":"Ana"}',
    });
    expect(server.seen[0]?.headers['user-agent']).toBe('b2bctl/0.0.0-test');
    expect(server.seen[0]?.headers['content-type']).toBe('application/json');
  });

  it.each([
    { baseUrl: 'http://h.example.com', path: '/v1/x', expected: 'http://h.example.com/v1/x' },
    { baseUrl: 'http://h.example.com/api', path: '/v1/x', expected: 'http://h.example.com/api/v1/x' },
    { baseUrl: 'http://h.example.com/api//', path: 'v1/x', expected: 'http://h.example.com/api/v1/x' },
    // A path that reads as another host's address stays a path of the base URL, in messages as on the wire.
    {
      baseUrl: 'http://h.example.com',
      path: '//other.example/steal',
      expected: 'http://h.example.com//other.example/steal',
    },
    {
      baseUrl: 'http://h.example.com',
      path: '/\\other.example/steal',
      expected: 'http://h.example.com//other.example/steal',
    },
    { baseUrl: 'http://h.example.com', path: '/v1/x?limit=1', expected: 'http://h.example.com/v1/x?limit=1' },
  ])('urlFor($path) under $baseUrl', async ({ baseUrl, path, expected }) => {
    const client = new HttpClient({ baseUrl, timeoutMs: 1_000, maxRetries: 0, clock: fakeClock() });
    cleanups.push(() => client.close());
    expect(client.urlFor(path).toString()).toBe(expected);
  });

  it('an aborted signal ends in InterruptedError without a retry', async () => {
    const { server, baseUrl, client } = await setUp([reply(200)]);
    const controller = new AbortController();
    controller.abort('SIGINT');
    const error = await failureOf(client.request({ ...get, signal: controller.signal }));
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error.message).toBe(`Interrupted (SIGINT) during GET ${baseUrl}/sellerModule/listSellers.`);
    expect(server.seen).toHaveLength(0);
  });

  it('tells onRetry of each retry', async () => {
    const events: unknown[] = [];
    const { client } = await setUp([reply(503), reply(429, '', { 'retry-after': '1' }), reply(200)], {
      onRetry: (event) => events.push(event),
    });
    await client.request(get);
    expect(events).toEqual([
      { status: 503, error: undefined, delayMs: 125, attempt: 1 },
      { status: 429, error: undefined, delayMs: 1000, attempt: 2 },
    ]);
  });
});

/** A 200 cut short mid-body, the connection closed: a gateway or platform failing mid-answer. */
const cutShort =
  (framing: 'content-length' | 'chunked'): Answer =>
  (_request, response) => {
    const head = framing === 'content-length' ? 'Content-Length: 1000' : 'Transfer-Encoding: chunked\r\n\r\n1b';
    // Written on the socket as it is: node's server would not send a body that contradicts its framing.
    response.socket?.end(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n${head}\r\n{"results":[{"sku":"A1","st`,
    );
  };

describe('HttpClient answer bodies', () => {
  it('names the codings it decodes in Accept-Encoding; a caller naming its own sends that one alone', async () => {
    const { server, client } = await setUp([reply(200, '[]')]);
    await client.request(get);
    await client.request({ ...get, headers: { 'Accept-Encoding': 'identity' } });
    expect(server.seen[0]?.headers['accept-encoding']).toBe('gzip, deflate, br, zstd');
    expect(server.seen[1]?.headers['accept-encoding']).toBe('identity');
  });

  it('undoes codings from the last applied, and reads the charset declared', async () => {
    const latin1 = Buffer.from('{"name":"São João"}', 'latin1');
    const bytes = brotliCompressSync(gzipSync(latin1));
    const { client } = await setUp([
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json; charset=latin1', 'content-encoding': 'gzip, br' });
        response.end(bytes);
      },
    ]);
    expect((await client.request(get)).text).toBe('{"name":"São João"}');
  });

  it('a body that does not decode as its coding says is an error naming it, never text', async () => {
    const { baseUrl, client } = await setUp([reply(200, 'plain text', { 'content-encoding': 'gzip' })]);
    const error = await failureOf(client.request(get));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).not.toBeInstanceOf(AmbiguousRequestError);
    expect(error.message).toMatch(
      new RegExp(
        `^GET ${baseUrl}/sellerModule/listSellers answered HTTP 200 with a body labelled Content-Encoding: gzip that does not decode as gzip \\(.+\\); ask the platform's operator`,
      ),
    );
  });

  it('an answer larger than the largest read is cut off there: an error naming the limit, not memory filled', async () => {
    const megabyte = Buffer.alloc(1024 * 1024, 'x');
    const { baseUrl, client } = await setUp(
      [
        (_request, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          // Endless, as a broken gateway's stream: only the client's limit ends it.
          const more = () => {
            while (response.write(megabyte));
          };
          response.on('drain', more);
          response.on('close', () => response.off('drain', more));
          more();
        },
      ],
      { largestAnswerBytes: 64 * 1024, maxRetries: 0 },
    );
    const error = await failureOf(client.request(get));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe(
      `GET ${baseUrl}/sellerModule/listSellers answered HTTP 200 with a body of more than 65536 bytes; b2bctl reads no larger answer (ask for smaller pages, or check the proxy or gateway in between).`,
    );
  });

  it.each([
    ['gzip', (bytes: Buffer) => gzipSync(bytes)],
    ['br', (bytes: Buffer) => brotliCompressSync(bytes)],
    ['deflate', (bytes: Buffer) => deflateSync(bytes)],
  ])('a %s body that decodes past the largest answer is refused while decoding', async (coding, compress) => {
    // 4 MiB of zeros in a few KB: a decompression bomb in small.
    const bomb = compress(Buffer.alloc(4 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const { baseUrl, client } = await setUp(
      [
        (_request, response) => {
          response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
          response.end(bomb);
        },
      ],
      { largestAnswerBytes: 1024 * 1024, maxRetries: 0 },
    );
    const error = await failureOf(client.request(get));
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error.message).toBe(
      `GET ${baseUrl}/sellerModule/listSellers answered HTTP 200 with a body that decodes (${coding}) to more than 1 MiB; b2bctl reads no larger answer (ask for smaller pages, or check the proxy or gateway in between).`,
    );
  });

  it.each(['content-length', 'chunked'] as const)(
    'a POST whose 200 is cut short (%s) may have been applied: ambiguous, sent once',
    async (framing) => {
      const { server, baseUrl, client } = await setUp([cutShort(framing), reply(200, '{"id":1}')]);
      const error = await failureOf(client.request(post));
      expect(error).toBeInstanceOf(AmbiguousRequestError);
      expect(error.message).toMatch(
        new RegExp(
          `^POST ${baseUrl}/v1/customer .*may have (been applied|reached the platform)\\.( Check whether it was before sending it again\\.)?$`,
        ),
      );
      expect(server.seen).toHaveLength(1);
    },
  );

  it.each(['content-length', 'chunked'] as const)(
    'a GET whose 200 is cut short (%s) is asked again',
    async (framing) => {
      const { server, client } = await setUp([cutShort(framing), reply(200, '[]')]);
      expect((await client.request(get)).text).toBe('[]');
      expect(server.seen).toHaveLength(2);
    },
  );

  it('a POST answered 2xx in a coding b2bctl cannot decode may have been applied: ambiguous, not retried', async () => {
    const { server, client } = await setUp([reply(201, 'x', { 'content-encoding': 'compress' })]);
    const error = await failureOf(client.request(post));
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect(server.seen).toHaveLength(1);
  });

  it('a write safe to repeat (a stock batch PUT) answered 2xx in such a coding is ambiguous too, with its status', async () => {
    const { server, client } = await setUp([reply(200, 'x', { 'content-encoding': 'compress' })]);
    const error = await failureOf(
      client.request({ method: 'PUT', path: '/v1/stock/batch', body: '{"items":[]}', safeToRepeat: true }),
    );
    expect(error).toBeInstanceOf(AmbiguousRequestError);
    expect((error as AmbiguousRequestError).status).toBe(200);
    expect(server.seen).toHaveLength(1);
  });
});

describe('HttpClient trace', () => {
  it('traces both directions with secrets redacted', async () => {
    const lines: string[] = [];
    const tokenBody = '{"access_token":"tok-response-secret","expires_in":3600}';
    const { baseUrl, client } = await setUp(
      [reply(503), reply(200, tokenBody, { 'set-cookie': 'session=cookie-secret' })],
      { trace: (line) => lines.push(line) },
    );
    await client.request({
      method: 'POST',
      path: '/v1/auth/token',
      headers: { authorization: 'Bearer tok-request-secret', 'content-type': 'application/json' },
      body: '{"username":"erp@example.com","password":"hunter2"}',
      safeToRepeat: true,
    });
    const request = [
      `> POST ${baseUrl}/v1/auth/token`,
      '> user-agent: b2bctl/0.0.0-test',
      '> authorization: Bearer [redacted]',
      '> content-type: application/json',
      '> accept-encoding: gzip, deflate, br, zstd',
      '> {"username":"erp@example.com","password":"[redacted]"}',
    ];
    expect(lines.slice(0, 6)).toEqual(request);
    expect(lines[6]).toMatch(/^< 503 \(0 ms\) to POST http:\/\/127\.0\.0\.1:\d+\//);
    expect(lines).toContain('* retry 1/3 in 125 ms (HTTP 503)');
    expect(lines).toContain('< set-cookie: [redacted]');
    expect(lines).toContain('< {"access_token":"[redacted]","expires_in":3600}');
    expect(lines.filter((line) => line === '> authorization: Bearer [redacted]')).toHaveLength(2);
    for (const secret of ['tok-request-secret', 'tok-response-secret', 'hunter2', 'cookie-secret']) {
      expect(lines.join('\n')).not.toContain(secret);
    }
  });
});
