/**
 * The scanner of a sheet's rows and of its shared strings, held to saxes (the reference) on random sheets: every
 * cell type, references present or not, formulas, entities and character references, rich text and phonetic
 * guides, comments, attributes in any order and with names that end like the ones read, cut into random chunks.
 */
import { describe, expect, it } from 'vitest';
import {
  OverlongXmlError,
  type RawRow,
  rowXmlBound,
  saxesSharedStrings,
  saxesSheetReader,
  SharedStringScanner,
  sheetXmlReader,
} from '../../../../src/io/input/workbook-xlsx-rows.js';
import { cutAnywhere, seededRandom } from '../../../support/seeded-text.js';

const fail = (error: Error): never => {
  throw error;
};

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** Text as a sheet escapes it: entities, character references, a line break, accents. */
function escapedText(next: () => number): string {
  const pieces = [
    'CD-SP',
    'Açúcar',
    ' 00123 ',
    '&amp;',
    '&lt;b&gt;',
    '&#10;',
    '&#x41;',
    '&quot;x&apos;',
    '\r\n',
    'ü',
    '12E45',
  ];
  return Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(next, pieces)).join('');
}

function attributes(next: () => number, pairs: [string, string][]): string {
  const extra: [string, string][] = [
    ['customFormat', 'false'],
    ['ht', '12.8'],
    ['cm', '1'],
    ['xr:uid', '{A}'],
    ['spans', '1:3'],
  ];
  const all = [...pairs, ...extra.filter(() => next() < 0.3)];
  for (let index = all.length - 1; index > 0; index--) {
    const swap = Math.floor(next() * (index + 1));
    [all[index], all[swap]] = [all[swap] as [string, string], all[index] as [string, string]];
  }
  return all.map(([name, value]) => ` ${name}=${next() < 0.8 ? `"${value}"` : `'${value}'`}`).join('');
}

const type = (t: string): [string, string][] => [['t', t]];

function randomCell(next: () => number, row: number, column: number): string {
  const reference: [string, string][] = next() < 0.8 ? [['r', `${String.fromCharCode(65 + column)}${row}`]] : [];
  const style: [string, string][] = next() < 0.5 ? [['s', String(Math.floor(next() * 5))]] : [];
  const kind = pick(next, ['s', 'n', 'none', 'str', 'inlineStr', 'b', 'e', 'empty', 'rich', 'comment'] as const);
  switch (kind) {
    case 's':
      return `<c${attributes(next, [...reference, ...style, ...type('s')])}><v>${Math.floor(next() * 100)}</v></c>`;
    case 'n':
      return `<c${attributes(next, [...reference, ...style, ...type('n')])}>${next() < 0.3 ? '<f aca="false">B2*2</f>' : ''}<v>${(next() * 10_000).toFixed(2)}</v></c>`;
    case 'none':
      return `<c${attributes(next, [...reference, ...style])}><v>${Math.floor(next() * 100)}</v></c>`;
    case 'str':
      return `<c${attributes(next, [...reference, ...type('str')])}><f>&quot;a&quot;&amp;B1</f><v>${escapedText(next)}</v></c>`;
    case 'inlineStr':
      return `<c${attributes(next, [...reference, ...type('inlineStr')])}><is><t xml:space="preserve">${escapedText(next)}</t></is></c>`;
    case 'rich':
      return `<c${attributes(next, [...reference, ...type('inlineStr')])}><is><r><rPr><b/><vertAlign val="baseline"/></rPr><t>${escapedText(next)}</t></r><r><t xml:space="preserve">${escapedText(next)}</t></r><rPh sb="0" eb="1"><t>ヨミ</t></rPh></is></c>`;
    case 'b':
      return `<c${attributes(next, [...reference, ...type('b')])}><v>${next() < 0.5 ? 1 : 0}</v></c>`;
    case 'e':
      return `<c${attributes(next, [...reference, ...type('e')])}><f>1/0</f><v>#DIV/0!</v></c>`;
    case 'empty':
      return next() < 0.5
        ? `<c${attributes(next, [...reference, ...style])}/>`
        : `<c${attributes(next, reference)}></c>`;
    case 'comment':
      return `<c${attributes(next, reference)}><!-- a note --><v>7</v></c>`;
  }
}

function randomSheet(next: () => number): string {
  const rows: string[] = [];
  for (let row = 1; row <= 40; row++) {
    const rowAttributes: [string, string][] = [
      ...(next() < 0.85 ? ([['r', String(row)]] as [string, string][]) : []),
      ...(next() < 0.2 ? ([['hidden', pick(next, ['1', 'true', 'false', '0'])]] as [string, string][]) : []),
    ];
    if (next() < 0.05) {
      rows.push(`<row${attributes(next, rowAttributes)}/>`);
      continue;
    }
    const cells = Array.from({ length: Math.floor(next() * 6) }, (_, column) => randomCell(next, row, column));
    rows.push(`<row${attributes(next, rowAttributes)}>${cells.join(next() < 0.2 ? '\n  ' : '')}</row>`);
  }
  const columns =
    next() < 0.5
      ? '<cols><col min="2" max="3" hidden="true" width="9"/><col min="5" max="5" hidden="false"/></cols>'
      : '';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:F40"/>${columns}<sheetData>${rows.join(next() < 0.3 ? '\n' : '')}</sheetData><mergeCells count="1"><mergeCell ref="A2:A4"/></mergeCells></worksheet>`;
}

function readAll(
  reader: { feed(text: string): RawRow[]; end(): RawRow[]; hiddenColumns: ReadonlySet<number> },
  chunks: string[],
) {
  const rows = chunks.flatMap((chunk) => reader.feed(chunk));
  rows.push(...reader.end());
  return { rows, hidden: [...reader.hiddenColumns].toSorted() };
}

describe('the sheet scanner reads what saxes reads', () => {
  it.each(Array.from({ length: 150 }, (_, index) => index + 1))('random sheet, seed %i', (seed) => {
    const next = seededRandom(seed);
    const sheet = randomSheet(next);
    const expected = readAll(saxesSheetReader(fail), [sheet]);
    const scanned = readAll(sheetXmlReader(fail), cutAnywhere(sheet, next, 200));
    expect(scanned).toEqual(expected);
    expect(expected.rows.length).toBe(40);
  });

  it('a prefixed sheet (<x:worksheet>) is read by saxes itself', () => {
    const sheet =
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>sku</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>';
    expect(readAll(sheetXmlReader(fail), [sheet]).rows).toEqual([
      { row: 1, hidden: false, cells: [{ column: 0, type: 'inlineStr', style: 0, value: 'sku', formula: false }] },
    ]);
  });
});

describe('the shared-string scanner reads what saxes reads', () => {
  it.each(Array.from({ length: 100 }, (_, index) => index + 1))('random strings, seed %i', (seed) => {
    const next = seededRandom(seed);
    const items = Array.from({ length: 30 }, () =>
      pick(next, [
        () => `<si><t>${escapedText(next)}</t></si>`,
        () => `<si><t xml:space="preserve">${escapedText(next)}</t></si>`,
        () => `<si><r><rPr><sz val="10"/></rPr><t>${escapedText(next)}</t></r><r><t>${escapedText(next)}</t></r></si>`,
        () => `<si><t>${escapedText(next)}</t><rPh sb="0" eb="1"><t>ヨミ</t></rPh><phoneticPr fontId="1"/></si>`,
        () => '<si><t/></si>',
        () => `<si><!-- note --><t>${escapedText(next)}</t></si>`,
      ])(),
    );
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="30" uniqueCount="30">${items.join(next() < 0.3 ? '\n' : '')}</sst>`;
    const reference = saxesSharedStrings(fail);
    const expected = [...reference.feed(xml), ...reference.end()];
    const scanner = new SharedStringScanner();
    const scanned = cutAnywhere(xml, next, 150).flatMap((chunk) => scanner.feed(chunk));
    expect(scanned).toEqual(expected);
    expect(expected).toHaveLength(30);
  });
});

// What each reader holds is bounded (a user test): a row, a cell or a shared string past the bound is refused as it grows,
// fed in chunks, naming where it started; never held to the end of a damaged stream.
/** What `feed` threw; undefined when it threw nothing. */
const refusal = (feed: () => unknown) => {
  try {
    feed();
  } catch (error) {
    return error;
  }
  return undefined;
};
const head = '<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row>';
const endless = (chunks: number) => Array.from({ length: chunks }, () => 'A'.repeat(1000));

describe('the bound on a row and on a shared string', () => {
  it('follows input.maxRowChars and maxColumns: 10 characters of XML a character, 200 a column', () => {
    expect(rowXmlBound({ maxRowChars: 200_000, maxColumns: 16_384 })).toBe(5_276_800);
  });

  it('the scanner: a row unfinished past the bound, by its row and its last cell; the rows before it are given', () => {
    const reader = sheetXmlReader(() => {
      throw new Error('not a parse error');
    }, 5_000);
    expect(reader.feed(head)).toHaveLength(1);
    reader.feed('<row r="2"><c r="E2" t="inlineStr"><is><t>');
    const error = refusal(() => endless(10).forEach((chunk) => reader.feed(chunk)));
    expect(error).toBeInstanceOf(OverlongXmlError);
    expect((error as OverlongXmlError).found).toEqual({ row: 2, column: 4 });
    expect((error as OverlongXmlError).length).toBeGreaterThan(5_000);
    expect((error as OverlongXmlError).length).toBeLessThan(7_000);
  });

  it('saxes (a prefixed sheet): a cell whose text grows past the bound', () => {
    const reader = saxesSheetReader(() => {
      throw new Error('not a parse error');
    }, 5_000);
    reader.feed('<x:worksheet xmlns:x="urn:x"><x:sheetData><x:row r="7"><x:c r="C7" t="inlineStr"><x:is><x:t>');
    const error = refusal(() => endless(10).forEach((chunk) => reader.feed(chunk)));
    expect((error as OverlongXmlError).found).toEqual({ row: 7, column: 2 });
  });

  it('the shared strings, scanned and by saxes: the string past the bound by its index (from 0)', () => {
    const scanner = new SharedStringScanner(5_000);
    expect(scanner.feed('<sst><si><t>one</t></si><si><t>two</t></si><si><t>')).toEqual(['one', 'two']);
    const scanned = refusal(() => endless(10).forEach((chunk) => scanner.feed(chunk)));
    expect((scanned as OverlongXmlError).found).toEqual({ sharedString: 2 });
    const parser = saxesSharedStrings(() => {
      throw new Error('not a parse error');
    }, 5_000);
    parser.feed('<sst><si><t>one</t></si><si><t>');
    const parsed = refusal(() => endless(10).forEach((chunk) => parser.feed(chunk)));
    expect((parsed as OverlongXmlError).found).toEqual({ sharedString: 1 });
  });

  it("a cell never closed inside its row is refused, not read again from the row's start", () => {
    const reader = sheetXmlReader((error) => {
      throw error;
    });
    expect(() => reader.feed(`${head}<row r="3"><c r="A3"><v>1</v></row></sheetData></worksheet>`)).toThrow(
      'row 3 holds a cell never closed',
    );
  });
});
