/**
 * docs/commands/, docs/man/ and docs/settings.md are generated from the command tree and the settings table
 * (`npm run docs:gen`); the checked-in pages must be what they generate now, so a new flag, command or setting that
 * was not regenerated fails here, saying what to run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everySetting } from '../../../src/config/settings.js';
import { commandReference, manPaths, referenceFolders } from '../../../src/cli/reference/index.js';
import { requireTools } from '../../support/external-tools.js';
import { repoRoot } from '../../support/sandbox.js';

const regenerate = 'out of date with the command tree: run `npm run docs:gen` and commit the result';
const files = await commandReference();

function checkedIn(relative: string): string | undefined {
  const path = join(repoRoot, relative);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

describe('the generated command reference', () => {
  it('has a Markdown page and a man page for every command, stock push among them', () => {
    expect(files.get('docs/commands/b2bctl-stock-push.md')).toContain('`--rate <n>`');
    expect(files.get('docs/man/b2bctl-stock-push.1')).toMatch(/^\.TH B2BCTL\\-STOCK\\-PUSH 1/m);
    const pages = [...files.keys()].filter((path) => path.startsWith('docs/commands/b2bctl'));
    expect(pages.length).toBe(manPaths(files).length);
    expect(pages.length).toBeGreaterThan(20);
  });

  it('has docs/settings.md with every setting of the settings table', () => {
    for (const { key } of everySetting) expect(files.get('docs/settings.md')).toContain(`| \`${key}\` |`);
  });

  it("shows no flag's default as a JavaScript value (`(default: [])` printed for a repeatable flag: a user test)", async () => {
    const { readCommandTree } = await import('../../../src/cli/reference/command-tree.js');
    const helps = (await readCommandTree()).map((entry) => entry.help);
    expect(helps.filter((help) => /\(default: (\[|\{)/.test(help))).toEqual([]);
  });

  it('is checked in as generated', () => {
    const stale = [...files].filter(([relative, content]) => checkedIn(relative) !== content).map(([path]) => path);
    expect(stale, `these pages are ${regenerate}`).toEqual([]);
  });

  it('has no page of a command that is gone', () => {
    const extra = Object.values(referenceFolders).flatMap((folder) =>
      readdirSync(join(repoRoot, folder))
        .map((name) => `${folder}/${name}`)
        .filter((path) => !files.has(path)),
    );
    expect(extra, `these pages are ${regenerate}`).toEqual([]);
  });

  const man = requireTools('man');
  it.skipIf(man.missing)(`reads as man pages without a warning from man${man.note}`, () => {
    // One of each kind (the root, a group, a verb with notes, a verb with examples): man is slow, the pages share a writer.
    const pages = ['b2bctl', 'b2bctl-stock', 'b2bctl-customer-update', 'b2bctl-stock-push'].map((name) =>
      join(repoRoot, 'docs', 'man', `${name}.1`),
    );
    const shown = spawnSync('man', ['--warnings', '-l', ...pages], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '80', MANPAGER: 'cat', PAGER: 'cat' },
    });
    expect({ status: shown.status, warnings: shown.stderr }).toEqual({ status: 0, warnings: '' });
    expect(shown.stdout.match(/^NAME$/gm)).toHaveLength(pages.length);
    expect(shown.stdout).toMatch(/^ {7}b2bctl-stock-push +- +push +a +stock/m);
    expect(shown.stdout).toMatch(/^ {7}--rate <n>$/m);
  });

  it("lists every man page in package.json's man field", () => {
    const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { man?: string[] };
    expect(packageJson.man, `package.json's man list is ${regenerate}`).toEqual(manPaths(files));
  });
});
