import { describe, expect, it } from 'vitest';
import { newStockChecker } from '../../../src/commands/stock/stock-input.js';
import type { InputRecord, WrittenCells } from '../../../src/io/input/open-input.js';

const cells: WrittenCells = {
  decimal: ',',
  columns: (
    [
      ['sku', 'string'],
      ['quantity', 'integer'],
      ['price', 'number'],
      ['warehouse', 'string'],
    ] as const
  ).map(([path, type], index) => ({ index, header: path, path, segments: [path], type })),
};

/** A CSV row as the reader hands it on: the cells as written, and the values typed from them (decimal comma). */
function row(line: number, cellsWritten: string[], values: Record<string, unknown>): InputRecord {
  return { line, values, original: cellsWritten, problems: [], cells };
}

describe('RecordChecker', () => {
  it('quotes the cell as written, not the value it was read as', () => {
    const verdict = newStockChecker().judge(
      row(2, ['A-1', '3', '1.234,567', ''], { sku: 'A-1', quantity: 3, price: 1234.567 }),
    );
    expect(verdict).toEqual({
      ok: false,
      problems: [
        {
          field: 'price',
          value: '1.234,567',
          message:
            'Property [price] with value [1.234,567] does not pass validation (price must have at most 2 decimals)',
        },
      ],
    });
  });

  it('keeps JSON values as they are (no cells to quote)', () => {
    const verdict = newStockChecker().judge({
      line: 1,
      values: { sku: 'A-1', quantity: -1 },
      original: {},
      problems: [],
    });
    expect(verdict.ok).toBe(false);
    expect(!verdict.ok && verdict.problems[0]?.value).toBe('-1');
  });

  it('finds a repeated SKU on rows invalid for another reason, in either order', () => {
    const checker = newStockChecker();
    const first = checker.judge(row(2, ['A-2', 'x', '', ''], { sku: 'A-2', quantity: 'x' }));
    const second = checker.judge(row(3, ['A-2', '4', 'abc', ''], { sku: 'A-2', quantity: 4, price: 'abc' }));
    const third = checker.judge(row(4, [' A-2 ', '5', '', ''], { sku: ' A-2 ', quantity: 5 }));
    expect(first.ok).toBe(false);
    expect(!second.ok && second.problems.map((problem) => problem.message)).toEqual([
      'Property [price] with value [abc] does not pass validation (price must be a number of 0 or more with at most 2 decimals, such as 1234,56)',
      'Property [sku] with value [A-2] does not pass validation (the same SKU is also on line 2 of this file)',
    ]);
    expect(!third.ok && third.problems.map((problem) => problem.message)).toEqual([
      'Property [sku] with value [ A-2 ] does not pass validation (the same SKU is also on line 2 of this file)',
    ]);
  });

  it("quotes the first line of a repeated SKU as its own cell writes it, once the file is read, not as the repeat's", () => {
    const checker = newStockChecker();
    checker.judge(row(2, [' A-4', '1', '', ''], { sku: 'A-4', quantity: 1 }));
    checker.judge(row(3, ['B-1', '1', '', ''], { sku: 'B-1', quantity: 1 }));
    checker.judge(row(4, ['A-4', '2', '', ''], { sku: 'A-4', quantity: 2 }));
    expect(checker.lateProblems().map(({ place, problem }) => [place.line, problem.value, problem.message])).toEqual([
      [
        2,
        ' A-4',
        'Property [sku] with value [ A-4] does not pass validation (the same SKU is also on line 4 of this file)',
      ],
    ]);
  });

  it('quotes the first of repeated JSON records as the value read (no cells to quote)', () => {
    const checker = newStockChecker();
    checker.judge({ line: 1, values: { sku: 'A-5', quantity: 1 }, original: {}, problems: [] });
    checker.judge({ line: 2, values: { sku: 'A-5', quantity: 2 }, original: {}, problems: [] });
    expect(checker.lateProblems().map(({ place, problem }) => [place.line, problem.value])).toEqual([[1, 'A-5']]);
  });

  it('quotes a SKU-and-warehouse key as composed', () => {
    const checker = newStockChecker();
    checker.judge(row(2, ['A-3', '1', '', 'CD-SP'], { sku: 'A-3', quantity: 1, warehouse: 'CD-SP' }));
    const repeat = checker.judge(row(3, ['A-3', '-1', '', 'CD-SP'], { sku: 'A-3', quantity: -1, warehouse: 'CD-SP' }));
    expect(!repeat.ok && repeat.problems.map((problem) => problem.message)).toContain(
      'Property [sku] with value [A-3 @ CD-SP] does not pass validation (the same SKU in this warehouse is also on line 2 of this file)',
    );
    // The first line is invalid too, once the file is read, quoted as composed.
    expect(checker.lateProblems().map(({ place, problem }) => [place.line, problem.message])).toEqual([
      [
        2,
        'Property [sku] with value [A-3 @ CD-SP] does not pass validation (the same SKU in this warehouse is also on line 3 of this file)',
      ],
    ]);
  });
});
