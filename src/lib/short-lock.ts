import { closeSync, statSync, unlinkSync } from 'node:fs';
import { createFileExclusively } from './private-file.js';
import { printable } from './printable.js';

/**
 * A lock held for the few milliseconds of a read-modify-write of a small file (config.json), so two commands saving
 * at once (ten cron jobs renewing their profiles' tokens) do not each write back what they read and drop the other's
 * change. Waits its turn, synchronously; a lock older than `staleMs` is a killed writer's and is taken over.
 */
export function withShortLock<T>(
  path: string,
  work: () => T,
  { waitMs = 10_000, staleMs = 10_000 }: { waitMs?: number; staleMs?: number } = {},
): T {
  const deadline = Date.now() + waitMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      closeSync(createFileExclusively(path));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockAgeMs(path) > staleMs) {
      removeQuietly(path);
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`${printable(path)} has been held for over ${waitMs / 1000} s by another b2bctl; try again`);
    Atomics.wait(sleeper, 0, 0, pause);
  }
  try {
    return work();
  } finally {
    removeQuietly(path);
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** How long ago the lock was taken; 0 when it is already gone. */
function lockAgeMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Gone already (taken over as stale): nothing to release.
  }
}
