import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../../src/lib/backoff.js';
import {
  decideRetry,
  bulkRunBackoff,
  defaultBackoff,
  type FailedAttempt,
  isRetryableNetworkError,
  isRetryableStatus,
  maxRetryAfterMs,
  parseRetryAfter,
} from '../../../src/platform/retry-policy.js';

/** An error shaped like undici's: the code on the error itself or on its cause. */
function codedError(code: string, where: 'error' | 'cause' = 'error'): Error {
  if (where === 'cause') return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
  return Object.assign(new Error(`connect ${code}`), { code });
}

function timeoutError(): Error {
  const error = new Error('The operation was aborted due to timeout');
  error.name = 'TimeoutError';
  return error;
}

const now = Date.parse('2026-11-02T12:00:00Z');
const lowDice = () => 0;
const highDice = () => 1;

describe('isRetryableStatus', () => {
  it.each([
    [429, true],
    [502, true],
    [503, true],
    [504, true],
    [200, false],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [409, false],
    [422, false],
    [500, false],
    [501, false],
  ])('HTTP %i -> %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});

describe('isRetryableNetworkError', () => {
  it.each([
    { name: 'ECONNRESET on the error', error: codedError('ECONNRESET'), expected: true },
    { name: 'ECONNREFUSED on the error', error: codedError('ECONNREFUSED'), expected: true },
    { name: 'UND_ERR_SOCKET on the error', error: codedError('UND_ERR_SOCKET'), expected: true },
    { name: 'UND_ERR_HEADERS_TIMEOUT on the error', error: codedError('UND_ERR_HEADERS_TIMEOUT'), expected: true },
    { name: 'ECONNRESET on the cause', error: codedError('ECONNRESET', 'cause'), expected: true },
    { name: 'EAI_AGAIN on the cause', error: codedError('EAI_AGAIN', 'cause'), expected: true },
    { name: 'TimeoutError by name', error: timeoutError(), expected: true },
    { name: 'ENOTFOUND (a DNS blip answering no such name)', error: codedError('ENOTFOUND'), expected: true },
    { name: 'certificate error', error: codedError('CERT_HAS_EXPIRED', 'cause'), expected: false },
    { name: 'an Error without a code', error: new Error('boom'), expected: false },
    { name: 'a numeric code', error: Object.assign(new Error('x'), { code: 104 }), expected: false },
    { name: 'a plain object with a code is not an Error', error: { code: 'ECONNRESET' }, expected: false },
    { name: 'a string', error: 'ECONNRESET', expected: false },
    { name: 'undefined', error: undefined, expected: false },
  ])('$name -> $expected', ({ error, expected }) => {
    expect(isRetryableNetworkError(error)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  it.each([
    { name: 'delta seconds', header: '3', expected: 3000 },
    { name: 'zero seconds', header: '0', expected: 0 },
    { name: 'fractional seconds', header: '1.5', expected: 1500 },
    { name: 'surrounding spaces', header: ' 7 ', expected: 7000 },
    { name: 'HTTP date 90 s in the future', header: new Date(now + 90_000).toUTCString(), expected: 90_000 },
    { name: 'HTTP date in the past', header: new Date(now - 3_600_000).toUTCString(), expected: 0 },
    { name: 'garbage word', header: 'soon', expected: undefined },
    { name: 'negative number', header: '-5', expected: undefined },
    { name: 'exponent notation', header: '1e3', expected: undefined },
    { name: 'empty', header: '', expected: undefined },
    { name: 'only spaces', header: '   ', expected: undefined },
    { name: 'absent', header: undefined, expected: undefined },
  ])('$name ($header) -> $expected', ({ header, expected }) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });

  it.each([
    { name: 'a platform 10 minutes ahead asking for 3 s', ahead: 600_000, expected: 3000 },
    { name: 'a platform 10 minutes behind asking for 3 s', ahead: -600_000, expected: 3000 },
  ])("an HTTP date is measured from the answer's Date: $name", ({ ahead, expected }) => {
    const platformNow = now + ahead;
    const header = new Date(platformNow + 3000).toUTCString();
    expect(parseRetryAfter(header, now, new Date(platformNow).toUTCString())).toBe(expected);
  });

  it.each([
    { name: 'unreadable', date: 'yesterday' },
    { name: 'absent', date: undefined },
  ])('an HTTP date with a Date $name is measured on this clock', ({ date }) => {
    expect(parseRetryAfter(new Date(now + 90_000).toUTCString(), now, date)).toBe(90_000);
  });
});

/** The shortest and the longest wait of each of the first `count` retries. */
function rangesOf(settings: typeof defaultBackoff, count: number): number[][] {
  return Array.from({ length: count }, (_, index) => [
    backoffDelay(index + 1, settings, lowDice),
    backoffDelay(index + 1, settings, highDice),
  ]);
}

describe('the back-offs docs/bulk-runs.md states', () => {
  it('other commands: 0.125-0.25 s, doubling, up to 15 s', () => {
    expect(rangesOf(defaultBackoff, 2)).toEqual([
      [125, 250],
      [250, 500],
    ]);
    expect(backoffDelay(12, defaultBackoff, highDice)).toBe(15_000);
  });

  it('a bulk run: 1-2 s, 2-4 s, 4-8 s, ... up to 20 s (7 to 14 s over the default 3 retries)', () => {
    expect(rangesOf(bulkRunBackoff, 5)).toEqual([
      [1000, 2000],
      [2000, 4000],
      [4000, 8000],
      [8000, 16_000],
      [10_000, 20_000],
    ]);
  });
});

describe('decideRetry', () => {
  const base: FailedAttempt = { attempt: 1, maxRetries: 3, safeToRepeat: true };
  it.each<{ name: string; failure: Partial<FailedAttempt>; expected: ReturnType<typeof decideRetry> }>([
    { name: '503 on the first attempt backs off', failure: { status: 503 }, expected: { retry: true, delayMs: 125 } },
    {
      name: '502 on the third attempt backs off longer',
      failure: { status: 502, attempt: 3 },
      expected: { retry: true, delayMs: 500 },
    },
    {
      name: '503 once retries are exhausted',
      failure: { status: 503, attempt: 4 },
      expected: { retry: false, reason: 'retries exhausted' },
    },
    {
      name: 'no retries allowed at all',
      failure: { status: 503, maxRetries: 0 },
      expected: { retry: false, reason: 'retries exhausted' },
    },
    {
      name: '400 is an answer',
      failure: { status: 400 },
      expected: { retry: false, reason: 'HTTP 400 is not retried' },
    },
    {
      name: '422 is an answer',
      failure: { status: 422 },
      expected: { retry: false, reason: 'HTTP 422 is not retried' },
    },
    {
      name: '500 is an answer',
      failure: { status: 500 },
      expected: { retry: false, reason: 'HTTP 500 is not retried' },
    },
    {
      name: '422 stays "not retried" when retries are exhausted too',
      failure: { status: 422, maxRetries: 0 },
      expected: { retry: false, reason: 'HTTP 422 is not retried' },
    },
    {
      name: '429 with Retry-After: 3 waits 3 s',
      failure: { status: 429, retryAfter: '3' },
      expected: { retry: true, delayMs: 3000 },
    },
    {
      name: '503 with an HTTP-date Retry-After',
      failure: { status: 503, retryAfter: new Date(now + 20_000).toUTCString() },
      expected: { retry: true, delayMs: 20_000 },
    },
    {
      name: '429 with Retry-After at the ceiling',
      failure: { status: 429, retryAfter: String(maxRetryAfterMs / 1000) },
      expected: { retry: true, delayMs: maxRetryAfterMs },
    },
    {
      name: '429 with Retry-After above the ceiling',
      failure: { status: 429, retryAfter: '301' },
      expected: { retry: false, reason: 'Retry-After asks for 301 s', retryAfterMs: 301_000 },
    },
    {
      name: '429 with unreadable Retry-After backs off',
      failure: { status: 429, retryAfter: 'later' },
      expected: { retry: true, delayMs: 125 },
    },
    ...[502, 503, 504].map((status) => ({
      // A 503 too: a platform may answer it after storing what a create sent (a fresh user test).
      name: `${status} on an unsafe POST: it may come after the platform applied it`,
      failure: { status, safeToRepeat: false },
      expected: { retry: false as const, reason: 'the request may have been applied' },
    })),
    {
      name: '429 on an unsafe POST is a refusal: backs off',
      failure: { status: 429, safeToRepeat: false },
      expected: { retry: true, delayMs: 125 },
    },
    {
      name: 'reset on a safe request',
      failure: { error: codedError('ECONNRESET') },
      expected: { retry: true, delayMs: 125 },
    },
    {
      name: 'time-out on a safe request',
      failure: { error: timeoutError(), attempt: 2 },
      expected: { retry: true, delayMs: 250 },
    },
    {
      name: 'reset on an unsafe POST',
      failure: { error: codedError('ECONNRESET'), safeToRepeat: false },
      expected: { retry: false, reason: 'the request may have been applied' },
    },
    {
      name: 'socket closed (on the cause) on an unsafe POST',
      failure: { error: codedError('UND_ERR_SOCKET', 'cause'), safeToRepeat: false },
      expected: { retry: false, reason: 'the request may have been applied' },
    },
    {
      name: 'time-out on an unsafe POST',
      failure: { error: timeoutError(), safeToRepeat: false },
      expected: { retry: false, reason: 'the request may have been applied' },
    },
    {
      name: 'refused on an unsafe POST: the request never left',
      failure: { error: codedError('ECONNREFUSED'), safeToRepeat: false },
      expected: { retry: true, delayMs: 125 },
    },
    {
      name: 'refused (on the cause) on an unsafe POST',
      failure: { error: codedError('ECONNREFUSED', 'cause'), safeToRepeat: false },
      expected: { retry: true, delayMs: 125 },
    },
    {
      name: 'connect time-out on an unsafe POST',
      failure: { error: codedError('UND_ERR_CONNECT_TIMEOUT'), safeToRepeat: false },
      expected: { retry: true, delayMs: 125 },
    },
    {
      name: 'reset on an unsafe POST stays ambiguous when retries are exhausted',
      failure: { error: codedError('ECONNRESET'), safeToRepeat: false, attempt: 4 },
      expected: { retry: false, reason: 'the request may have been applied' },
    },
    {
      name: 'reset on an unsafe POST with no retries allowed is still ambiguous',
      failure: { error: codedError('ECONNRESET'), safeToRepeat: false, maxRetries: 0 },
      expected: { retry: false, reason: 'the request may have been applied' },
    },
    {
      name: 'refused, retries exhausted',
      failure: { error: codedError('ECONNREFUSED'), attempt: 4 },
      expected: { retry: false, reason: 'retries exhausted' },
    },
    {
      name: 'an unknown error is not retried',
      failure: { error: new Error('bug') },
      expected: { retry: false, reason: 'error is not retried' },
    },
    {
      name: 'ENOTFOUND (a DNS blip) on an unsafe POST: the request never left, retried',
      failure: { error: codedError('ENOTFOUND'), safeToRepeat: false },
      expected: { retry: true, delayMs: 125 },
    },
    {
      name: 'ENOTFOUND, retries exhausted',
      failure: { error: codedError('ENOTFOUND'), attempt: 4 },
      expected: { retry: false, reason: 'retries exhausted' },
    },
  ])('$name', ({ failure, expected }) => {
    expect(decideRetry({ ...base, ...failure }, now, lowDice)).toEqual(expected);
  });

  it('passes the dice and the back-off settings through', () => {
    expect(decideRetry({ ...base, status: 503, attempt: 2 }, now, highDice, { baseMs: 100, maxMs: 150 })).toEqual({
      retry: true,
      delayMs: 150,
    });
  });
});
