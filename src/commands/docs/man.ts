import { chmodSync, closeSync, constants, fchmodSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeWholeSync } from '../../lib/whole-write.js';
import { makeFolders } from '../../lib/private-file.js';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { checkManFolderSafety } from '../../config/folder-safety.js';
import { shippedFolder } from '../../base/package-root.js';
import { printable } from '../../lib/printable.js';

export interface ManPagesOptions {
  folder: string;
}

/**
 * `b2bctl docs man FOLDER`: the man pages b2bctl ships (docs/man, generated from the command tree by
 * `npm run docs:gen` and checked against it by a test), copied into FOLDER/man1 for MANPATH.
 */
export async function run(options: ManPagesOptions, context: Context): Promise<void> {
  const shipped = shippedFolder('docs/man');
  const pages = readdirSync(shipped).filter((name) => name.endsWith('.1'));
  const section = join(options.folder, 'man1');
  checkManFolderSafety(section);
  try {
    // Set, not asked of mkdir: the umask takes bits off a mode asked, and under a hardened umask (077, 027) the pages
    // were left to their writer alone, so `man` told every other user "No manual entry" (a user test).
    for (const made of makeFolders(section, 0o755)) chmodSync(made, 0o755);
    readableByAll(section);
  } catch (error) {
    throw new UsageError(`Cannot make ${section} (${codeOf(error)}); pass a folder you can write to.`);
  }
  for (const page of pages) writePage(join(section, page), readFileSync(join(shipped, page)));
  context.log.info(
    `Wrote ${pages.length} man pages to ${printable(section)}; read one with MANPATH=${printable(options.folder)} man b2bctl-stock-push.`,
  );
}

/**
 * The section folder readable and searchable by all, whoever made it: an earlier b2bctl under umask 077 made it 0700.
 * Only bits are added (its owner was checked by checkManFolderSafety); a folder already open to all is left alone.
 */
function readableByAll(folder: string): void {
  const mode = statSync(folder).mode & 0o7777;
  if ((mode & 0o555) !== 0o555) chmodSync(folder, mode | 0o555);
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/**
 * Replaces a page (a later b2bctl writes its own over an older one's), never through a symbolic link. Readable by
 * all, as man pages are: they hold nothing private.
 */
function writePage(path: string, text: Buffer): void {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    );
    // The mode asked of open() loses the umask's bits and leaves an existing page's mode as it was (0600 from a run
    // under umask 077): set as the page is written (refused for a page another user owns).
    fchmodSync(descriptor, 0o644);
  } catch (error) {
    if (descriptor !== undefined) closeSync(descriptor);
    throw new UsageError(
      `Cannot write ${printable(path)} (${codeOf(error)}); pass a folder you can write to, with no link in the place of a page.`,
    );
  }
  try {
    writeWholeSync(descriptor, text);
  } finally {
    closeSync(descriptor);
  }
}
