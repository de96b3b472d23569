import { B2bctlError, ExitCode } from '../base/errors.js';
import { printable } from '../lib/printable.js';
import { attemptLock, type LockHolder, lockText, refuseOddLockPath, stillHeldBy } from './lock.js';

/** How long a config write waits for another's by default: a write takes milliseconds, so this is a holder stuck. */
const defaultWaitMs = 10_000;

/**
 * A lock held for the few milliseconds of a read-modify-write of a small file (config.json), so two commands saving
 * at once (ten cron jobs renewing their profiles' tokens) do not each write back what they read and drop the other's
 * change. Waits its turn, synchronously, for at most `waitMs`.
 *
 * The same lock as the per-profile ones (lock.ts, docs/decisions/0014-lock-takeover.md): the holder's PID, start
 * time and a nonce in the file; a lock whose holder no longer runs is taken over through the takeover guard, by one
 * writer only; release removes the lock only while it still holds our text. A holder that is alive but slow (stopped,
 * a closed laptop lid, a loaded host) keeps its lock however long it takes: judging a lock by its age let a second
 * writer in beside it, and the slow one's release then let a third in, each writing back a file without the others'
 * change. The writer waiting for it gives up after `waitMs` with an error that names the lock and its holder, having
 * written nothing.
 *
 * A dead writer's lock is taken over without a word (unless `warn` is given): conf replaces config.json whole, so a
 * writer killed in the middle left the file as it was before or after its change, and the lock is all that remains.
 */
export function withShortLock<T>(
  path: string,
  work: () => T,
  { waitMs = defaultWaitMs, warn = () => {} }: { waitMs?: number; warn?: (message: string) => void } = {},
): T {
  const release = takeShortLock(path, waitMs, warn);
  try {
    return work();
  } finally {
    release();
  }
}

/** Takes the lock, waiting for a holder at most `waitMs`; returns its release. */
function takeShortLock(path: string, waitMs: number, warn: (message: string) => void): () => void {
  refuseOddLockPath(path);
  const text = lockText('a config write');
  const deadline = Date.now() + waitMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    const { release, liveHolder } = attemptLock(path, text, warn);
    if (release) return release;
    if (Date.now() > deadline) throw stillHeld(path, waitMs, liveHolder);
    Atomics.wait(sleeper, 0, 0, pause);
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Exit 75 ("try again later"): the holder is running, and the next try most likely finds the lock free. */
function stillHeld(path: string, waitMs: number, holder: LockHolder | undefined): B2bctlError {
  const { who, remedy } = stillHeldBy(path, holder);
  return new B2bctlError(
    `The lock ${printable(path)} has been held for over ${waitMs / 1000} s by ${who}; nothing was written. Try again; ${remedy}.`,
    ExitCode.interrupted,
  );
}
