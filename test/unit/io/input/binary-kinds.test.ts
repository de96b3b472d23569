import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryKind, markupKind } from '../../../../src/io/input/binary-kinds.js';

/** Workbooks LibreOffice saved (test/fixtures/libreoffice/README.md). */
const saved = (name: string) => readFileSync(join(__dirname, '../../../fixtures/libreoffice', name));

describe('binaryKind, on files real programs wrote', () => {
  it.each([
    ['clientes-corrigido.xlsx', /^this is an Excel workbook \(\.xlsx\)/],
    ['estoque.ods', /^this is a LibreOffice spreadsheet \(\.ods\)/],
    ['clientes-corrigido.xls', /^this is an old Excel workbook \(\.xls\)/],
  ])('%s', (name, kind) => {
    expect(binaryKind(saved(name))).toMatch(kind);
  });

  it('names nothing in the text LibreOffice writes as CSV', () => {
    expect(binaryKind(readFileSync(join(__dirname, '../../../fixtures/real-exports/estoque.win1252.csv')))).toBe(
      undefined,
    );
  });
});

describe('markupKind', () => {
  it.each([
    ['estoque.fods', /^this is a LibreOffice spreadsheet saved as flat XML \(\.fods\), not CSV\. In LibreOffice Calc/],
    ['estoque.excel2003.xml', /^this is an Excel spreadsheet saved as XML, not CSV\. In Excel choose/],
    ['clientes-corrigido.html', /^this is a web page \(HTML\), not CSV/],
  ])('%s, as LibreOffice saved it', (name, kind) => {
    expect(markupKind(saved(name).toString('utf8'))).toMatch(kind);
  });

  it.each<[string, string, RegExp]>([
    ['an NF-e passed instead of a CSV', '<?xml version="1.0"?><nfeProc versao="4.00">', /^this is an XML document/],
    ['a captive portal page saved under a .csv name', '\uFEFF\r\n<HTML><HEAD><TITLE>Login', /web page \(HTML\)/],
  ])('%s', (_name, text, kind) => {
    expect(markupKind(text)).toMatch(kind);
  });

  it.each([
    ['a header whose first cell starts with <', '<sku>;quantity\r\nA;1\r\n'],
    ['a CSV', 'sku;quantity\r\nA;1\r\n'],
    ['JSON', '[{"sku":"A"}]'],
  ])('names nothing in %s', (_name, text) => {
    expect(markupKind(text)).toBeUndefined();
  });
});
