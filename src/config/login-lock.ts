import { dirname } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { B2bctlError, ExitCode, InterruptedError } from '../base/errors.js';
import { spokenDuration } from '../domain/duration.js';
import { makePrivateFolder } from '../lib/private-file.js';
import { printable } from '../lib/printable.js';
import { systemErrorCause } from '../lib/system-error-cause.js';
import { checkLocksFolderSafety } from './folder-safety.js';
import { refuseToMakeTheHome } from './location.js';
import { attemptLock, type LockHolder, lockText, profileLockPath, refuseOddLockPath } from './lock.js';

/**
 * How long a run waits for another run's login of the same profile. A login takes seconds; one whose token route
 * does not answer spends its retries (http.retries, each up to http.timeout: 4 × 30 s by default) before it gives up.
 */
export const loginLockWaitMs = 120_000;

/** The longest pause between two looks at a held login lock: a login ends within seconds, and the waiter goes on. */
const longestPauseMs = 200;

/**
 * Takes the per-profile lock a run logs in under by itself (`locks/<profile>.login.lock`), so that jobs of one profile
 * whose token expired together log in once and share the token (docs/platform.md, "Logging in"). The lock of every
 * other b2bctl lock (lock.ts: its holder's PID and start in the file, a dead holder's taken over), waited for as
 * asynchronously as a login is: at most `waitMs`, then an error naming the lock and its holder, exit 75, nothing
 * sent. Undefined when the config folder cannot hold a lock (read-only, full): no token can be saved there for
 * another run either, so the run logs in alone, as it did before.
 */
export async function takeLoginLock(
  configDirectory: string,
  profileName: string,
  options: { waitMs?: number; signal?: AbortSignal; warn: (message: string) => void },
): Promise<(() => void) | undefined> {
  const path = profileLockPath(configDirectory, profileName, 'login');
  const waitMs = options.waitMs ?? loginLockWaitMs;
  checkLocksFolderSafety(dirname(path));
  refuseOddLockPath(path);
  const folder = () => {
    refuseToMakeTheHome(dirname(path));
    makePrivateFolder(dirname(path));
  };
  if (orUnwritable(folder) === 'unwritable') return undefined;
  const text = lockText('a login');
  const started = performance.now();
  for (let pauseMs = 5; ; pauseMs = Math.min(pauseMs * 2, longestPauseMs)) {
    const attempt = orUnwritable(() => attemptLock(path, text, options.warn));
    if (attempt === 'unwritable') return undefined;
    if (attempt.release) return attempt.release;
    if (performance.now() - started >= waitMs) throw loginLockHeld(path, profileName, waitMs, attempt.liveHolder);
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
  const who = holder
    ? `PID ${holder.pid} (${holder.command}, since ${holder.startedAt}), which is still running`
    : 'another b2bctl';
  const remedy = holder
    ? `if PID ${holder.pid} is not b2bctl, remove ${printable(path)}`
    : `if no b2bctl is running, remove ${printable(path)}`;
  return new B2bctlError(
    `The login lock of profile "${profileName}" (${printable(path)}) has been held for over ${spokenDuration(waitMs)} by ${who}; this run waited for its token and sent nothing. Try again; ${remedy}.`,
    ExitCode.interrupted,
  );
}
