import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryKind, markupKind, workbookFormat } from '../../../../src/io/input/binary-kinds.js';

/** Workbooks LibreOffice saved (test/fixtures/libreoffice/README.md). */
const saved = (name: string) => readFileSync(join(__dirname, '../../../fixtures/libreoffice', name));

describe('binaryKind, on files real programs wrote', () => {
  it('names the old .xls with a conversion that works without Excel', () => {
    expect(binaryKind(saved('clientes-corrigido.xls'))).toMatch(
      /^this is an old Excel workbook \(\.xls\), which b2bctl does not read\. .*soffice --headless --convert-to xlsx FILE/,
    );
  });

  it.each([
    ['clientes-corrigido.xlsx', 'xlsx'],
    ['estoque.ods', 'ods'],
    ['clientes-corrigido.xls', undefined],
  ])('workbookFormat(%s) is %s', (name, format) => {
    expect(workbookFormat(saved(name))).toBe(format);
  });

  it('names nothing in the text LibreOffice writes as CSV', () => {
    expect(binaryKind(readFileSync(join(__dirname, '../../../fixtures/real-exports/estoque.win1252.csv')))).toBe(
      undefined,
    );
  });
});

describe('markupKind', () => {
  it.each([
    [
      'estoque.fods',
      /^this is a LibreOffice spreadsheet saved as flat XML \(\.fods\), which b2bctl does not read\. Save it as \.xlsx/,
    ],
    [
      'estoque.excel2003.xml',
      /^this is an Excel spreadsheet saved as XML \(2003\), which b2bctl does not read\. Save it as \.xlsx/,
    ],
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
