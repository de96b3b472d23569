/**
 * `b2bctl docs` alone names the folders an install put its guides, samples and man pages in: for an npm install
 * under another --prefix, $(npm root -g) names none of them, and the README's samples/ is relative to them (a user
 * test). It exits 0 and writes the folders to stdout, one a line, or with -o json as one object; its man folder is one
 * MANPATH takes (holding man1/), which the package's own docs/man is not; a mistyped subcommand is refused with the
 * nearest offered, as commander refuses it for the other groups. `docs man` is unchanged (man.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { manPathFolder } from '../../../src/commands/docs/where.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireTools } from '../../support/external-tools.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

const root = join(__dirname, '../../../');
const man = requireTools('man');
const docs = (...words: string[]) => runCommandLine(words, { configDir: freshConfigDir() });

describe('b2bctl docs', () => {
  it('prints the folders of the guides and the samples, each one that exists, and no man folder in a clone; exit 0', async () => {
    const result = await docs('docs');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const folders = Object.fromEntries(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => line.split(/ +(.*)/, 2)),
    );
    expect(folders).toEqual({
      guides: join(root, 'docs'),
      samples: join(root, 'samples'),
      // The clone's docs/man holds the pages themselves, which no MANPATH entry finds.
      man: 'none linked by npm here: b2bctl docs man FOLDER writes the pages into FOLDER/man1, for MANPATH=FOLDER',
    });
    expect(existsSync(join(folders.guides as string, 'platform.md'))).toBe(true);
    expect(existsSync(join(folders.samples as string, 'clientes-erp.csv'))).toBe(true);
  });

  it.each([[['docs', '-o', 'json']], [['-o', 'json', 'docs']]])(
    '%j prints the folders as one JSON object, null for the man folder a clone has not',
    async (words) => {
      const result = await docs(...words);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({
        guides: join(root, 'docs'),
        samples: join(root, 'samples'),
        man: null,
      });
    },
  );

  it('-o csv prints the three folders as one row under their names', async () => {
    const result = await docs('docs', '-o', 'csv');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`guides,samples,man\r\n${join(root, 'docs')},${join(root, 'samples')},\r\n`);
  });

  it('a mistyped subcommand is refused with the nearest offered, exit 2, and nothing written', async () => {
    const folder = join(temporaryFolder(), 'man');
    const result = await docs('docs', 'mna', folder);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: unknown command 'mna' \(did you mean man\?\)\n/);
    expect(existsSync(folder)).toBe(false);
  });

  it('a word that is no subcommand is refused, exit 2, and prints no folder', async () => {
    const result = await docs('docs', 'guides');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: unknown command 'guides'\n/);
  });
});

/**
 * An npm install's layout, as `npm install -g --prefix PREFIX` leaves it: the package in PREFIX/lib/node_modules, each
 * page of package.json's "man" linked (relatively) into PREFIX/share/man/man1.
 */
function npmGlobalLayout(): { prefix: string; packageFolder: string } {
  const prefix = temporaryFolder();
  const packageFolder = join(prefix, 'lib', 'node_modules', 'b2bctl');
  mkdirSync(join(packageFolder, 'docs', 'man'), { recursive: true });
  mkdirSync(join(prefix, 'share', 'man', 'man1'), { recursive: true });
  for (const page of ['b2bctl.1', 'b2bctl-stock-push.1']) {
    copyFileSync(join(root, 'docs', 'man', page), join(packageFolder, 'docs', 'man', page));
    const link = join(prefix, 'share', 'man', 'man1', page);
    symlinkSync(relative(join(prefix, 'share', 'man', 'man1'), join(packageFolder, 'docs', 'man', page)), link);
  }
  return { prefix, packageFolder };
}

/** The page man -w finds under `manPath` alone, or a throw saying it found none. */
const manPageUnder = (manPath: string, page: string) =>
  execFileSync('man', ['-w', page], {
    encoding: 'utf8',
    env: { ...process.env, MANPATH: manPath },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('the man folder of b2bctl docs', () => {
  it('is PREFIX/share/man, where npm install -g linked the pages', () => {
    const { prefix, packageFolder } = npmGlobalLayout();
    expect(manPathFolder(packageFolder)).toBe(join(prefix, 'share', 'man'));
  });

  it.skipIf(man.missing)(`is a MANPATH entry under which man finds b2bctl's pages${man.note}`, () => {
    const { packageFolder } = npmGlobalLayout();
    const folder = manPathFolder(packageFolder) as string;
    expect(manPageUnder(folder, 'b2bctl-stock-push')).toBe(
      `${join(packageFolder, 'docs', 'man', 'b2bctl-stock-push.1')}\n`,
    );
    // What b2bctl docs printed before: the folder of the pages themselves, in which man finds none.
    expect(() => manPageUnder(join(packageFolder, 'docs', 'man'), 'b2bctl-stock-push')).toThrow(/No manual entry/);
  });

  it("is none when the prefix's b2bctl.1 is another install's page, or when nothing is linked (a clone)", () => {
    const { prefix, packageFolder } = npmGlobalLayout();
    const other = join(prefix, 'share', 'man', 'man1', 'b2bctl.1');
    rmSync(other);
    writeFileSync(other, '.TH B2BCTL 1\n');
    expect(manPathFolder(packageFolder)).toBeNull();
    expect(manPathFolder(root)).toBeNull();
  });
});
