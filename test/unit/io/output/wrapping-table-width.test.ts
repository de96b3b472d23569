/**
 * The wrapping table (`doctor`'s findings) pads and wraps each cell by the columns a terminal gives it, not by its
 * characters: a Chinese store name once pushed the columns after it to the right and made its row wrap across the
 * terminal. Checked on the rendered screen at 80 and 50 columns.
 */
import { describe, expect, it } from 'vitest';
import { renderWrappingTable, wrapCell, type WrappingColumn } from '../../../../src/io/output/fitted-layouts.js';
import { renderedScreen, screenColumnsOf, wrappedLineCount } from '../../../support/rendered-screen.js';

interface Row {
  name: string;
  detail: string;
}

const columns: WrappingColumn<Row>[] = [
  { header: 'NAME', value: (row) => row.name },
  { header: '>RESULT', value: () => '>ok' },
  { header: 'DETAIL', value: (row) => row.detail, wrap: true },
];

const rows: Row[] = [
  { name: 'Loja Área Não-Comercial', detail: 'answered 200 with the listing the platform documents' },
  { name: '销售经理 北京分店', detail: '北京分店的销售经理负责华北地区所有经销商的订单和库存同步工作' },
  { name: 'Représentante e\u0301 x', detail: 'ｆｕｌｌ－ｗｉｄｔｈ ｗｏｒｄｓ ａｎｄ ｍｏｒｅ ｏｆ ｔｈｅｍ ｈｅｒｅ' },
];

describe('a wrapping table with wide and combining characters', () => {
  for (const width of [80, 50]) {
    it(`starts every column at the same screen column and wraps no row across a ${width}-column terminal`, async () => {
      const table = renderWrappingTable(columns, rows, width) ?? '';
      const widest = 'Loja Área Não-Comercial'.length;
      // The header and each row's first line (the lines a detail wraps onto have no `>`).
      const starts = (await screenColumnsOf(table, width, '>')).filter((column) => column >= 0);
      expect(starts).toEqual([widest + 2, widest + 2, widest + 2, widest + 2]);
      expect(await wrappedLineCount(table, width)).toBe(0);
      // Every screen line within the terminal: the wrapped detail cells fill their column, never more.
      for (const line of await renderedScreen(table, width)) expect(line.length).toBeLessThanOrEqual(width);
    });
  }

  it('cuts a word of ideographs between whole characters, each line within the column', async () => {
    const lines = wrapCell('北京分店的销售经理负责华北地区', 9);
    expect(lines).toEqual(['北京分店', '的销售经', '理负责华', '北地区']);
    for (const line of lines) expect(await renderedScreen(line, 9)).toEqual([line]);
  });

  it('puts a character wider than the column on a line of its own instead of looping', () => {
    expect(wrapCell('北京', 1)).toEqual(['北', '京']);
  });
});
