/**
 * Two lines of one stock file whose SKUs are the same but for case or leading zeros (`ABC-1`/`abc-1`, `00777`/`777`),
 * a user test: b2bctl matches a platform's answers as if the platform took them for one product, so it names them in
 * a warning (the file may mean two products: they are still sent), as it refuses SKUs the same to the letter.
 */
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { excelCsv, sandboxWorkspace, useSandboxPerFile } from '../../support/cli.js';
import { maskClock, onlyFile, readReport } from '../../support/run-files.js';
import { stockEntries } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

function workspace(files: Record<string, string | Buffer>) {
  return sandboxWorkspace(sandbox, token, files);
}

/** The warning of a line whose SKU (label) repeats the one on `firstLine` but for case or leading zeros. */
const looseRepeat = (file: string, line: number, label: string, value: string, firstLine: number) =>
  `warning: ${file}:${line}: ${label} "${value}" is the same but for case or leading zeros as the ${label} on line ${firstLine} of this file: a platform that takes them for one product gets two values for it, and whichever request lands last wins. If they are one product, keep one line; if two, nothing is wrong.`;

/** A header and `count` pairs of lines whose SKUs differ only by case, the one in capitals second. */
function casePairs(count: number): string[] {
  const rows = ['sku;quantity'];
  for (let index = 1; index <= count; index++) {
    const sku = `GEN-${String(index).padStart(7, '0')}`;
    rows.push(`${sku.toLowerCase()};1`, `${sku};2`);
  }
  return rows;
}

describe('SKUs the same but for case or leading zeros in one file', () => {
  it('validate names each later line and the first, as a warning: exit 0, every line valid', async () => {
    const { run } = workspace({
      'casedup.csv': excelCsv(
        'sku;quantity;price',
        'ABC-1;5;10,00',
        'XYZ-9;1;1,00',
        'abc-1;500;99,00',
        '00777;1;1,00',
        '777;9;9,00',
      ),
    });
    const validated = await run(['stock', 'validate', 'casedup.csv']);
    expect(validated.code).toBe(0);
    expect(maskClock(validated.stderr).split('\n')).toEqual([
      looseRepeat('casedup.csv', 4, 'SKU', 'abc-1', 2),
      looseRepeat('casedup.csv', 6, 'SKU', '777', 5),
      'casedup.csv: 5 records, 5 valid, 0 invalid (0 problems, 2 warnings) in T s.',
      '',
    ]);
  });

  it('names the first line of a loose form whichever came first: the one in capitals, or one that is not', async () => {
    const { run } = workspace({
      'order.csv': excelCsv('sku;quantity', 'm-5;1', 'M-5;2', '0m-5;3', 'K-1;1', '0K-1;2', 'k-1;3', 'K-1;4'),
    });
    const validated = await run(['stock', 'validate', 'order.csv']);
    expect(maskClock(validated.stderr).split('\n').slice(0, 4)).toEqual([
      looseRepeat('order.csv', 3, 'SKU', 'M-5', 2),
      looseRepeat('order.csv', 4, 'SKU', '0m-5', 2),
      looseRepeat('order.csv', 6, 'SKU', '0K-1', 5),
      looseRepeat('order.csv', 7, 'SKU', 'k-1', 5),
    ]);
    // K-1 twice to the letter is the refused repeat, not a warning.
    expect(validated.stdout).toContain('(the same SKU is also on line 5 of this file)');
  });

  it('a warehouse code the same but for case is named too; a SKU the same to the letter stays refused, without the warning', async () => {
    const { run } = workspace({
      'wh.csv': excelCsv('sku;quantity;warehouse', 'W1;1;CD-SP', 'W1;2;cd-sp', 'W2;3;CD-SP', 'W2;4;CD-SP'),
    });
    const validated = await run(['stock', 'validate', 'wh.csv']);
    expect(validated.code).toBe(65);
    expect(validated.stderr).toContain(`${looseRepeat('wh.csv', 3, 'SKU in this warehouse', 'W1 @ cd-sp', 2)}\n`);
    expect(validated.stderr.match(/is the same but for case/g)).toHaveLength(1);
    // Problems are validate's data (stdout); the warning is the log's.
    expect(validated.stdout).toContain('(the same SKU in this warehouse is also on line 5 of this file)');
  });

  it('push says it before sending, counts it in the summary, and sends both lines', async () => {
    const { dir, run } = workspace({
      'p.csv': excelCsv('sku;quantity', 'GEN-0000001;5', 'GEN-0000002;7', 'gen-0000001;6'),
    });
    const pushed = await run(['stock', 'push', 'p.csv', '--route', 'batch']);
    const lines = maskClock(pushed.stderr).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'stock push: validating p.csv',
      looseRepeat('p.csv', 4, 'SKU', 'gen-0000001', 2),
      'stock push: 3 records, 3 valid, 0 invalid, 1 warning (T s)',
    ]);
    // Both reached the platform: the sandbox knows the capital one only, and rejects the other by name.
    expect((await stockEntries(sandbox)).map(({ sku, quantity }) => [sku, quantity])).toEqual([
      ['GEN-0000001', 5],
      ['GEN-0000002', 7],
    ]);
    const report = readReport(onlyFile(dir, 'p.report-'));
    expect(report.map((row) => [row.key, row.outcome])).toEqual([
      ['GEN-0000001', 'applied'],
      ['GEN-0000002', 'applied'],
      ['gen-0000001', 'rejected'],
    ]);
  });

  it('a push prints the first 100 such warnings, then one line counting the rest and the command printing every one', async () => {
    // 130 pairs of SKUs differing only by case, a warning each, with --quiet (the sandbox knows the capital ones).
    const { run } = workspace({ 'pairs.csv': excelCsv(...casePairs(130)) });
    const pushed = await run(['stock', 'push', 'pairs.csv', '--route', 'batch', '--quiet']);
    const lines = maskClock(pushed.stderr).split('\n');
    const warnings = lines.filter((line) => line.startsWith('warning: '));
    expect(warnings).toHaveLength(101);
    expect(warnings[0]).toBe(looseRepeat('pairs.csv', 3, 'SKU', 'GEN-0000001', 2));
    expect(warnings[99]).toBe(looseRepeat('pairs.csv', 201, 'SKU', 'GEN-0000100', 200));
    expect(warnings[100]).toBe(
      'warning: pairs.csv: 30 more warnings not printed one by one (only the first 100 are); b2bctl stock validate pairs.csv prints every one.',
    );
    // With --quiet the log holds those and the error line: nothing else per SKU.
    expect(lines.filter((line) => line !== '' && !line.startsWith('warning: '))).toEqual([
      expect.stringMatching(/^error: 130 items did not go through \(130 rejected\)/),
    ]);
    expect(pushed.closingLine).toMatch(/: 130 applied, 130 rejected; exit 1$/);
  });

  it('validate, whose listing it is, still prints every warning', async () => {
    const { run } = workspace({ 'pairs.csv': excelCsv(...casePairs(130)) });
    const validated = await run(['stock', 'validate', 'pairs.csv']);
    expect(validated.stderr.split('\n').filter((line) => line.startsWith('warning: '))).toHaveLength(130);
  });
});
