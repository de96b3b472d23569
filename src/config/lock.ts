import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, lstatSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { writeWholeSync } from '../lib/whole-write.js';
import { dirname, join } from 'node:path';
import { B2bctlError, ExitCode, UsageError } from '../base/errors.js';
import { createFileExclusively, makePrivateFolder, temporaryPathBeside } from '../lib/private-file.js';
import { isProcessAlive, processStartTime } from '../lib/process-alive.js';
import { shellWord } from '../lib/shell-word.js';
import { systemErrorCause } from '../lib/system-error-cause.js';
import {
  type PlantedFolder,
  type RuntimeLockFolder,
  runtimeLockFolder,
  runtimeLockName,
} from './runtime-lock-folder.js';
import { checkLocksFolderSafety } from './folder-safety.js';
import { refuseToMakeTheHome } from './location.js';
import { printable } from '../lib/printable.js';

/** The file-system calls the lock makes that a test may replace (a file system without hard links). */
export interface LockFileSystem {
  link: (existingPath: string, newPath: string) => void;
  /** Creates the file only if it does not exist yet (O_EXCL), readable by its owner only; returns its descriptor. */
  createExclusive: (path: string) => number;
  /** Writes the lock's whole text at the descriptor (a full disk fails here). */
  write: (descriptor: number, text: string) => void;
}

const nodeLockFileSystem: LockFileSystem = {
  link: linkSync,
  createExclusive: (path) => createFileExclusively(path),
  write: writeWholeSync,
};

export interface LockHolder {
  pid: number;
  command: string;
  startedAt: string;
  /** When the holder's process started (processStartTime): its PID alone may be another process's after a reboot. */
  processStart?: string;
  /** Makes each lock's text unique, so a takeover removes the very lock it judged stale and no other. */
  nonce?: string;
}

/** The lock file as read: its text, and the holder when the text is one. */
interface ReadLock {
  text: string | undefined;
  holder: LockHolder | undefined;
}

/** A takeover guard older than this was left by a run killed in the middle of a takeover (which takes microseconds). */
const abandonedGuardMs = 10_000;

/**
 * Where a command's per-profile lock lives: `<config folder>/locks/<profile>.<name>.lock`, one file per
 * (profile, command) so a stock push and an orders poll of one profile may run side by side, but two of either never.
 */
export function profileLockPath(configDirectory: string, profileName: string, lockName: string): string {
  return join(configDirectory, 'locks', `${profileName}.${lockName}.lock`);
}

/**
 * Takes the per-profile lock `lockName` for the command described by `command`; returns the release function.
 * Where the config folder cannot be written (a read-only home, `HOME=/nonexistent`, never made, by root either: a cron user that gives the store
 * in B2BCTL_BASE_URL and B2BCTL_TOKEN and has no profile, as settings.md allows), the lock is taken in the user's
 * runtime folder instead (runtime-lock-folder.ts): every run of that config folder meets it there while the folder
 * stays unwritable. A live holder of the lock in the config folder (one taken before it became read-only) still
 * stops the run. A full disk is no such case: another run may hold the lock it could not write.
 */
export function acquireProfileLock(
  configDirectory: string,
  profileName: string,
  lockName: string,
  command: string,
  warn: (message: string) => void,
  replaced: {
    runtimeFolder?: () => RuntimeLockFolder | undefined;
    configFolderFileSystem?: Partial<LockFileSystem>;
  } = {},
): () => void {
  const path = profileLockPath(configDirectory, profileName, lockName);
  checkLocksFolderSafety(dirname(path));
  try {
    return acquireLock(path, command, warn, replaced.configFolderFileSystem);
  } catch (error) {
    if (!unwritableFolder(error)) throw error;
    const runtime = (replaced.runtimeFolder ?? runtimeLockFolder)();
    if (runtime === undefined) throw error;
    if (runtime.planted !== undefined) throw plantedRuntimeFolder(path, error, runtime.planted);
    refuseLiveHolder(path);
    return acquireLock(join(runtime.locks, runtimeLockName(configDirectory, profileName, lockName)), command, warn);
  }
}

/**
 * The config folder's lock cannot be written and the runtime folder that stands in for it is not this user's private
 * folder (another user made `$TMPDIR/b2bctl-UID` first, or a link in its place, to read or hold the locks). Said
 * naming that folder, its owner and the ways out (a user test: the config folder's refusal alone named neither, though
 * runs had gone through the runtime folder until it was planted); exit 77, as every planted path b2bctl refuses.
 */
function plantedRuntimeFolder(lock: string, configFolderError: unknown, planted: PlantedFolder): B2bctlError {
  // The config folder's refusal wraps the system's error (unwritableLock): its words, not the whole refusal.
  const systemError = (configFolderError as { cause?: unknown }).cause ?? configFolderError;
  const cause = systemErrorCause(systemError) ?? (systemError as Error).message;
  const uid = process.geteuid?.();
  const runtimeFix = uid === undefined ? '' : ` (such as /run/user/${uid})`;
  return new B2bctlError(
    `Cannot write the lock ${printable(lock)} (${cause}), and the folder b2bctl keeps locks in instead, ${printable(planted.path)}, ${planted.why}: whoever made it could remove a run's lock so that two runs overlap, or hold one so that none runs; nothing was sent. Have it removed (sudo rm -r ${shellWord(planted.path)}: in a shared folder only its owner or root can), or set B2BCTL_CONFIG_DIR to a writable folder of your own, or XDG_RUNTIME_DIR to your own private runtime folder${runtimeFix}.`,
    ExitCode.authFailed,
  );
}

/** A lock that could not be written because its folder cannot be: read-only, or not this user's to write. */
function unwritableFolder(error: unknown): boolean {
  const code = ((error as { cause?: NodeJS.ErrnoException }).cause ?? (error as NodeJS.ErrnoException)).code;
  // ENOENT: a home that is not there, which is never made (refuseToMakeTheHome).
  return error instanceof UsageError && ['EROFS', 'EACCES', 'EPERM', 'ENOENT'].includes(code ?? '');
}

/** The lock at `path`, when a process that is still running holds it, stops this run as any held lock does. */
function refuseLiveHolder(path: string): void {
  const other = liveLockHolder(path);
  if (other) throw heldBy(other, path);
}

/**
 * Who holds the lock at `path`, when a process that is still running does (by the same test a takeover makes: its
 * PID runs and started when the lock says); undefined when none does: no lock, or a stale one.
 */
export function liveLockHolder(path: string): LockHolder | undefined {
  const current = readLock(path);
  const other = current === 'gone' ? undefined : current.holder;
  return other && isProcessAlive(other.pid, other.processStart) ? other : undefined;
}

function heldBy(other: LockHolder, path: string): B2bctlError {
  return new B2bctlError(
    `Another "${other.command}" is running (PID ${other.pid}, since ${other.startedAt}); this run stops so the two do not overlap. If PID ${other.pid} is not b2bctl, remove ${printable(path)}.`,
    ExitCode.interrupted,
  );
}

/**
 * A per-profile lock file so two cron runs of the same job never overlap. Created atomically and
 * whole (written beside under a random name, then linked into place), so another run never reads it empty. A lock
 * left by a process that no longer exists (or whose PID now belongs to a process started later) is taken over with a
 * warning, by one run only: see takeOver and docs/decisions/0014-lock-takeover.md.
 */
export function acquireLock(
  path: string,
  command: string,
  warn: (message: string) => void,
  replaced: Partial<LockFileSystem> = {},
): () => void {
  return takeLock(path, command, warn, replaced).release;
}

/** A lock taken and its text: what a holder compares the file with to know it still holds it (heldLockCheck). */
function takeLock(
  path: string,
  command: string,
  warn: (message: string) => void,
  replaced: Partial<LockFileSystem> = {},
): { release: () => void; text: string } {
  const fileSystem = { ...nodeLockFileSystem, ...replaced };
  try {
    refuseToMakeTheHome(dirname(path));
    makePrivateFolder(dirname(path));
  } catch (error) {
    throw unwritableLock(path, error);
  }
  const text = lockText(command);
  refuseOddLockPath(path);
  for (let attempt = 0; attempt < 3; attempt++) {
    let outcome: LockAttempt;
    try {
      outcome = attemptLock(path, text, warn, fileSystem);
    } catch (error) {
      throw unwritableLock(path, error);
    }
    if (outcome.release) return { release: outcome.release, text };
    if (outcome.liveHolder) throw heldBy(outcome.liveHolder, path);
  }
  throw new B2bctlError(`Could not take the lock ${printable(path)}; another run took it first.`, ExitCode.interrupted);
}

/**
 * What a long-running holder finds when it looks at its lock again: still its own; `retaken` (the file was gone, a
 * cleaner or an operator removed it, and nobody had taken the free path: made again, with the same text, so that a
 * second run is refused again); or `lost`, with why (another run's lock in its place, or one that could not be made
 * again): the holder must stop, as another run may be doing its work.
 */
export type LockCheck = { held: true; retaken?: boolean } | { held: false; why: string };

/** A lock a long-running command holds, and looks at again now and then (a receiver: `webhook listen`). */
export interface HeldLock {
  path: string;
  release: () => void;
  check: () => LockCheck;
}

/**
 * Takes the lock as acquireLock does, for a holder that runs for months: a lock file removed under it (systemd-tmpfiles
 * or tmpreaper for a folder under /tmp, an operator told "If PID … is not b2bctl, remove …") let a second run in
 * beside it (a user test: two receivers delivering every event of one inbox). `check` tells whether the file at
 * the path is still the one this run made, the same file (device and inode) with the same text (its nonce), as
 * PostgreSQL's postmaster looks at its postmaster.pid again every minute; see docs/decisions/0014-lock-takeover.md.
 */
export function acquireHeldLock(path: string, command: string, warn: (message: string) => void): HeldLock {
  const { release, text } = takeLock(path, command, warn);
  let identity = fileIdentity(path);
  const check = (): LockCheck => {
    const current = readLock(path);
    if (current === 'gone') {
      try {
        if (!createLockFile(path, text, nodeLockFileSystem))
          return { held: false, why: lostTo(readLock(path), 'was removed, and another run took the free path first') };
      } catch (error) {
        return {
          held: false,
          why: `was removed and could not be made again (${systemErrorCause(error) ?? (error as Error).message})`,
        };
      }
      identity = fileIdentity(path);
      return { held: true, retaken: true };
    }
    if (current.text === text && fileIdentity(path) === identity) return { held: true };
    return { held: false, why: lostTo(current, 'was replaced') };
  };
  return { path, release, check };
}

/** The file at `path` as the system tells files apart: a copy put back in its place is another file. */
function fileIdentity(path: string): string | undefined {
  try {
    const stats = statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

/** Why a lock is no longer this run's, naming the run whose lock is there now, when the file says. */
function lostTo(current: ReadLock | 'gone', what: string): string {
  const other = current === 'gone' ? undefined : current.holder;
  if (other === undefined) return what;
  return `${what}: it is now PID ${other.pid}'s (${other.command}, since ${other.startedAt})`;
}

/**
 * Who holds a lock a run waited for, and what to do should that be no b2bctl: one wording for every lock that is waited
 * on (the short locks and the login lock).
 */
export function stillHeldBy(path: string, holder: LockHolder | undefined): { who: string; remedy: string } {
  if (holder === undefined)
    return { who: 'another b2bctl', remedy: `if no b2bctl is running, remove ${printable(path)}` };
  return {
    who: `PID ${holder.pid} (${holder.command}, since ${holder.startedAt}), which is still running`,
    remedy: `if PID ${holder.pid} is not b2bctl, remove ${printable(path)}`,
  };
}

/** The text of a lock this process takes for `command`: who holds it, and a nonce that makes it this lock's alone. */
export function lockText(command: string): string {
  const holder: LockHolder = {
    pid: process.pid,
    command,
    startedAt: new Date().toISOString(),
    processStart: processStartTime(process.pid),
    nonce: randomBytes(8).toString('hex'),
  };
  return JSON.stringify(holder);
}

/**
 * What one try at a lock came to: taken (`release` removes it, only while it still holds our text), held by a process
 * that is still running (`liveHolder`), or neither yet (released meanwhile, being written, or a stale lock just taken
 * over by this run or another): try again.
 */
export interface LockAttempt {
  release?: () => void;
  liveHolder?: LockHolder;
}

/**
 * One try at the lock at `path` with `text` (lockText): the one way both of b2bctl's lock kinds take a lock, so a
 * live holder's lock is never taken over, whatever its age, and a dead one's by one run only (takeOver). Throws the
 * file system's error when the lock cannot be written.
 */
export function attemptLock(
  path: string,
  text: string,
  warn: (message: string) => void,
  fileSystem: LockFileSystem = nodeLockFileSystem,
): LockAttempt {
  if (createLockFile(path, text, fileSystem)) return { release: releaser(path, text) };
  const current = readLock(path);
  // Released between our attempt and the read: the holder finished, so simply try again. An empty lock is one being
  // written where hard links are missing (created, then written): its holder is alive.
  if (current === 'gone' || (current.text === '' && changedWithin(path, abandonedGuardMs))) return {};
  const { holder: other } = current;
  if (other && isProcessAlive(other.pid, other.processStart)) return { liveHolder: other };
  const gone =
    other && isProcessAlive(other.pid)
      ? `whose process is gone (PID ${other.pid} now belongs to a process started later)`
      : 'which is no longer running';
  warn(
    `warning: taking over the stale lock ${printable(path)}${other ? ` left by PID ${other.pid} (${other.command}, ${other.startedAt}), ${gone}` : ''}.`,
  );
  takeOver(path, current.text, fileSystem);
  return {};
}

/**
 * A config folder on a full or read-only disk: the bare system error (`ENOSPC: no space left on device, write`, exit
 * 1) named no file, and exit 1 reads as "some records were rejected". Named, and exit 2, as every path that cannot
 * be written before anything is sent; the system's own words for the cause (up to its comma: not the call).
 */
function unwritableLock(path: string, error: unknown): unknown {
  const cause = systemErrorCause(error);
  if (cause === undefined || error instanceof B2bctlError) return error;
  return new UsageError(
    `Cannot write the lock ${printable(path)} (${cause}); nothing was sent. Make room on its disk or make it writable, or use a config folder elsewhere (B2BCTL_CONFIG_DIR).`,
    { cause: error },
  );
}

/**
 * A link or a folder where the lock goes is no run's lock: no run could ever take it, and every cron run would stop
 * with "another run took it first" (exit 75, which says "try again later"). Said once, with the fix; exit 77.
 */
export function refuseOddLockPath(path: string): void {
  let kind: string | undefined;
  try {
    const stats = lstatSync(path);
    kind = stats.isSymbolicLink() ? 'a symbolic link' : stats.isFile() ? undefined : 'not a file';
  } catch {
    return;
  }
  if (kind !== undefined)
    throw new B2bctlError(
      `The lock path ${printable(path)} is ${kind}, which b2bctl never writes through or takes over: remove it (rm -r ${shellWord(path)}) and run again.`,
      ExitCode.authFailed,
    );
}

/** Removes the lock at exit or when called, only while it is still ours (a run that took it over keeps its own). */
function releaser(path: string, text: string): () => void {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    const current = readLock(path);
    if (current !== 'gone' && current.text === text) rmSync(path, { force: true });
  };
  // A process that ends abruptly but normally (EPIPE when a reader such as `head` closes stdout exits at once)
  // still releases its lock, so the next cron run does not have to take it over with a warning.
  process.once('exit', release);
  return release;
}

/**
 * Removes the stale lock whose text was `staleText`, unless it changed. Two runs that judged the same lock stale must
 * not both remove "it": the second would remove the lock the first has just made, and both would run. So a takeover
 * happens under a guard file created exclusively, and removes the lock only if it still holds the text judged stale;
 * the runs then race for the free path with an exclusive link, which one wins.
 */
function takeOver(path: string, staleText: string | undefined, fileSystem: LockFileSystem): void {
  const guard = `${path}.takeover`;
  let descriptor: number;
  try {
    descriptor = fileSystem.createExclusive(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    removeAbandonedGuard(guard);
    return;
  }
  try {
    const current = readLock(path);
    if (current !== 'gone' && current.text === staleText) unlinkSync(path);
  } catch {
    // Not removable (a folder in its place): the next attempt finds it again.
  } finally {
    closeSync(descriptor);
    rmSync(guard, { force: true });
  }
}

/** Whether the file at `path` was modified less than `milliseconds` ago. */
function changedWithin(path: string, milliseconds: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs < milliseconds;
  } catch {
    return false;
  }
}

/** Another run is taking the lock over right now, unless its guard is old: then that run was killed meanwhile. */
function removeAbandonedGuard(guard: string): void {
  try {
    if (!changedWithin(guard, abandonedGuardMs)) rmSync(guard, { force: true });
  } catch {
    // Not removable: the next attempt finds it again.
  }
}

/**
 * Creates the lock file with its holder already in it, or returns false when it exists. Creating it
 * empty and writing afterwards (O_EXCL, then write) let a run started at the same moment read an
 * empty lock, take it for stale, and run alongside.
 */
function createLockFile(path: string, text: string, fileSystem: LockFileSystem): boolean {
  const temporary = temporaryPathBeside(path);
  const descriptor = createFileExclusively(temporary);
  try {
    fileSystem.write(descriptor, text);
  } catch (error) {
    // Not left behind, empty, by each run the full disk stops.
    closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(descriptor);
  try {
    fileSystem.link(temporary, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: create the lock exclusively and write it, as before.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
    return createLockFileInPlace(path, text, fileSystem);
  } finally {
    rmSync(temporary, { force: true });
  }
}

function createLockFileInPlace(path: string, text: string, fileSystem: LockFileSystem): boolean {
  let descriptor: number;
  try {
    descriptor = fileSystem.createExclusive(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fileSystem.write(descriptor, text);
  } catch (error) {
    // Ours, made a moment ago: an empty lock left would hold the next runs off for abandonedGuardMs.
    closeSync(descriptor);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(descriptor);
  return true;
}

/** The lock's text and holder ('gone' when the file no longer exists); no text when it cannot be read, no holder when the text is not one. */
function readLock(path: string): ReadLock | 'gone' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : { text: undefined, holder: undefined };
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    return { text, holder: Number.isInteger(holder?.pid) ? holder : undefined };
  } catch {
    return { text, holder: undefined };
  }
}
