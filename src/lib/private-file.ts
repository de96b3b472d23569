import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, fchmodSync, lstatSync, mkdirSync, openSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

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
 * Opens `path` for appending: a new private file, or the one already there when it is not a symbolic link (a
 * resumed report, a device such as /dev/null). A link fails with ELOOP, but for the system's own under /dev
 * (`--errors /dev/stderr`), which no other user can plant.
 */
export function openForAppend(path: string, mode = privateFileMode): number {
  try {
    return createFileExclusively(path, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // A file of ours is opened to read too (a resumed report's cut last row is found and dropped); a device as given.
  const [follow, access] = path.startsWith('/dev/') ? [0, constants.O_WRONLY] : [noFollow, constants.O_RDWR];
  return openSync(path, access | constants.O_APPEND | follow);
}

/** A name beside `path` no other process can guess: `.name.<random>.tmp`, for a file renamed into place. */
export function temporaryPathBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
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
 * path under /proc (`b2bctl docs man /proc/x` never ended, deaf to Ctrl-C), where a plain mkdir says ENOENT.
 */
export function makeFolders(folder: string, mode: number): void {
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
}
