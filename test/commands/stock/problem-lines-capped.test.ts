/**
 * A stock file invalid in most of its rows (decision 0036): a push prints its first 100 problem lines, then the rest
 * by reason (each with its count and first record's line, the most common first) and where every problem is listed;
 * an export wrong in every row printed 494,862 lines (155 MB) into a cron log a night. `stock validate`, whose data
 * the problems are, lists every one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { excelCsv, sandboxWorkspace, useSandboxPerFile } from '../../support/cli.js';
import { onlyErrorsFile, readErrorsCsv } from '../../support/run-files.js';
import { requestCounts } from '../../support/sandbox.js';
import { batchRoute } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/**
 * 250 invalid rows of 3 reasons, each row one problem, then 10 valid ones: lines 2–151 a price of 0, 152–211 a
 * negative quantity, 212–251 no SKU. Past the first 100 lines (2–101): 50 prices (first at line 102), 60 quantities
 * (152) and 40 SKUs (212), summed up in that order, the most common first.
 */
function mostlyInvalidStock(): string {
  const rows = ['sku;quantity;price'];
  for (let index = 0; index < 250; index++) {
    const sku = `BAD-${String(index).padStart(4, '0')}`;
    if (index < 150) rows.push(`${sku};5;0`);
    else if (index < 210) rows.push(`${sku};-3;10,00`);
    else rows.push(`;5;10,00`);
  }
  for (let index = 1; index <= 10; index++) rows.push(`GEN-${String(index).padStart(7, '0')};5;10,00`);
  return excelCsv(...rows);
}

const price = /^Property \[price\] with value \[0\] does not pass validation \(a price of 0 /;
const quantity = /^Property \[quantity\] with value \[-3\] does not pass validation/;
const sku = /^Property \[sku\] with value \[\] does not pass validation/;

/** The stderr lines naming the file (problems and their summary), and the others. */
function split(stderr: string) {
  const lines = stderr.split('\n').filter((line) => line !== '');
  return {
    problems: lines.filter((line) => /^estoque\.csv:\d+: /.test(line)),
    summary: lines.filter((line) => line.startsWith('estoque.csv: ')),
    error: lines.filter((line) => line.startsWith('error: ')),
  };
}

/** The summary's lines, their message cut to a few words to compare. */
function expectSummary(summary: string[], lastLine: string): void {
  expect(summary).toHaveLength(5);
  expect(summary[0]).toBe('estoque.csv: 150 more problems not printed one by one (only the first 100 are); by reason:');
  const [first, second, third] = summary.slice(1, 4).map((line) => /^(estoque\.csv: .+?\)): (.*)$/.exec(line)!);
  expect(first?.[1]).toBe('estoque.csv: 60 problems (first at line 152)');
  expect(first?.[2]).toMatch(quantity);
  expect(second?.[1]).toBe('estoque.csv: 50 problems (first at line 102)');
  expect(second?.[2]).toMatch(price);
  expect(third?.[1]).toBe('estoque.csv: 40 problems (first at line 212)');
  expect(third?.[2]).toMatch(sku);
  expect(summary[4]).toBe(lastLine);
}

describe('stock push of a file with 250 invalid rows of 3 reasons', () => {
  it('prints the first 100 problems, the other 150 by reason, and the validate command that lists them all; sends nothing, exit 65', async () => {
    const { run } = sandboxWorkspace(sandbox, token, { 'estoque.csv': mostlyInvalidStock() });
    const result = await run(['stock', 'push', 'estoque.csv', '--route', 'batch', '--quiet']);
    expect(result.code).toBe(65);
    const { problems, summary, error } = split(result.stderr);
    // The first 100, in file order, each as before: file:line and its message.
    expect(problems).toHaveLength(100);
    expect(problems[0]).toMatch(/^estoque\.csv:2: Property \[price\] with value \[0\]/);
    expect(problems[99]).toMatch(/^estoque\.csv:101: Property \[price\] with value \[0\]/);
    expectSummary(
      summary,
      'estoque.csv: every problem is listed by b2bctl stock validate estoque.csv -o csv > problems.csv',
    );
    expect(error).toEqual([
      'error: 250 records of estoque.csv are invalid (the first 100 of their problems listed above, the other 150 summed up); nothing was sent. Fix them, or pass --skip-invalid to send the rest.',
    ]);
    expect(result.closingLine).toMatch(/260 records, 10 valid, 250 invalid; nothing sent; exit 65$/);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('with --skip-invalid: the same 100 lines and summary, pointing to the errors file, which holds all 250', async () => {
    const { dir, run } = sandboxWorkspace(sandbox, token, { 'estoque.csv': mostlyInvalidStock() });
    const result = await run(['stock', 'push', 'estoque.csv', '--route', 'batch', '--skip-invalid', '--quiet']);
    expect(result.code).toBe(1);
    const errors = onlyErrorsFile(dir, 'estoque');
    const { problems, summary } = split(result.stderr);
    expect(problems).toHaveLength(100);
    expectSummary(summary, `estoque.csv: every invalid record is in the errors file ${errors}, with why`);
    const written = readErrorsCsv(join(dir, errors), ';');
    expect(written.rows).toHaveLength(250);
    // The 10 valid items were sent, in one request.
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
  });

  it('exactly 100 problems (a price of 0 allowed): all printed, nothing summed up', async () => {
    const { run } = sandboxWorkspace(sandbox, token, { 'estoque.csv': mostlyInvalidStock() });
    const result = await run(['stock', 'push', 'estoque.csv', '--skip-invalid', '--dry-run', '--allow-zero-price']);
    expect(result.code).toBe(1);
    const { problems, summary } = split(result.stderr);
    // With a price of 0 allowed, 100 rows are invalid: all printed, nothing summed up.
    expect(problems).toHaveLength(100);
    expect(summary).toEqual([]);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

describe('stock validate of the same file', () => {
  it('lists all 250 problems: listing them is its job', async () => {
    const { run } = sandboxWorkspace(sandbox, token, { 'estoque.csv': mostlyInvalidStock() });
    const result = await run(['stock', 'validate', 'estoque.csv', '-o', 'csv']);
    expect(result.code).toBe(65);
    // A header, then a problem a line.
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(251);
    expect(result.stderr).not.toMatch(/not printed one by one/);
  });
});
