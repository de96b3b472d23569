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

describe('a table on a terminal too narrow for its columns even cut', () => {
  const kept: TableColumn<string>[] = [
    { header: 'NAME', value: (name) => name },
    { header: 'PERMISSIONS', value: () => 'F-RDA--S---' },
  ];

  it('draws each row as a block of whole values, under their own column, a blank line between two (a user test)', async () => {
    // NAME at its narrowest (6), two spaces and PERMISSIONS (11) need 19 columns: at 18 every row would wrap.
    const table = await renderTable(kept, ['销售经理 北京分店', 'Ana'], { color: false, maxWidth: 18 });
    // 18 columns leave the values too little room beside PERMISSIONS: each header on its line, its value below.
    expect(await renderedScreen(table, 18)).toEqual([
      'NAME',
      '  销售经理',
      '  北京分店',
      'PERMISSIONS',
      '  F-RDA--S---',
      '',
      'NAME',
      '  Ana',
      'PERMISSIONS',
      '  F-RDA--S---',
    ]);
  });

  it('a table of no row draws nothing: a header alone would be the one block, and it says nothing', async () => {
    // Without rows NAME is as wide as its header: 17 columns fit the header, 16 do not.
    expect(await renderTable(kept, [], { color: false, maxWidth: 16 })).toBe('');
    expect(await renderTable(kept, [], { color: false, maxWidth: 17 })).toBe('NAME  PERMISSIONS\n');
  });
});
