import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

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
): string | undefined {
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
    if (!ownPrivateFolder(folder, uid)) return undefined;
  }
  return locks;
}

/** The name a config folder's lock has in the runtime folder: its profile's and command's, after the folder's. */
export function runtimeLockName(configDirectory: string, profileName: string, lockName: string): string {
  const folder = createHash('sha256').update(resolve(configDirectory)).digest('hex').slice(0, 12);
  return `${folder}.${profileName}.${lockName}.lock`;
}

/** A folder itself (not a link to one), this user's, that no other user may write or read. */
function ownPrivateFolder(path: string, uid: number): boolean {
  try {
    const stats = lstatSync(path);
    return stats.isDirectory() && stats.uid === uid && (stats.mode & 0o077) === 0;
  } catch {
    return false;
  }
}
