/**
 * docs/commands/ and docs/man/ are generated from the command tree (`npm run docs:gen`); the checked-in pages must be
 * what the tree generates now, so a new flag or command that was not regenerated fails here, saying what to run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandReference, manPaths, referenceFolders } from '../../../src/cli/reference/index.js';
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
    const pages = [...files.keys()].filter((path) => path.endsWith('.md') && !path.endsWith('README.md'));
    expect(pages.length).toBe(manPaths(files).length);
    expect(pages.length).toBeGreaterThan(20);
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

  it("lists every man page in package.json's man field", () => {
    const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { man?: string[] };
    expect(packageJson.man, `package.json's man list is ${regenerate}`).toEqual(manPaths(files));
  });
});
