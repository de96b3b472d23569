import { closeSync, constants, lstatSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { maximumNfeBytes } from '../../domain/nfe-document.js';
import { NotRegularFileError, openNamedFileSync } from '../../lib/named-file.js';
import { printable } from '../../lib/printable.js';

/** The bytes of an NF-e file, or why they cannot be read (a reason that never quotes the file). */
export type InvoiceFileRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/**
 * Reads the NF-e a row names. Confined (an `orders update` file without --allow-paths), the path is relative and
 * stays inside `folder`: no absolute path, no `..`, no symbolic link that leads out of it. A file a row names is
 * the file's author's choice, and the XML goes to the store: a planted row must not read `/etc/shadow` nor learn
 * whether a file outside the folder exists, so every way out gets the same answer, before anything outside is opened.
 */
export function readInvoiceFile(folder: string, path: string, confined: boolean): InvoiceFileRead {
  if (!confined) return readCapped(resolve(folder, path), 0);
  const outside = {
    ok: false as const,
    reason: `the NF-e must be a file inside ${printable(folder)} (a relative path without "..", no link out of it); give it there, or run with --allow-paths`,
  };
  if (isAbsolute(path) || path.split(/[\\/]+/).includes('..')) return outside;
  let base: string;
  try {
    base = realpathSync(folder);
  } catch {
    return outside;
  }
  const inside = insidePath(base, path);
  if (inside === undefined) return outside;
  // Every link on the way is resolved already: one planted after this check is not followed.
  return readCapped(inside, constants.O_NOFOLLOW);
}

/**
 * The real path of `path` under `base` when it stays there, following links inside it; undefined when a link leads
 * out of it or nowhere (the same answer whether or not its target exists). A missing plain file keeps its path, so
 * the read says "no such file" about a name inside the folder only.
 */
function insidePath(base: string, path: string): string | undefined {
  let current = base;
  for (const part of path.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.')) {
    current = join(current, part);
    let link: boolean;
    try {
      link = lstatSync(current).isSymbolicLink();
    } catch {
      return resolve(base, path);
    }
    if (!link) continue;
    try {
      const real = realpathSync(resolve(base, path));
      return real === base || real.startsWith(`${base}${sep}`) ? real : undefined;
    } catch {
      return undefined;
    }
  }
  return current;
}

/** The file's bytes: opened without blocking (a FIFO is not an NF-e), capped before it is read. */
function readCapped(path: string, extraFlags: number): InvoiceFileRead {
  let descriptor: number | undefined;
  try {
    const opened = openNamedFileSync(path, { flags: extraFlags });
    descriptor = opened.descriptor;
    const { stats } = opened;
    if (stats.size > maximumNfeBytes)
      return { ok: false, reason: `the file has ${stats.size} bytes; an NF-e has at most ${maximumNfeBytes}` };
    const bytes = Buffer.alloc(stats.size);
    let read = 0;
    while (read < stats.size) {
      const count = readSync(descriptor, bytes, read, stats.size - read, read);
      if (count === 0) break;
      read += count;
    }
    return { ok: true, bytes: bytes.subarray(0, read) };
  } catch (error) {
    if (error instanceof NotRegularFileError) return { ok: false, reason: 'not a file' };
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: `no such file: ${printable(path)}` };
    if (code === 'ELOOP') return { ok: false, reason: 'a symbolic link, not the NF-e file itself' };
    return { ok: false, reason: `cannot read it (${code ?? (error as Error).message})` };
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
