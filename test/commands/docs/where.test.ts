/**
 * `b2bctl docs` alone names the folders an install put its guides, samples and man pages in: for an npm install
 * under another --prefix, $(npm root -g) names none of them, and the README's samples/ is relative to them (a user
 * test). It exits 0 and writes the folders to stdout, one a line; `docs man` is unchanged (man.test.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';

const root = join(__dirname, '../../../');

it('prints the folders of the guides, the samples and the man pages, each one that exists; exit 0', async () => {
  const result = await runCommandLine(['docs'], { configDir: freshConfigDir() });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  const folders = Object.fromEntries(
    result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split(/ +/, 2)),
  );
  expect(folders).toEqual({
    guides: join(root, 'docs'),
    samples: join(root, 'samples'),
    man: join(root, 'docs', 'man'),
  });
  expect(existsSync(join(folders.guides as string, 'platform.md'))).toBe(true);
  expect(existsSync(join(folders.samples as string, 'clientes-erp.csv'))).toBe(true);
  expect(existsSync(join(folders.man as string, 'b2bctl.1'))).toBe(true);
});

it('an unknown word after docs is a usage error, exit 2, and prints no folder', async () => {
  const result = await runCommandLine(['docs', 'guides'], { configDir: freshConfigDir() });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain("too many arguments for 'docs'");
});
