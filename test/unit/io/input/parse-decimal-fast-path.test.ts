/**
 * parseDecimal reads plain cells (`123`, `-5`, `1186,71`) without regular expressions (issue 14); the
 * rules as they were written with them are the reference, and every cell below must read the same.
 */
import { describe, expect, it } from 'vitest';
import { type DecimalSeparator, parseDecimal } from '../../../../src/io/input/cell-values.js';

/** parseDecimal before its fast path. */
function referenceDecimal(text: string, decimal: DecimalSeparator): number | undefined {
  const value = text.trim();
  if (value.replace(/^[+-]?[0.,]*/, '').replace(/\D/g, '').length > 15) return undefined;
  if (decimal === ',') {
    // A thousands group never starts with 0 (`0.500` is half in a decimal-point export, never 500).
    if (!/^[+-]?([1-9]\d{0,2}(\.\d{3})+|\d+)(,\d+)?$/.test(value)) return undefined;
    return Number(value.replaceAll('.', '').replace(',', '.'));
  }
  if (!/^[+-]?\d+(\.\d+)?$/.test(value)) return undefined;
  return Number(value);
}

const pieces = ['', '0', '7', '00', '123', '1186', '999999999999999', '1234567890123456', '0000000000000000001'];
const cells: string[] = [];
for (const sign of ['', '+', '-', '--'])
  for (const whole of pieces)
    for (const separator of ['', ',', '.', ',,', '.,'])
      for (const fraction of ['', '5', '71', '999', 'x', '1.5'])
        cells.push(`${sign}${whole}${separator}${fraction}`, ` ${sign}${whole}${separator}${fraction}\t`);
cells.push('1.234,56', '1.234.567,8', '12.34', '1,234.56', 'abc', '1e5', 'Infinity', '0x10', '١٢٣', '1 000');

describe('parseDecimal reads every cell as its reference rules do', () => {
  for (const decimal of [',', '.'] as const) {
    it(`with the decimal "${decimal}" (${cells.length} cells)`, () => {
      for (const cell of cells)
        expect([cell, parseDecimal(cell, decimal)]).toEqual([cell, referenceDecimal(cell, decimal)]);
    });
  }
});
