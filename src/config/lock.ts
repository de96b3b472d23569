import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { B2bctlError, ExitCode } from '../errors.js';
import { isProcessAlive } from '../lib/process-alive.js';

/** The file-system calls the lock makes that a test may replace (a file system without hard links). */
export interface LockFileSystem {
  link: (existingPath: string, newPath: string) => void;
  /** Creates the file only if it does not exist yet (O_EXCL), readable by its owner only; returns its descriptor. */
  createExclusive: (path: string) => number;
}

const nodeLockFileSystem: LockFileSystem = {
  link: linkSync,
  createExclusive: (path) => openSync(path, 'wx', 0o600),
};

interface LockHolder {
  pid: number;
  command: string;
  startedAt: string;
}

/**
 * Where a command's per-profile lock lives: `<config folder>/locks/<profile>.<name>.lock`, one file per
 * (profile, command) so a stock push and an orders poll of one profile may run side by side, but two of either never.
 */
export function profileLockPath(configDirectory: string, profileName: string, lockName: string): string {
  return join(configDirectory, 'locks', `${profileName}.${lockName}.lock`);
}

/**
 * Takes the per-profile lock `lockName` for the command described by `command`; returns the release function.
 */
export function acquireProfileLock(
  configDirectory: string,
  profileName: string,
  lockName: string,
  command: string,
  warn: (message: string) => void,
): () => void {
  return acquireLock(profileLockPath(configDirectory, profileName, lockName), command, warn);
}

/**
 * A per-profile lock file so two cron runs of the same job never overlap. Created atomically and
 * whole (written beside, then linked into place), so another run never reads it empty; a lock left
 * by a process that no longer exists is taken over with a warning.
 */
export function acquireLock(
  path: string,
  command: string,
  warn: (message: string) => void,
  replaced: Partial<LockFileSystem> = {},
): () => void {
  const fileSystem = { ...nodeLockFileSystem, ...replaced };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const holder: LockHolder = { pid: process.pid, command, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createLockFile(path, holder, fileSystem)) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.removeListener('exit', release);
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
      // A process that ends abruptly but normally (EPIPE when a reader such as `head` closes stdout exits at once)
      // still releases its lock, so the next cron run does not have to take it over with a warning.
      process.once('exit', release);
      return release;
    }
    const current = readHolder(path);
    // Released between our attempt and the read: the holder finished, so simply try again.
    if (current === 'gone') continue;
    if (current && isProcessAlive(current.pid)) {
      throw new B2bctlError(
        `Another "${current.command}" is running (PID ${current.pid}, since ${current.startedAt}); this run stops so the two do not overlap. If PID ${current.pid} is not b2bctl, remove ${path}.`,
        ExitCode.interrupted,
      );
    }
    warn(
      `warning: taking over the stale lock ${path}${current ? ` left by PID ${current.pid} (${current.command}, ${current.startedAt}), which is no longer running` : ''}.`,
    );
    try {
      unlinkSync(path);
    } catch {
      // Someone else took it over first; the next attempt will tell.
    }
  }
  throw new B2bctlError(`Could not take the lock ${path}; another run took it first.`, ExitCode.interrupted);
}

/**
 * Creates the lock file with its holder already in it, or returns false when it exists. Creating it
 * empty and writing afterwards (O_EXCL, then write) let a run started at the same moment read an
 * empty lock, take it for stale, and run alongside.
 */
function createLockFile(path: string, holder: LockHolder, fileSystem: LockFileSystem): boolean {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(holder), { mode: 0o600 });
  try {
    fileSystem.link(temporary, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: create the lock exclusively and write it, as before.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
    return createLockFileInPlace(path, holder, fileSystem);
  } finally {
    rmSync(temporary, { force: true });
  }
}

function createLockFileInPlace(path: string, holder: LockHolder, fileSystem: LockFileSystem): boolean {
  let descriptor: number;
  try {
    descriptor = fileSystem.createExclusive(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(descriptor, JSON.stringify(holder));
  } finally {
    closeSync(descriptor);
  }
  return true;
}

/** The holder written in the lock; 'gone' when the file no longer exists; undefined when it cannot be read as one. */
function readHolder(path: string): LockHolder | 'gone' | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    return Number.isInteger(holder?.pid) ? holder : undefined;
  } catch {
    return undefined;
  }
}
