import { spokenDuration } from '../domain/duration.js';
import type { Backoff, BackoffSettings } from '../lib/backoff.js';
import { AskedToWait } from './consumers.js';

/*
 * When an event is tried again after its delivery failed: written once for the receiver's hand-off and
 * `webhook replay`, so both wait as the ERP asked.
 */

/**
 * The waits after an ERP's or a store's failure: half a second, doubling up to 30 s, each drawn between half its step
 * and the step (lib/backoff.ts).
 */
export const handOffBackoff: BackoffSettings = { baseMs: 500, maxMs: 30_000 };

/**
 * The longest pause an ERP's Retry-After is granted: one asking for a day is asked again well before, as the events
 * behind it wait too.
 */
export const longestAskedWaitMs = 600_000;

/** The wait before the next try: the step a log line names, the wait to sleep, and whether the ERP asked for it. */
export interface NextTry {
  nominalMs: number;
  waitMs: number;
  /** The ERP's Retry-After asked for longer than the back-off's step, and is what is waited. */
  asked: boolean;
}

/**
 * The wait after one more failure, `error`: the back-off's next step, or the pause the ERP asked for (a 429 or 503
 * with Retry-After, at most `longestAskedWaitMs`) when it is longer. Tried again after the back-off's 8 s, an ERP
 * asking for 120 s was hammered (a user test).
 */
export function nextTry(backoff: Backoff, error: unknown): NextTry {
  const { nominalMs, waitMs } = backoff.take();
  const askedMs = error instanceof AskedToWait ? Math.min(error.waitMs, longestAskedWaitMs) : 0;
  return { nominalMs: Math.max(nominalMs, askedMs), waitMs: Math.max(waitMs, askedMs), asked: askedMs > nominalMs };
}

/** `trying again in 2 min (the wait its Retry-After asked for)`, as every log line of a retry says it. */
export function tryingAgainIn(next: NextTry): string {
  return `trying again in ${spokenDuration(next.nominalMs)}${next.asked ? ' (the wait its Retry-After asked for)' : ''}`;
}
