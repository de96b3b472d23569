import {
  AuthError,
  B2bctlError,
  InterruptedError,
  OutputClosedError,
  PlatformError,
  UsageError,
} from '../base/errors.js';
import type { Context } from '../context.js';
import { spokenDuration } from '../domain/duration.js';
import { backoffStep } from '../lib/backoff.js';
import { NotAListingPage } from '../platform/answers/listing.js';
import { RedirectAnswerError } from '../platform/redirect.js';
import { isRetryableStatus } from '../platform/retry-policy.js';
import type { OrdersPollOptions } from './poll-cycle.js';
import { ListingIgnoresWindowError } from './unfiltered-listing.js';

/** The longest wait between two --watch cycles after repeated failures. */
const maximumBackoffMs = 10 * 60_000;

/**
 * The wait before the next --watch cycle: the interval, doubled for each cycle failed in a row, up to 10 minutes.
 * The back-off's step without its jitter: one watch runs per cursor, with no others to spread out from, and its line
 * names the wait exactly.
 */
function pauseAfter(options: Pick<OrdersPollOptions, 'intervalSeconds'>, failures: number): number {
  const intervalMs = options.intervalSeconds * 1000;
  if (failures === 0) return intervalMs;
  return backoffStep(failures, { baseMs: intervalMs, maxMs: maximumBackoffMs });
}

/**
 * A failure every later cycle would meet again, so `--watch` ends with it as a single run does (its line, its exit
 * code) instead of retrying it for ever: bad flags, settings or cursor (a UsageError); refused credentials (a 401
 * with no password to log in again, a 403); a redirect (b2bctl never follows one: the platform moved, or something
 * answers in its place); a 4xx that retrying will not change (a listing route that is not there, a query the
 * platform refuses); an output its reader closed (`| head`, an importer that died: no later cycle could write, and a
 * supervisor restarts the pair only once this one ends, exit 141, the cursor unmoved); a listing that does not
 * filter by update date. Network errors, 5xx, 429 and a window the listing changed faster than it could be read
 * are waited out.
 */
function waitingCannotCure(error: unknown): boolean {
  if (error instanceof UsageError || error instanceof AuthError) return true;
  // An error the platform answered with 200 is its passing failure, as a 503 is: a later cycle may read the page.
  if (error instanceof NotAListingPage) return false;
  // A listing that ignores updatedFrom/updatedTo is a set-up to fix (a gateway, answers.orders.lastUpdated), which
  // no cycle reads past; a window outrun by a busy store (ListingOutrunError) may pass, and is tried again.
  if (error instanceof ListingIgnoresWindowError) return true;
  if (error instanceof RedirectAnswerError || error instanceof OutputClosedError) return true;
  // 408 and 425 are a server's own "try again later", whatever a single run does with them.
  return (
    error instanceof PlatformError &&
    error.status < 500 &&
    !isRetryableStatus(error.status) &&
    error.status !== 408 &&
    error.status !== 425
  );
}

/**
 * `--watch`: a run every interval until SIGINT/SIGTERM; platform outages are waited out with growing pauses, each
 * failed cycle said in a line naming when the next comes.
 */
export async function watch(
  options: Pick<OrdersPollOptions, 'intervalSeconds'>,
  context: Context,
  poll: () => Promise<number>,
): Promise<void> {
  let failures = 0;
  while (!context.interrupt.aborted) {
    try {
      await poll();
      failures = 0;
    } catch (error) {
      if (error instanceof InterruptedError || context.interrupt.aborted) throw error;
      if (waitingCannotCure(error)) throw error;
      failures++;
      const message = error instanceof B2bctlError ? error.message : String((error as Error)?.message ?? error);
      // The cursor covers what the cycle wrote before it failed (a window outrun after others were written).
      context.log.warn(
        `orders poll: cycle failed (${message}); trying again in ${spokenDuration(pauseAfter(options, failures))}, from the cursor.`,
      );
    }
    const pauseMs = pauseAfter(options, failures);
    try {
      await context.clock.sleep(pauseMs, context.interrupt);
    } catch {
      // Between two runs nothing is in flight: a stop (Ctrl-C, systemd's SIGTERM) is a clean end, said in one line.
      context.log.info('orders poll: stopped between two runs; the next one continues from the cursor.');
      return;
    }
  }
}
