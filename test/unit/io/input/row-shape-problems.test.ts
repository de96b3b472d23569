/**
 * One check for "data in a column no header names", in CSV and workbooks alike: under an empty header cell, and (in a
 * workbook) right of the header's last cell. A CSV row longer than its header is the long row rule's (decision 0031).
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../src/base/errors.js';
import { unnamedColumnCheck } from '../../../../src/io/input/row-shape-problems.js';
import { cellReference } from '../../../../src/io/input/workbook-cells.js';

const headers = ['sku', '', 'quantity'];
const thrown = (check: () => void): unknown => {
  try {
    check();
  } catch (error) {
    return error;
  }
  return undefined;
};

/** How a workbook names a cell of its sheet "Estoque". */
const inSheet = (column: number, line: number) => cellReference('Estoque', column, line);

describe('unnamedColumnCheck', () => {
  it.each([
    ['a CSV', undefined],
    ['a workbook', inSheet],
  ] as const)('in %s, data under an empty header cell is refused naming the column', (_, pastHeaderEnd) => {
    const check = unnamedColumnCheck(headers, 'estoque.x', true, pastHeaderEnd);
    const error = thrown(() => check({ cells: ['A1', 'Bloco B apto 12', '5'], line: 4 }));
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      'estoque.x:4: column 2 (B) has no header but holds "Bloco B apto 12"; nothing was sent. Give the column a header (a field name, or one --map reads), or delete it.',
    );
  });

  it("in a workbook, a cell right of the header's last cell is refused naming the cell; an empty one is not", () => {
    const check = unnamedColumnCheck(['sku', 'quantity'], 'estoque.xlsx', false, inSheet);
    expect(() => check({ cells: ['A1', '5', '  ', ''], line: 2 })).not.toThrow();
    const error = thrown(() => check({ cells: ['A1', '5', '', '99,90'], line: 3 }));
    expect((error as InputError).message).toBe(
      'estoque.xlsx:3: cell Estoque!D3 holds "99,90" but column D has no header (the header ends at column B; a header merged over several columns names only the first). Give the column a header (a field name, or one --map reads), or clear the cell.',
    );
  });

  it('in a CSV, cells past the header are left to the long row rule (longRowProblem), which refuses them empty too', () => {
    const check = unnamedColumnCheck(['sku', 'quantity'], 'estoque.csv', true);
    expect(() => check({ cells: ['A1', '5', '99,90'], line: 3 })).not.toThrow();
  });
});
