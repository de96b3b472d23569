import { statSync } from 'node:fs';

/**
 * Device, inode, size and modification time of a file: any change means another file, or other content. A pipe's
 * times move as it is written, and no one rewrites what it has already given: only which pipe it is counts.
 */
export function fileIdentity(path: string): string | undefined {
  try {
    const stats = statSync(path, { bigint: true });
    if (!stats.isFile()) return `${stats.dev}:${stats.ino}`;
    return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * How a refusal names a file that is no longer the one read (the ERP still writing or replacing its export): what
 * the reading found, problems included, is of no file as it now stands.
 */
export function changedWhileRead(shownName: string): string {
  return `${shownName} changed while it was being read (another program is writing or replacing it)`;
}
