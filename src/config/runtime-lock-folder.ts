import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { currentUserName, shownMode, specialFileKind, userName } from '../lib/file-owners.js';

/**
 * The runtime folder's locks folder, or, when a level of it is there but no folder of this user's that no one else
 * may read or write (another user made it first in a shared /tmp, or a link in its place), that level and why: the
 * refusal must name it, as the config folder's lock it stands in for says nothing of it (a user test).
 */
export type RuntimeLockFolder = { locks: string; planted?: never } | { planted: PlantedFolder; locks?: never };

/** A level of the runtime folder that is not this user's private folder: where, and why, as a sentence goes on. */
export interface PlantedFolder {
  path: string;
  /** `is a symbolic link that belongs to att (uid 12727)`, `belongs to att (uid 12727)`, `may be read or written by others (mode 0777)`. */
  why: string;
}

/**
 * Where a config folder's locks go when the config folder cannot be written (a read-only home, `HOME=/nonexistent`
 * for a system user that runs with B2BCTL_BASE_URL and B2BCTL_TOKEN and no profile): `$XDG_RUNTIME_DIR/b2bctl/locks`,
 * the user's own, else `<temporary folder>/b2bctl-<uid>/locks`. In a shared /tmp another user could have made that
 * folder first, or a link in its place, to read or hold b2bctl's locks: each level is created 0700 and then
 * checked as it is (never through a link), a folder, this user's, that no one else may write, or refused.
 * Returns undefined where no such folder can be had; `configDirectory` names its locks' prefix, so two config
 * folders' profiles of one name keep locks of their own, as they do in their folders.
 */
export function runtimeLockFolder(
  environment: NodeJS.ProcessEnv = process.env,
  temporary: string = tmpdir(),
): RuntimeLockFolder | undefined {
  const uid = process.geteuid?.();
  if (uid === undefined) return undefined;
  const runtime = environment.XDG_RUNTIME_DIR;
  const base =
    runtime !== undefined && isAbsolute(runtime) && ownPrivateFolder(runtime, uid)
      ? join(runtime, 'b2bctl')
      : join(temporary, `b2bctl-${uid}`);
  const locks = join(base, 'locks');
  for (const folder of [base, locks]) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    const why = notOwnPrivateFolder(folder, uid);
    if (why !== undefined) return { planted: { path: folder, why } };
  }
  return { locks };
}

/** The name a config folder's lock has in the runtime folder: its profile's and command's, after the folder's. */
export function runtimeLockName(configDirectory: string, profileName: string, lockName: string): string {
  const folder = createHash('sha256').update(resolve(configDirectory)).digest('hex').slice(0, 12);
  return `${folder}.${profileName}.${lockName}.lock`;
}

/** A folder itself (not a link to one), this user's, that no other user may write or read. */
function ownPrivateFolder(path: string, uid: number): boolean {
  return notOwnPrivateFolder(path, uid) === undefined;
}

/** Why a path is not a folder of this user's that no other user may read or write; undefined when it is one. */
function notOwnPrivateFolder(path: string, uid: number): string | undefined {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(path);
  } catch (error) {
    return `cannot be looked at (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  const owner = stats.uid === uid ? 'you' : userName(stats.uid);
  if (stats.isSymbolicLink()) return `is a symbolic link that belongs to ${owner}`;
  if (!stats.isDirectory())
    return `is ${stats.isFile() ? 'a file' : specialFileKind(stats)} that belongs to ${owner}, not a folder`;
  if (stats.uid !== uid) return `belongs to ${owner}, not to ${currentUserName(uid)}`;
  if ((stats.mode & 0o077) !== 0) return `may be read or written by others than you (mode ${shownMode(stats.mode)})`;
  return undefined;
}
