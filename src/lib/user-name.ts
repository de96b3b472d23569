import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';

/** The name of the user running b2bctl, for a message that tells them to make something theirs. */
export function currentUserName(uid: number): string {
  try {
    return userInfo().username;
  } catch {
    return userName(uid);
  }
}

/** The name of the user with this id (from /etc/passwd), or `uid N` when it has none there. */
export function userName(uid: number): string {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (id === String(uid) && name) return `${name} (uid ${uid})`;
    }
  } catch {
    // No /etc/passwd (a container without one): the id says enough.
  }
  return `uid ${uid}`;
}
