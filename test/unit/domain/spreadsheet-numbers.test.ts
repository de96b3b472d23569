import { describe, expect, it } from 'vitest';
import {
  isScientificNotation,
  isSpreadsheetExponent,
  spreadsheetExponentProblem,
} from '../../../src/domain/spreadsheet-numbers.js';
import { fieldProblem, withProblems } from '../../../src/domain/validation.js';
import { checkNfeAccessKey } from '../../../src/domain/nfe-key.js';
import { moveFieldProblems } from '../../../src/domain/order-stages.js';
import { trackingCodeProblem } from '../../../src/domain/tracking.js';

describe('numbers a spreadsheet wrote in scientific notation', () => {
  // As LibreOffice 7.4 exported samples/orders-update.csv after opening it with default column types, and as a
  // pt-BR Excel writes a 14-digit code in a "General" column.
  it.each(['4.3261000360305E+043', '1,00823E+13', '1E+13'])('%s is one, in any field', (text) => {
    expect(isScientificNotation(text)).toBe(true);
    expect(isSpreadsheetExponent(text)).toBe(true);
  });

  it.each(['12E45', '3E7', '1.5e+3x', 'SS123456785BR', '10082345678901'])(
    '%s may be a real code: not taken for one in free text',
    (text) => {
      expect(isSpreadsheetExponent(text)).toBe(false);
    },
  );

  it('an access key, a tracking code and an ERP order number each get the way out', () => {
    const reason = 'Excel showed this number in scientific notation; format the column as Text and export again';
    expect(checkNfeAccessKey('4.3261000360305E+043', Date.UTC(2026, 10, 25))).toEqual({ ok: false, reason });
    expect(trackingCodeProblem('1,00823E+13', 'Jadlog')).toBe(reason);
    expect(moveFieldProblems({ order: '301', action: 'ready', erpNumber: '2,02603E+11' })).toEqual([
      expect.objectContaining({ field: 'erpNumber', value: '2,02603E+11', message: expect.stringContaining(reason) }),
    ]);
    expect(moveFieldProblems({ order: '301', action: 'ready', erpNumber: 'PV-2026-0301' })).toEqual([]);
  });

  it('a code in it is a problem of its field; anything else, none', () => {
    const reason = 'Excel showed this number in scientific notation; format the column as Text and export again';
    expect(spreadsheetExponentProblem('sku', '7,89123E+12')).toEqual(fieldProblem('sku', '7,89123E+12', reason));
    for (const value of ['7891234567895', 'PAR-12E45', undefined, 7.89123e12])
      expect(spreadsheetExponentProblem('sku', value)).toBeUndefined();
  });

  it('a verdict with such problems is refused, its own problems first', () => {
    const extra = fieldProblem('sku', '1E+13', 'x');
    const own = fieldProblem('quantity', '-1', 'y');
    expect(withProblems({ ok: true, value: 1 }, [])).toEqual({ ok: true, value: 1 });
    expect(withProblems({ ok: true, value: 1 }, [extra])).toEqual({ ok: false, problems: [extra] });
    expect(withProblems({ ok: false, problems: [own] }, [extra])).toEqual({ ok: false, problems: [own, extra] });
  });
});
