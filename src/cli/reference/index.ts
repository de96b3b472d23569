import { readCommandTree } from './command-tree.js';
import { manPage } from './man.js';
import { commandIndex, commandPage, pageName } from './markdown.js';
import { settingsPage } from './settings.js';

/** The folders the reference is generated into, relative to the repository; nothing else is written there. */
export const referenceFolders = { markdown: 'docs/commands', man: 'docs/man' } as const;

/**
 * The command reference as files (path relative to the repository → content): a Markdown page and a man page per
 * command, the index, and docs/settings.md from the settings table. `npm run docs:gen` writes them; a test compares them with the checked-in copies.
 */
export async function commandReference(): Promise<Map<string, string>> {
  const entries = await readCommandTree();
  const files = new Map<string, string>([
    ['docs/settings.md', settingsPage()],
    [`${referenceFolders.markdown}/README.md`, commandIndex(entries)],
  ]);
  for (const entry of entries) {
    files.set(`${referenceFolders.markdown}/${pageName(entry)}.md`, commandPage(entry));
    files.set(`${referenceFolders.man}/${pageName(entry)}.1`, manPage(entry));
  }
  return files;
}

/** The man pages for package.json's `man` field, in tree order. */
export function manPaths(files: ReadonlyMap<string, string>): string[] {
  return [...files.keys()].filter((path) => path.endsWith('.1')).map((path) => `./${path}`);
}
