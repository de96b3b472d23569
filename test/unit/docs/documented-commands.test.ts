/**
 * The command lines the README and docs/ tell a reader to type parse, against the real command tree, to a command:
 * a renamed flag or command fails here before a newcomer meets it. Lines of ```sh and ```cron blocks that run
 * b2bctl are read as sh would (comments, line continuations, a trailing `&`, cron's five schedule fields).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandReachedBy, shellWords } from '../../support/command-words.js';
import { repoRoot } from '../../support/sandbox.js';

/** Hand-written pages: docs/commands/ is generated from the tree itself. */
const pages = [
  join(repoRoot, 'README.md'),
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(repoRoot, 'docs', name)),
];

interface DocumentedLine {
  page: string;
  line: string;
}

/** The lines of a page's sh and cron blocks that run b2bctl, continuations joined and comments cut. */
export function documentedLines(page: string, text: string): DocumentedLine[] {
  const lines: DocumentedLine[] = [];
  for (const block of text.matchAll(/^```(sh|cron)\n([\s\S]*?)^```/gm)) {
    const body = (block[2] ?? '').replace(/\\\n\s*/g, ' ');
    for (const raw of body.split('\n')) {
      let line = raw.replace(/\s+#\s.*$/, '').trim();
      if (block[1] === 'cron') line = line.split(/\s+/).slice(5).join(' ');
      line = line.replace(/\s*&$/, '');
      if (/(^|[\s|])b2bctl\s/.test(line)) lines.push({ page: relative(repoRoot, page), line });
    }
  }
  return lines;
}

const documented = pages.flatMap((page) => documentedLines(page, readFileSync(page, 'utf8')));

describe('command lines in the README and docs/', () => {
  it('are found: every job of the README is among them', () => {
    const readme = documented.filter(({ page }) => page === 'README.md').map(({ line }) => line);
    for (const job of ['customer create', 'stock push', 'sellers list', 'orders poll', 'webhook listen', 'sandbox'])
      expect(readme.some((line) => line.includes(`b2bctl ${job}`))).toBe(true);
    expect(documented.length).toBeGreaterThan(40);
  });

  it('are read as sh and cron would read them', () => {
    const page = join(repoRoot, 'docs', 'page.md');
    const text = [
      '```cron',
      '0 2 * * *  A=1 b2bctl stock push f.csv --quiet >> log 2>&1',
      '```',
      '```sh',
      'b2bctl webhook listen --client-id x \\',
      '  --inbox in &   # in the background',
      'echo not b2bctl',
      '```',
    ].join('\n');
    expect(documentedLines(page, text).map(({ line }) => shellWords(line))).toEqual([
      ['b2bctl', 'stock', 'push', 'f.csv', '--quiet'],
      ['b2bctl', 'webhook', 'listen', '--client-id', 'x', '--inbox', 'in'],
    ]);
  });

  it.each(documented.map(({ page, line }) => [page, line] as const))('%s: %s', async (_page, line) => {
    // From b2bctl on: what comes before is the shell's (`sudo -u erp env …`, `exec`).
    const shell = shellWords(line);
    const words = shell.slice(shell.indexOf('b2bctl'));
    expect(words[0]).toBe('b2bctl');
    // A usage error (an unknown flag or command) rejects; a line that parses reaches a command.
    await expect(commandReachedBy(words.slice(1))).resolves.not.toBe('nothing was dispatched');
  });
});
