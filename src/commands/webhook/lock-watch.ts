import { B2bctlError, ExitCode } from '../../base/errors.js';
import type { HeldLock } from '../../config/lock.js';
import { printable } from '../../lib/printable.js';

/**
 * How often a running receiver looks at its inbox lock: a stat and a read of a small file, nothing beside a commit.
 * A second receiver let in by a removed lock delivers beside this one for at most this long.
 */
export const lockCheckEveryMs = 1_000;

/** The receiver's watch over its inbox lock: `signal` aborts once the lock is another run's; `stop` ends the watch. */
export interface LockWatch {
  signal: AbortSignal;
  stop(): void;
  /** After the stop that `signal` asked for: the error the run ends with (exit 75), if the lock was lost. */
  lostError(): B2bctlError | undefined;
}

/**
 * Looks at the receiver's `receiver.lock` every `everyMs` while it runs (a user test: a lock removed under a running
 * receiver let a second one start on the inbox, and the ERP got every event twice). A lock removed with nobody on
 * the free path is made again, with a warning: the inbox is still this receiver's alone, and a second receiver is
 * refused again. A lock that is another run's (or could not be made again) stops this receiver: it takes no more
 * events, its hand-offs stop, and it exits 75, as a second receiver does, for the one that holds the lock to go on
 * alone. What a mature daemon does: PostgreSQL's postmaster looks at its postmaster.pid every minute and shuts down
 * when it is not its own. With no lock (a PostgreSQL store), nothing is watched.
 */
export function watchInboxLock(
  lock: HeldLock | undefined,
  everyMs: number,
  log: { warn(line: string): void },
): LockWatch {
  const lost = new AbortController();
  let why: string | undefined;
  const shown = lock === undefined ? '' : printable(lock.path);
  const timer =
    lock === undefined
      ? undefined
      : setInterval(() => {
          const checked = lock.check();
          if (checked.held) {
            if (checked.retaken)
              log.warn(
                `warning: the inbox lock ${shown} was removed while this receiver held it; it is made again, so that a second receiver on the inbox is still refused. Do not remove it while the receiver runs.`,
              );
            return;
          }
          why = checked.why;
          clearInterval(timer);
          log.warn(
            `The inbox lock ${shown} ${why}; this receiver takes no more events and stops (exit 75), so that two receivers do not hand off the same events.`,
          );
          lost.abort();
        }, everyMs);
  timer?.unref();
  return {
    signal: lost.signal,
    stop: () => clearInterval(timer),
    lostError: () =>
      why === undefined
        ? undefined
        : new B2bctlError(
            `Stopped: the inbox lock ${shown} ${why}. Only one receiver may run on an inbox: check which one should, and never remove the lock of a running receiver.`,
            ExitCode.interrupted,
          ),
  };
}
