/**
 * A customer row shifted by one cell (a user test: an unquoted comma in `Brandão, Maria` makes one cell too many, a
 * dropped cell one too few) puts the password under another column's name: `stateRegistration`, whose warning quotes
 * it, or `phone`, whose problem quotes it. The row's secret cells, and the cells the shift moved into or out of the
 * password column, are masked in the warnings and the problem lines alike; the other cells are quoted as before.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8')
  .trimEnd()
  .split('\n');
const password = 'Senha#1001';

/** The sample's first customer, its name split at an unquoted comma (one cell too many) or one cell left out. */
const rows = {
  'one cell too many': (first as string).replace('Maria Brandão', 'Brandão, Maria'),
  'one cell too few': (first as string).replace('Maria Brandão,,,', 'Maria Brandão,,'),
};

function fileOf(row: string): string {
  expect(row).toContain(`,${password},`);
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'n.csv'), `${header}\n${row}\n`);
  return folder;
}

it.each([
  ['one cell too many', rows['one cell too many'], '[redacted]'],
  // The password moved left, into "phone": "stateRegistration" holds the next cell, quoted as it is.
  ['one cell too few', rows['one cell too few'], 'false'],
])(
  'customer validate, %s: the warning and the problems never quote the password (exit 65)',
  async (_case, row, stateRegistration) => {
    const result = await runCommandLine(['customer', 'validate', 'n.csv', '-o', 'csv'], {
      configDir: freshConfigDir(),
      cwd: fileOf(row),
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      `warning: n.csv:2: Property [stateRegistration] with value [${stateRegistration}] may be wrong (a state registration`,
    );
    expect(result.stdout + result.stderr).not.toContain(password);
    // A cell away from the password's is quoted as it was.
    expect(result.stdout).toMatch(/Property \[customerRegistrationAddress\.zipcode\] with value \[(false|11)\]/);
  },
);

it('customer validate, one cell too few: the password under "phone" is [redacted] in the value and the message', async () => {
  const result = await runCommandLine(['customer', 'validate', 'n.csv', '-o', 'csv'], {
    configDir: freshConfigDir(),
    cwd: fileOf(rows['one cell too few']),
  });
  expect(result.stdout).toContain(
    'n.csv,2,phone,[redacted],"Property [phone] with value [[redacted]] does not pass validation',
  );
  // The boolean's own words are no secret: "false" (the cell the shift left beside the password) is not masked.
  expect(result.stdout).toContain('expected true or false');
});

it('customer create --dry-run, one cell too many: the warning on stderr masks the password; nothing is sent', async () => {
  const result = await runCommandLine(['customer', 'create', 'n.csv', '--dry-run'], {
    configDir: freshConfigDir(),
    cwd: fileOf(rows['one cell too many']),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
  });
  expect(result.code).toBe(65);
  expect(result.stderr).toContain('Property [stateRegistration] with value [[redacted]] may be wrong');
  expect(result.stdout + result.stderr).not.toContain(password);
  expect(platform.received).toEqual([]);
});
