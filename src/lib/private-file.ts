import { randomBytes } from 'node:crypto';
import {
  type Stats,
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { lstatOrUndefined, statOrUndefined } from './file-status.js';
import { currentUserName, otherWriters, shownMode, specialFileKind, userName } from './file-owners.js';
import { noBlock } from './named-file.js';
import { printable } from './printable.js';

/**
 * Every file b2bctl creates is created here: in a folder others can write to (a shared export folder, /tmp), a
 * predictable name opened plainly follows a link planted there and writes wherever it points. O_CREAT|O_EXCL never
 * opens what is already at the path (a link included), O_NOFOLLOW refuses a link where an existing file is
 * reopened, and the mode is set on the open descriptor, so neither the umask nor a folder that existed before
 * leaves customer data readable by other users.
 */

/** Files b2bctl writes are its user's only: customers' data, tokens, locks. */
export const privateFileMode = 0o600;
/** Folders b2bctl creates. */
export const privateFolderMode = 0o700;

// Windows has no O_NOFOLLOW (and no links a user can plant without privilege).
const noFollow = constants.O_NOFOLLOW ?? 0;

/** Creates `path`, which must not exist (not even as a link), for writing with `mode`; returns its descriptor. */
export function createFileExclusively(path: string, mode = privateFileMode): number {
  const descriptor = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, mode);
  try {
    fchmodSync(descriptor, mode);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
  return descriptor;
}

/**
 * Opens `path` for appending: a new private file, or the one already there when it is this user's own regular file
 * that no one else may write (a resumed report, an empty file made for the run). A file another user made first in a
 * shared folder, a FIFO or one others may write would hand them what b2bctl writes: refused with a
 * NotOwnPrivateFileError, a link with ELOOP. The system's own under /dev are written as given: the process's own
 * streams (`--errors /dev/stderr`, /dev/fd/N) and character devices (/dev/null, a terminal).
 */
export function openForAppend(path: string, mode = privateFileMode): number {
  try {
    return createFileExclusively(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Looked at before any open for writing: a block device (`--report /dev/sdb` mistyped in a root cron job) would have
  // the rows written over the start of the disk, its partition table and file system.
  if (statOrUndefined(path)?.isBlockDevice() === true)
    throw new NotOwnPrivateFileError(
      path,
      'it is a block device (a disk or a partition), not a file: the rows would be written over the start of it',
    );
  if (isSystemOutput(path, lstatOrUndefined(path), statOrUndefined(path)))
    return openSync(path, constants.O_WRONLY | constants.O_APPEND);
  // Read too: a resumed report's cut last row is found and dropped. Not blocking: a FIFO opens at once, to be refused.
  const descriptor = openSync(path, constants.O_RDWR | constants.O_APPEND | noFollow | noBlock);
  try {
    const stats = fstatSync(descriptor);
    refuseUnlessOwnPrivateFile(path, stats);
    // Our own file that others may read (`touch` makes it 0644): closed to them before any row goes in, as a file
    // b2bctl creates is (config.json's widened mode is put back alike).
    if (process.geteuid !== undefined && (stats.mode & 0o077 & ~mode) !== 0) fchmodSync(descriptor, mode);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
  return descriptor;
}

/** An existing file b2bctl will not put customers' data in, and why, in words for the error line. */
export class NotOwnPrivateFileError extends Error {
  readonly path: string;
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`${printable(path)}: ${reason}`);
    this.path = path;
    this.reason = reason;
  }
}

function refuseUnlessOwnPrivateFile(path: string, stats: Stats): void {
  if (!stats.isFile())
    throw new NotOwnPrivateFileError(
      path,
      `it is ${specialFileKind(stats)}, not a file: whoever reads it would get the rows`,
    );
  const uid = process.geteuid?.();
  // Windows: no owner ids and no mode bits to judge.
  if (uid === undefined) return;
  if (stats.uid !== uid)
    throw new NotOwnPrivateFileError(
      path,
      `it belongs to ${userName(stats.uid)}, not to ${currentUserName(uid)}: its owner could read what b2bctl writes in it`,
    );
  const writers = otherWriters(stats.mode);
  if (writers !== undefined)
    throw new NotOwnPrivateFileError(
      path,
      `${writers} may write it (mode ${shownMode(stats.mode)}): they could change what b2bctl writes in it`,
    );
}

/**
 * The system's own outputs under /dev, which no other user can plant, given what is at the path itself (`found`) and
 * where it leads (`target`): the links directly in /dev (/dev/stdout, /dev/stderr) and /dev/fd/N lead to this
 * process's own descriptors; elsewhere only a real character device (/dev/null, /dev/pts/3) counts, never a link or
 * file in the world-writable /dev/shm or /dev/mqueue. A block device is none of them, as a link to one in /dev
 * (/dev/cdrom) or a file /dev itself holds is not: they are opened, and refused, as any other path.
 */
export function isSystemOutput(given: string, found: Stats | undefined, target: Stats | undefined): boolean {
  const path = resolve(given);
  if (!path.startsWith('/dev/') || path !== given || target?.isBlockDevice() === true) return false;
  if (dirname(path) === '/dev/fd') return found?.isDirectory() !== true;
  if (dirname(path) === '/dev') return found?.isSymbolicLink() === true || found?.isCharacterDevice() === true;
  return found?.isCharacterDevice() === true;
}

/** A name beside `path` no other process can guess: `.name.<random>.tmp`, for a file renamed into place. */
export function temporaryPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
}

/** temporaryPathBeside's names, `.NAME.<16 hex digits>.tmp`, and the NAME in them; no other name matches. */
const temporaryName = /^\.(.+)\.[0-9a-f]{16}\.tmp$/;

/** The name of the file a temporary of temporaryPathBeside's (`.NAME.<16 hex digits>.tmp`) is a copy of, else undefined. */
export function temporaryCopyOf(entry: string): string | undefined {
  return temporaryName.exec(entry)?.[1];
}

/**
 * Removes the temporary copies that rewrites of `path` left when they were killed (SIGKILL, a power cut): never
 * renamed, so never read, but each as large as the file (a night's report, an errors file). Called by the process
 * that rewrites `path` next, which its lock or the folder's owner keeps the only writer of it.
 */
export function removeAbandonedTemporaries(path: string): void {
  removeTemporariesIn(dirname(path), (name) => name === basename(path));
}

/**
 * Removes what killed rewrites of any file in `folder` left: for a folder one writer fills with many files (the
 * orders of `orders poll --out-dir` and `--fetch-orders`), read once when it starts rather than at each file.
 */
export function removeAbandonedTemporariesIn(folder: string): void {
  removeTemporariesIn(folder, () => true);
}

function removeTemporariesIn(folder: string, ofFile: (name: string) => boolean): void {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    // A folder that cannot be listed (search permission only) keeps its temporaries; the write goes on.
    return;
  }
  for (const entry of entries) {
    const name = temporaryCopyOf(entry);
    if (name === undefined || !ofFile(name)) continue;
    try {
      rmSync(join(folder, entry), { force: true });
    } catch {
      // Another user's in a shared folder (the sticky bit): theirs to remove; the write goes on.
    }
  }
}

/** Whether anything is at `path`, a dangling link included (existsSync follows links and says no). */
export function pathTaken(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Creates `folder` and its missing parents, 0700; a folder that exists is left as it is. */
export function makePrivateFolder(folder: string): void {
  makeFolders(folder, privateFolderMode);
}

/**
 * `mkdir -p`, one level at a time from the nearest folder that exists: node's recursive mkdir spins for ever on a
 * path under /proc (`b2bctl docs man /proc/x` never ended, deaf to Ctrl-C), where a plain mkdir says ENOENT. Returns
 * the folders it made, outermost first (their mode is `mode` less the umask).
 */
export function makeFolders(folder: string, mode: number): string[] {
  const missing: string[] = [];
  let nearest = resolve(folder);
  for (; !existsSync(nearest); nearest = dirname(nearest)) {
    missing.unshift(nearest);
    if (dirname(nearest) === nearest) break;
  }
  // A file where the folder should be: the error mkdir gives, which callers explain ("a file is in the way").
  if (missing.length === 0 && !statSync(nearest).isDirectory())
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${nearest}'`), {
      code: 'EEXIST',
      path: nearest,
    });
  for (const path of missing) {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      // Made meanwhile by another process: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return missing;
}
