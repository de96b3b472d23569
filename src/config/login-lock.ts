import { dirname } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { B2bctlError, ExitCode, InterruptedError } from '../base/errors.js';
import { type Clock, monotonicNow } from '../base/clock.js';
import { type BackoffSettings, backoffStep } from '../lib/backoff.js';
import { spokenDuration } from '../domain/duration.js';
import { makePrivateFolder } from '../lib/private-file.js';
import { printable } from '../lib/printable.js';
import { systemErrorCause } from '../lib/system-error-cause.js';
import { checkLocksFolderSafety } from './folder-safety.js';
import { refuseToMakeTheHome } from './location.js';
import { attemptLock, type LockHolder, lockText, profileLockPath, refuseOddLockPath, stillHeldBy } from './lock.js';

/**
 * How long a run waits for another run's login of the same profile, from the retry policy in force: a login takes
 * seconds, but one whose token route does not answer spends every attempt (http.retries + 1, each up to
 * http.timeout) and the back-off between them (each at most its step) before it gives up; a margin covers taking the
 * lock and saving the token. With the defaults: 4 × 30 s + 0.25 + 0.5 + 1 s + 15 s. A holder told by a 429 to wait
 * (Retry-After, up to 5 minutes) may hold it longer: the waiter then ends exit 75, and its next run finds the token.
 */
export function loginLockWaitMs(policy: { retries: number; timeoutMs: number; backoff: BackoffSettings }): number {
  let backoffMs = 0;
  for (let attempt = 1; attempt <= policy.retries; attempt++) backoffMs += backoffStep(attempt, policy.backoff);
  return (policy.retries + 1) * policy.timeoutMs + backoffMs + lockAndSaveMarginMs;
}

/** What the holder does besides its login's attempts: take the lock, read the profile, save the token. */
const lockAndSaveMarginMs = 15_000;

/** The longest pause between two looks at a held login lock: a login ends within seconds, and the waiter goes on. */
const longestPauseMs = 200;

/**
 * Takes the per-profile lock a run logs in under by itself (`locks/<profile>.login.lock`), so that jobs of one profile
 * whose token expired together log in once and share the token (docs/platform.md, "Logging in"). The lock of every
 * other b2bctl lock (lock.ts: its holder's PID and start in the file, a dead holder's taken over), waited for as
 * asynchronously as a login is: at most `waitMs` measured on `clock` (loginLockWaitMs; its pauses are real ones, as
 * they wait for another process), then an error naming the lock and its holder, exit 75, nothing
 * sent. Undefined when the config folder cannot hold a lock (read-only, full): no token can be saved there for
 * another run either, so the run logs in alone, as it did before.
 */
export async function takeLoginLock(
  configDirectory: string,
  profileName: string,
  options: { waitMs: number; clock: Clock; signal?: AbortSignal; warn: (message: string) => void },
): Promise<(() => void) | undefined> {
  const path = profileLockPath(configDirectory, profileName, 'login');
  const { waitMs, clock } = options;
  checkLocksFolderSafety(dirname(path));
  refuseOddLockPath(path);
  const folder = () => {
    refuseToMakeTheHome(dirname(path));
    makePrivateFolder(dirname(path));
  };
  if (orUnwritable(folder) === 'unwritable') return undefined;
  const text = lockText('a login');
  const started = monotonicNow(clock);
  for (let pauseMs = 5; ; pauseMs = Math.min(pauseMs * 2, longestPauseMs)) {
    const attempt = orUnwritable(() => attemptLock(path, text, options.warn));
    if (attempt === 'unwritable') return undefined;
    if (attempt.release) return attempt.release;
    if (monotonicNow(clock) - started >= waitMs) throw loginLockHeld(path, profileName, waitMs, attempt.liveHolder);
    try {
      await pause(pauseMs, undefined, { signal: options.signal });
    } catch (error) {
      if (!options.signal?.aborted) throw error;
      throw new InterruptedError(
        `Interrupted (${String(options.signal.reason ?? 'aborted')}) while waiting for another b2bctl run to log in for profile "${profileName}" (${printable(path)}); nothing was sent.`,
      );
    }
  }
}

/** What `work` on the lock's folder or file returns, or 'unwritable' when the file system refuses it. */
function orUnwritable<T>(work: () => T): T | 'unwritable' {
  try {
    return work();
  } catch (error) {
    if (systemErrorCause(error) === undefined) throw error;
    return 'unwritable';
  }
}

/** Exit 75 ("try again later"): the holder is running, and the next run most likely finds the token it saved. */
function loginLockHeld(path: string, profileName: string, waitMs: number, holder: LockHolder | undefined): B2bctlError {
  const { who, remedy } = stillHeldBy(path, holder);
  return new B2bctlError(
    `The login lock of profile "${profileName}" (${printable(path)}) has been held for over ${spokenDuration(waitMs)} by ${who}; this run waited for its token and sent nothing. Try again; ${remedy}.`,
    ExitCode.interrupted,
  );
}
