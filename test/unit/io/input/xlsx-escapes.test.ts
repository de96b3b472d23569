/** Office Open XML's `_xHHHH_` escapes in a workbook's strings, read as Excel reads them. */
import { describe, expect, it } from 'vitest';
import { unescapedText } from '../../../../src/io/input/workbook-xlsx.js';

describe('unescapedText', () => {
  it.each([
    // Excel writes a cell's CR (of a CRLF typed or pasted into it) and a tab so.
    ['Casa 2_x000D_\nFundos', 'Casa 2\r\nFundos'],
    ['Apto_x0009_12', 'Apto\t12'],
    ['_x005f_x000D_', '_x000D_'],
    ['_x005F_x005F_', '_x005F_'],
    ['a_xyz_b', 'a_xyz_b'],
    ['SKU_X1', 'SKU_X1'],
    ['Rua das Flores', 'Rua das Flores'],
  ])('%j reads %j', (written, read) => {
    expect(unescapedText(written)).toBe(read);
  });
});
