/** When to retry a request and how long to wait first. Pure: the caller supplies the clock and the dice. */
import { errorCodeOf, isCutShortAnswer, UnansweredRequestError } from '../net/network-error.js';
import { backoffDelay, type BackoffSettings } from '../lib/backoff.js';
import { parseRetryAfter } from '../lib/http-text.js';

// Read here as from the receiver's hand-off (an ERP's 429), one reading of the header: lib/http-text.ts.
export { parseRetryAfter };

const retryableStatuses = new Set([429, 502, 503, 504]);

const retryableNetworkCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  // A name that does not resolve: a resolver failing over or a zone reloading answers "no such name" for a few
  // seconds (a DNS blip, as docs/cron.md says a night rides out), as a timed-out resolver answers EAI_AGAIN. A typo
  // in the base URL costs the few seconds of the retries before the same "does not resolve" error.
  'EAI_AGAIN',
  'ENOTFOUND',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** 429 and the gateway errors are passing; every other 4xx is an answer that retrying will not change. */
export function isRetryableStatus(status: number): boolean {
  return retryableStatuses.has(status);
}

/** The network failures worth another try: resets, refusals, time-outs, a name that does not resolve. */
export function isRetryableNetworkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // Sent, and no answer began: retried as the time-out or reset it was.
  if (error instanceof UnansweredRequestError) return isRetryableNetworkError(error.cause);
  if (error.name === 'TimeoutError') return true;
  // An answer cut short by a closed connection: the platform failed mid-answer, as after a reset.
  if (isCutShortAnswer(error)) return true;
  const code = errorCodeOf(error);
  return code !== undefined && retryableNetworkCodes.has(code);
}

/**
 * Every command's back-off but a bulk run's: 250 ms doubling to at most 15 s, each wait between half the step and the
 * step (equal jitter, lib/backoff.ts), as a person waits at the terminal.
 */
export const defaultBackoff: BackoffSettings = { baseMs: 250, maxMs: 15_000 };

/**
 * A bulk run's back-off, often a night's cron job with no one to paste its resume command: waits of 1–2 s, 2–4 s,
 * 4–8 s… up to 20 s (the ceiling of the AWS SDKs' standard retry mode), so the default 3 retries ride out 7 to 14 s
 * of a platform restarting, a load balancer failing over or a DNS blip, where the default's ~1.6 s lost the night
 * (a fresh user test). A 429 keeps the default's: the pacer, not the back-off, waits a rate limit out.
 */
export const bulkRunBackoff: BackoffSettings = { baseMs: 2000, maxMs: 20_000 };

/** The longest Retry-After we honour before giving up on a request. */
export const maxRetryAfterMs = 5 * 60_000;

/** The reason given when an unsafe request failed in a way that leaves its effect unknown. */
export const mayHaveBeenApplied = 'the request may have been applied';

/** Not to retry, and why; `retryAfterMs` when that is a Retry-After asking for more than b2bctl waits. */
export type RetryDecision = { retry: false; reason: string; retryAfterMs?: number } | { retry: true; delayMs: number };

export interface FailedAttempt {
  /** 1 for the first try. */
  attempt: number;
  maxRetries: number;
  status?: number;
  retryAfter?: string;
  /** The answer's `Date` header: the platform's clock, which a Retry-After date is measured from. */
  answeredAt?: string;
  error?: unknown;
  /** False for a request the platform may have applied already (a create); see docs/bulk-runs.md, "Sending". */
  safeToRepeat: boolean;
}

/** Whether to try again after a failed attempt, and after how long. */
export function decideRetry(
  failure: FailedAttempt,
  nowMs: number,
  random: () => number,
  backoff = defaultBackoff,
): RetryDecision {
  // Exhaustion is checked only once the failure is known to be retryable: an unsafe request that may
  // have been applied must stay ambiguous on the last attempt too, and a 4xx/500 stays an answer.
  const exhausted: RetryDecision = { retry: false, reason: 'retries exhausted' };
  if (failure.status !== undefined) {
    if (!isRetryableStatus(failure.status)) return { retry: false, reason: `HTTP ${failure.status} is not retried` };
    // A 5xx can come after the platform applied the request: a 503 too, which a gateway or the platform may give
    // once the work is done (a fresh user test: a stored customer answered 503, its create sent again). Only 429 is
    // a refusal a write not safe to repeat is sent again after.
    if (!failure.safeToRepeat && failure.status >= 500) return { retry: false, reason: mayHaveBeenApplied };
    if (failure.attempt > failure.maxRetries) return exhausted;
    const requested = parseRetryAfter(failure.retryAfter, nowMs, failure.answeredAt);
    if (requested !== undefined) {
      if (requested > maxRetryAfterMs)
        return {
          retry: false,
          reason: `Retry-After asks for ${Math.round(requested / 1000)} s`,
          retryAfterMs: requested,
        };
      return { retry: true, delayMs: requested };
    }
    return { retry: true, delayMs: backoffDelay(failure.attempt, backoff, random) };
  }
  if (!isRetryableNetworkError(failure.error)) return { retry: false, reason: 'error is not retried' };
  if (!failure.safeToRepeat && !isRefusedBeforeSending(failure.error)) {
    return { retry: false, reason: mayHaveBeenApplied };
  }
  if (failure.attempt > failure.maxRetries) return exhausted;
  return { retry: true, delayMs: backoffDelay(failure.attempt, backoff, random) };
}

/** A refused connection, or a name not resolved, means the request never left: safe to repeat even when it is not idempotent. */
function isRefusedBeforeSending(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code === 'ECONNREFUSED' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'EAI_AGAIN' || code === 'ENOTFOUND';
}
