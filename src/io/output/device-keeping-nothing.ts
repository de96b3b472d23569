import { fstatSync, readlinkSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * The device `stream` writes to when it keeps nothing a reader could take, or undefined: a character device that is
 * no terminal, such as `> /dev/null` (or a stdout the shell closed, `>&-`, which node reopens on /dev/null as it
 * starts), `/dev/zero` or `/dev/urandom`. Every write to one "succeeds", so a command that moves a cursor over what
 * it wrote must not take it for a reader. A terminal, a file and a pipe keep what they are given.
 */
export function deviceKeepingNothing(stream: object): string | undefined {
  const descriptor = (stream as { fd?: unknown }).fd;
  if (typeof descriptor !== 'number') return undefined;
  try {
    if (!fstatSync(descriptor).isCharacterDevice() || isatty(descriptor)) return undefined;
  } catch {
    return undefined;
  }
  try {
    // The device's own name where the system shows it (Linux); a description elsewhere.
    return readlinkSync(`/proc/self/fd/${descriptor}`);
  } catch {
    return 'a device that is no terminal';
  }
}
