import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshWorkDir, runCli, type RunResult } from '../../support/cli.js';
import { createHeader } from '../../support/customers.js';
import { expectLines, timed } from '../../support/run-files.js';

/**
 * Issue 8's first bug: the unknown-column hint suggested `addressList.*.zipcode`, the reader accepted that header,
 * and then every row failed as "expected a list of addresses". A list item is written by its index (`addressList.0.`)
 * everywhere: it is what the hint suggests, and following the hint gives a valid record.
 */
const row = 'cpf,529.982.247-25,Ana,ana@example.com,11987654321,Senha#1,01310-100,10,20040-002,5';

function validate(header: string, extra: readonly string[] = []): Promise<RunResult> {
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'people.csv'), `${createHeader},${header}\n${row}\n`);
  return runCli(['customer', 'validate', 'people.csv', ...extra], { configDir: freshWorkDir(), cwd: folder });
}

describe('customer validate: list items in column names', () => {
  it('a list item without its index: the hint names the first item, with its index', async () => {
    const result = await validate('addressList.zipcode,addressList.0.number', ['--strict']);
    expect(result.code).toBe(65);
    expect(result.stderr).toBe(
      'error: people.csv:1: unknown column "addressList.zipcode" (did you mean "addressList.0.zipcode"?). Rename it with --map, or drop --strict to ignore it.\n',
    );
  });

  it('`*` is not an index: the column is unknown (not accepted and then failing every row), with the same hint', async () => {
    const result = await validate('addressList.*.zipcode,addressList.*.number');
    // Its data would be read by no field: the run stops, with the map entry the hint makes.
    expect(result.code).toBe(65);
    expectLines(result.stderr, [
      'warning: people.csv:1: unknown column "addressList.*.zipcode" (did you mean "addressList.0.zipcode"?): no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).',
      'warning: people.csv:1: unknown column "addressList.*.number" (did you mean "addressList.0.number"?): no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).',
      `error: people.csv:2: 2 columns hold data no field reads, so it would not be sent. Map each in a --map file, or leave it out with --ignore-column: column 9 (I) "addressList.*.zipcode" holds "20040-002" on line 2 ({"addressList.*.zipcode":"addressList.0.zipcode"}, or --ignore-column 'addressList.*.zipcode'); column 10 (J) "addressList.*.number" holds "5" on line 2 ({"addressList.*.number":"addressList.0.number"}, or --ignore-column 'addressList.*.number').`,
    ]);
    expect(result.stdout).toBe('');
  });

  it('following the hint gives a valid record with its address list', async () => {
    const result = await validate('addressList.0.zipcode,addressList.0.number', ['--strict']);
    expect(result.code).toBe(0);
    expectLines(result.stderr, [timed('people.csv: 1 record, 1 valid, 0 invalid (0 problems) in {s} s.')]);
  });
});
