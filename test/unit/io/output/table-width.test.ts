/**
 * `-o table` pads each cell to the columns a terminal gives it, not to its characters: a Chinese name (each
 * ideograph two columns wide) once pushed every column after it to the right. Checked on the rendered screen.
 */
import { describe, expect, it } from 'vitest';
import { renderTable, type TableColumn } from '../../../../src/io/output/table.js';
import { renderedScreen, screenColumnsOf } from '../../../support/rendered-screen.js';

const columns: TableColumn<string>[] = [
  { header: 'PROFILE', value: (name) => name },
  { header: '>RESTRICTED', value: () => '>no' },
  { header: 'END', value: () => '|' },
];

// Wide (ideographs, full-width forms), accented and combining: what the headless terminal measures as a
// terminal does (it knows Unicode 6 widths, so emoji are checked on the text below).
const names = [
  'Gerente de Área Não-Comercial',
  '销售经理 北京',
  'Représentante e\u0301 combining',
  'ｆｕｌｌ－ｗｉｄｔｈ',
];

describe('a table with wide and combining characters', () => {
  it('starts every column at the same screen column on every row', async () => {
    const table = await renderTable(columns, names, { color: false });
    const widest = 'Gerente de Área Não-Comercial'.length;
    expect(await screenColumnsOf(table, 120, '>')).toEqual([
      widest + 2,
      widest + 2,
      widest + 2,
      widest + 2,
      widest + 2,
    ]);
    // The header row has no `|`.
    expect(await screenColumnsOf(table, 120, '|')).toEqual([-1, widest + 15, widest + 15, widest + 15, widest + 15]);
  });

  it('cuts a wide name to the columns left, never half an ideograph, and keeps the rows aligned', async () => {
    const table = await renderTable(columns, names, { color: false, maxWidth: 29 });
    expect(await renderedScreen(table, 29)).toEqual([
      'PROFILE      >RESTRICTED  END',
      'Gerente de…  >no          |',
      // 北 would take the 10th and 11th columns: the cut stops before it, and one space makes up the column.
      '销售经理 …   >no          |',
      'Représenta…  >no          |',
      'ｆｕｌｌ－…  >no          |',
    ]);
  });

  it('counts an emoji and a flag as two columns, as terminals since Unicode 9 draw them', async () => {
    const table = await renderTable(columns, ['Vendedor 😀🚀 Ñandú', 'Equipe 🇧🇷 ok', 'Plain name of 19 cl'], {
      color: false,
    });
    expect(table.split('\n').map((line) => line.slice(0, line.indexOf('>')))).toEqual([
      'PROFILE              ',
      'Vendedor 😀🚀 Ñandú  ',
      'Equipe 🇧🇷 ok         ',
      'Plain name of 19 cl  ',
      '',
    ]);
  });
});
