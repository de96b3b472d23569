import { closeSync, constants, openSync, readdirSync, readFileSync } from 'node:fs';
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
    makeFolders(section, 0o755);
  } catch (error) {
    throw new UsageError(`Cannot make ${section} (${codeOf(error)}); pass a folder you can write to.`);
  }
  for (const page of pages) writePage(join(section, page), readFileSync(join(shipped, page)));
  context.log.info(
    `Wrote ${pages.length} man pages to ${printable(section)}; read one with MANPATH=${printable(options.folder)} man b2bctl-stock-push.`,
  );
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/**
 * Replaces a page (a later b2bctl writes its own over an older one's), never through a symbolic link. Readable by
 * all, as man pages are: they hold nothing private.
 */
function writePage(path: string, text: Buffer): void {
  let descriptor: number;
  try {
    descriptor = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
      0o644,
    );
  } catch (error) {
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
