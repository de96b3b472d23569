import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Context } from '../../context.js';
import { isSingleFile, packageRoot } from '../../base/package-root.js';
import { writeObject } from '../../io/output/write-object.js';

export type WhereOptions = Record<string, never>;

/** The folders `b2bctl docs` names; null where this b2bctl has none (the single file has none of them). */
export interface InstalledFolders {
  /** docs/: the guides (docs/*.md) that --help names, and docs/commands. */
  guides: string | null;
  /** samples/: the files the README's examples copy. */
  samples: string | null;
  /** The folder to add to MANPATH: it holds man1/ with b2bctl's pages. */
  man: string | null;
}

/**
 * `b2bctl docs`: where the installed guides, samples and man pages are. An npm install puts them under the package's
 * folder, which `npm root -g` does not find under another `--prefix`, and the README's `samples/` and `--help`'s
 * `docs/*.md` are relative to it (a user test). Without -o, one folder a line after its label, piped or not (`grep`
 * reads it as it is); -o json, ndjson or csv (or --excel) the same as one object, for a script.
 */
export async function run(_options: WhereOptions, context: Context): Promise<void> {
  const folders = installedFolders();
  const asked = context.globals.output !== undefined || context.globals.excel === true;
  if (asked && context.outputFormat('json') !== 'table') return writeObject(context, { ...folders });
  context.io.stdout.write(isSingleFile() ? singleFileLines : linesOf(folders));
}

function installedFolders(): InstalledFolders {
  if (isSingleFile()) return { guides: null, samples: null, man: null };
  const root = packageRoot();
  return { guides: join(root, 'docs'), samples: join(root, 'samples'), man: manPathFolder(root) };
}

/**
 * The folder whose man1/ holds this package's pages, as MANPATH wants it, or null. The package's own docs/man holds the
 * pages themselves, which man finds under no MANPATH entry (a user test); `npm install -g` links each page package.json's
 * "man" lists into PREFIX/share/man/man1, the package being PREFIX/lib/node_modules/b2bctl. That folder, when its
 * b2bctl.1 is this package's page (not another install's): a clone, a local install or `npm link` has none there.
 */
export function manPathFolder(root: string): string | null {
  const folder = join(dirname(dirname(dirname(root))), 'share', 'man');
  const linked = join(folder, 'man1', 'b2bctl.1');
  const page = join(root, 'docs', 'man', 'b2bctl.1');
  if (!existsSync(linked) || !existsSync(page)) return null;
  return realpathSync(linked) === realpathSync(page) ? folder : null;
}

/** The single file has no folder of its own to name: where each thing is instead. */
const singleFileLines = [
  'guides   not in the single-file b2bctl: docs/*.md of the npm package or the source',
  'samples  inside the single file, where the sandbox seeds from them: copy them from the npm package or the source',
  'man      b2bctl docs man FOLDER writes the man pages into FOLDER/man1, for MANPATH=FOLDER',
  '',
].join('\n');

function linesOf(folders: InstalledFolders): string {
  const man =
    folders.man ??
    'none linked by npm here: b2bctl docs man FOLDER writes the pages into FOLDER/man1, for MANPATH=FOLDER';
  return [`guides   ${folders.guides}`, `samples  ${folders.samples}`, `man      ${man}`, ''].join('\n');
}
