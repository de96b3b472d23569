import { mkdirSync, openSync, readFileSync, closeSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { B2bctlError, ExitCode } from '../errors.js';

interface LockHolder {
  pid: number;
  command: string;
  startedAt: string;
}

/**
 * A per-profile lock file so two cron runs of the same job never overlap. Created atomically
 * (O_EXCL); a lock left by a process that no longer exists is taken over with a warning.
 */
export function acquireLock(path: string, command: string, warn: (message: string) => void): () => void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const descriptor = openSync(path, 'wx', 0o600);
      const holder: LockHolder = { pid: process.pid, command, startedAt: new Date().toISOString() };
      writeSync(descriptor, JSON.stringify(holder));
      closeSync(descriptor);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(path);
    if (holder && isAlive(holder.pid)) {
      throw new B2bctlError(
        `Another "${holder.command}" is running (PID ${holder.pid}, since ${holder.startedAt}); this run stops so the two do not overlap. If PID ${holder.pid} is not b2bctl, remove ${path}.`,
        ExitCode.interrupted,
      );
    }
    warn(`warning: taking over the stale lock ${path}${holder ? ` left by PID ${holder.pid} (${holder.command}, ${holder.startedAt}), which is no longer running` : ''}.`);
    try {
      unlinkSync(path);
    } catch {
      // Someone else took it over first; the next attempt will tell.
    }
  }
  throw new B2bctlError(`Could not take the lock ${path}; another run took it first.`, ExitCode.interrupted);
}

function readHolder(path: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
