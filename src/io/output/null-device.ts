import { fstatSync, statSync } from 'node:fs';
import { devNull } from 'node:os';

/**
 * True when `stream` writes to the null device: `> /dev/null`, or a stdout the shell closed (`>&-`), which node
 * reopens on the null device as it starts, so that every write to it "succeeds". A command that moves a cursor over
 * what it wrote must not take that for a reader.
 */
export function writesToNullDevice(stream: object): boolean {
  const descriptor = (stream as { fd?: unknown }).fd;
  if (typeof descriptor !== 'number') return false;
  try {
    const stats = fstatSync(descriptor);
    return stats.isCharacterDevice() && stats.rdev === statSync(devNull).rdev;
  } catch {
    return false;
  }
}
