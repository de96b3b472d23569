import { readFileSync, type Stats } from 'node:fs';
import { userInfo } from 'node:os';

/**
 * Who owns a file, who else may write it and what it is, in the words b2bctl's refusals use (a config folder that
 * is not yours, a report file another user made first, a FIFO where a file should be).
 */

/** The name of the user with this id (from /etc/passwd), or `uid N` when it has none there. */
export function userName(uid: number): string {
  // No name (a container without /etc/passwd): the id says enough.
  const name = loginName(uid);
  return name === undefined ? `uid ${uid}` : `${name} (uid ${uid})`;
}

/** A user's login name, as `sudo -u` takes it; undefined when /etc/passwd does not name the id. */
export function loginName(uid: number): string | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id === String(uid) && name) return name;
    }
  } catch {
    // No /etc/passwd (a container without one).
  }
  return undefined;
}

/** The login name of the user running b2bctl, as `chown` takes it. */
export function currentUserName(uid: number): string {
  try {
    return userInfo().username;
  } catch {
    return userName(uid);
  }
}

/** Who besides the owner may write a file of this mode: its group, others, both; undefined when no one. */
export function otherWriters(mode: number): string | undefined {
  if ((mode & 0o022) === 0o022) return 'its group and others';
  if ((mode & 0o020) !== 0) return 'its group';
  if ((mode & 0o002) !== 0) return 'others';
  return undefined;
}

/** A mode as `ls -l` users and chmod write it: 0644. */
export function shownMode(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

/** What a path that is not a regular file is, as a person names it: `a named pipe (FIFO)`. */
export function specialFileKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe (FIFO)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  return 'a special file';
}
