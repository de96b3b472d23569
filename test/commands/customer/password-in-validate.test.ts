/**
 * A password cell the checks refuse (an invisible character in it, a spreadsheet formula's error) is never printed:
 * `customer validate`'s data (`-o csv`, `-o json`, the NDJSON it writes when piped) shows its value `[redacted]`,
 * and so do the problem lines of `customer create` (their `--log-format json` fields). The reader's own checks quote
 * the cell as the record's do not, so the mask is put on where the problems are printed (src/bulk/problem-output.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const [header, ...records] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8')
  .trimEnd()
  .split('\n');

/** The finding's three bad password cells, on lines 2 to 4, and one good customer after them on line 5. */
const badPasswords = ['Pw-ZW-SECRET\u200b1', 'Pw-BIDI-SECRET\u202e1', '#NOME?'];

function fileOfBadPasswords(): string {
  const folder = freshWorkDir();
  const lines = badPasswords.map((password, index) => {
    const record = records[index] as string;
    const current = `Senha#100${index + 1}`;
    expect(record).toContain(`,${current},`);
    return record.replace(current, password);
  });
  writeFileSync(join(folder, 'all3.csv'), `${[header, ...lines, records[3]].join('\n')}\n`);
  return folder;
}

const run = (args: string[], folder: string, env: Record<string, string> = {}) =>
  runCommandLine(args, { configDir: freshConfigDir(), cwd: folder, env });

/** Every password of the file, as written and as JSON writes it: none may be printed. */
function expectNoPassword(text: string) {
  for (const password of badPasswords.slice(0, 2)) {
    expect(text).not.toContain(password);
    expect(text).not.toContain(JSON.stringify(password).slice(1, -1));
    expect(text).not.toContain('SECRET');
  }
}

describe('customer validate: a refused password cell is never printed', () => {
  it('-o csv: the value column says [redacted], the message does not quote the cell', async () => {
    const result = await run(['customer', 'validate', 'all3.csv', '-o', 'csv'], fileOfBadPasswords());
    expect(result.code).toBe(65);
    const [columns, ...rows] = result.stdout.trimEnd().split('\r\n');
    expect(columns).toBe('file,line,field,value,message,row');
    expect(rows).toEqual([
      expect.stringMatching(/^all3\.csv,2,password,\[redacted\],"field ""password"" holds an invisible .*\(U\+200B\)/),
      expect.stringMatching(/^all3\.csv,3,password,\[redacted\],"field ""password"" holds an invisible .*\(U\+202E\)/),
      'all3.csv,4,password,[redacted],"field ""password"" holds [redacted], the error a spreadsheet formula gave, not a value; correct the formula or type the value, and export again",4',
    ]);
    expectNoPassword(result.stdout + result.stderr);
    expect(result.stdout).not.toContain('#NOME?');
  });

  it.each([
    ['-o json', ['-o', 'json']],
    ['piped (NDJSON)', []],
  ])('%s: each problem\'s "value" is [redacted]', async (_name, flags) => {
    const result = await run(['customer', 'validate', 'all3.csv', ...flags], fileOfBadPasswords());
    expect(result.code).toBe(65);
    const problems = (
      flags.length > 0
        ? (JSON.parse(result.stdout) as Record<string, unknown>[])
        : result.stdout
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line) as Record<string, unknown>)
    ).map(({ line, field, value }) => ({ line, field, value }));
    expect(problems).toEqual([2, 3, 4].map((line) => ({ line, field: 'password', value: '[redacted]' })));
    expectNoPassword(result.stdout + result.stderr);
  });

  it('a missing password keeps its empty value: it hides nothing and says what is wrong', async () => {
    const folder = fileOfBadPasswords();
    const file = join(folder, 'all3.csv');
    writeFileSync(file, readFileSync(file, 'utf8').replace('#NOME?', ''));
    const result = await run(['customer', 'validate', 'all3.csv', '-o', 'json'], folder);
    const problems = JSON.parse(result.stdout) as { line: number; value: string }[];
    expect(problems.map(({ line, value }) => ({ line, value }))).toEqual([
      { line: 2, value: '[redacted]' },
      { line: 3, value: '[redacted]' },
      { line: 4, value: '' },
    ]);
  });
});

describe('customer create: the problem lines of a refused password cell', () => {
  it('--log-format json: the fields say [redacted]; nothing is sent for the invalid records', async () => {
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const result = await run(
      ['customer', 'create', 'all3.csv', '--dry-run', '--log-format', 'json'],
      fileOfBadPasswords(),
      env,
    );
    expect(result.code).toBe(65);
    expect(platform.received).toEqual([]);
    const warnings = result.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; fields?: { line?: number; field?: string; value?: string } })
      .filter((entry) => entry.level === 'warn' && entry.fields?.field === 'password');
    expect(warnings.map((entry) => entry.fields)).toEqual(
      [2, 3, 4].map((line) => ({ file: 'all3.csv', line, field: 'password', value: '[redacted]' })),
    );
    expectNoPassword(result.stderr);
  });
});
