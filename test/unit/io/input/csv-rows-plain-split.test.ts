import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { cutAnywhere, seededRandom } from '../../../support/seeded-text.js';
import { InputError } from '../../../../src/base/errors.js';
import { type CsvRow, readCsvRows } from '../../../../src/io/input/csv-rows.js';
import { RecordStretches } from '../../../../src/io/input/csv/record-stretches.js';
import { PieceSplitter } from '../../../../src/io/input/csv/piece-split.js';
import { splitPlainRecords } from '../../../../src/io/input/csv/plain-split.js';
import { defaultRowBounds } from '../../../../src/io/input/row-bounds.js';

// The reader splits records without quotes itself and hands the rest to csv-parse. Whatever the text and however it
// is cut, the rows must be csv-parse's rows of the whole text, with b2bctl's options.

async function* pieces(chunks: readonly string[]): AsyncGenerator<string> {
  for (const chunk of chunks) yield chunk;
}

async function rowsOf(chunks: readonly string[], delimiter: string): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  for await (const row of readCsvRows(pieces(chunks), { delimiter, file: 'stock.csv' })) rows.push(row);
  return rows;
}

function csvParseRows(text: string, delimiter: string): string[][] {
  return parse(text.replaceAll('\r\n', '\n').replaceAll('\r', '\n'), {
    delimiter,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
  }) as string[][];
}

/** Plain, empty, blank, accented, quoted (with `""`, delimiters and line breaks inside) cells, blank lines, CRLF. */
function csvText(next: () => number, delimiter: string, quoteFree = false): string {
  const cells = [
    'SKU-1',
    '',
    ' ',
    '12,5',
    'São Paulo',
    '😀',
    `"a${delimiter}b"`,
    '"say ""hi"""',
    '"two\nlines"',
    '"three\r\nlines\n"',
    'x"y',
    '\uFEFFmid',
    '""',
    '""""',
    '"ends in a quote"""',
    ' "after a space"',
    'a"b',
  ];
  let text = next() < 0.2 ? '\uFEFF' : '';
  const rows = 1 + Math.floor(next() * 40);
  for (let row = 0; row < rows; row++) {
    if (next() < 0.1) text += next() < 0.5 ? '\n' : '\r\n';
    const width = 1 + Math.floor(next() * 5);
    const parts: string[] = [];
    for (let cell = 0; cell < width; cell++) parts.push(cells[Math.floor(next() * cells.length)] as string);
    // Most rows plain: the quoted ones come in runs, as in a customer file with a few addresses quoted.
    // A quote-free text (no quote, no surrogate pair) is split by b2bctl alone, whole or cut.
    const plain = quoteFree || next() < 0.6;
    const kept = quoteFree ? parts.filter((part) => !part.includes('"') && part !== '😀') : parts;
    text += (plain ? kept.filter((part) => !part.includes('"')) : kept).join(delimiter);
    if (row < rows - 1 || next() < 0.7) text += next() < 0.15 ? '\r\n' : '\n';
  }
  return text;
}

const realExports = fileURLToPath(new URL('../../../fixtures/real-exports', import.meta.url));

/** The encoding a real export's name says it was saved in. */
const encodingOf = (name: string) =>
  name.includes('win1252')
    ? 'win1252'
    : name.includes('cp850')
      ? 'cp850'
      : name.includes('macroman')
        ? 'macintosh'
        : name.includes('utf16')
          ? 'utf16le'
          : 'utf8';
describe('CSV rows split without csv-parse', () => {
  it.each([',', ';', '\t'])(
    'are csv-parse rows of the whole text, however it is cut (delimiter %j)',
    async (delimiter) => {
      for (let seed = 1; seed <= 150; seed++) {
        const next = seededRandom(seed);
        const text = csvText(next, delimiter, seed % 2 === 0);
        const expected = csvParseRows(text, delimiter);
        const whole = await rowsOf([text], delimiter);
        const chunked = await rowsOf(cutAnywhere(text, next, 40), delimiter);
        expect({ seed, cells: whole.map((row) => row.cells) }).toEqual({ seed, cells: expected });
        expect({ seed, rows: chunked }).toEqual({ seed, rows: whole });
      }
    },
  );

  // What LibreOffice and Excel wrote (test/fixtures/real-exports: CRLF, `;;;;` rows, a cell with a line break,
  // `sep=;`, tabs, BOM), not only what the generator above thought of.
  it.each(readdirSync(realExports).filter((name) => name !== 'README.md'))(
    'are csv-parse rows of the real export %s, however it is cut',
    async (name) => {
      const text = iconv.decode(readFileSync(join(realExports, name)), encodingOf(name)).replace(/^\uFEFF/, '');
      const delimiter = name.endsWith('.txt') ? '\t' : ';';
      const expected = csvParseRows(text, delimiter);
      expect(expected.length).toBeGreaterThan(3);
      for (const largest of [7, 64, text.length]) {
        const rows = await rowsOf(cutAnywhere(text, seededRandom(largest), largest), delimiter);
        expect({ largest, cells: rows.map((row) => row.cells) }).toEqual({ largest, cells: expected });
      }
    },
  );

  it('leaves to csv-parse what it must read itself', () => {
    expect(splitPlainRecords('a,b\n1,2\n', ',')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(splitPlainRecords('a,"b""c",5" x\n"d\ne",\n""\n', ',')).toEqual([['a', 'b"c', '5" x'], ['d\ne', ''], ['']]);
    // Text after a closing quote, a quote never closed: csv-parse's reading, which the reader then refuses.
    expect(splitPlainRecords('a,"b"x\n', ',')).toBeUndefined();
    expect(splitPlainRecords('a,"b\n', ',')).toBeUndefined();
    expect(splitPlainRecords('a,\uD800\n', ',')).toBeUndefined();
    // A long quoted cell is cut by native searches; a long walk outside quotes goes to csv-parse, in slices.
    expect(splitPlainRecords(`a,"${'x'.repeat(60_000)}"\n`, ',')?.[0]?.[1]).toHaveLength(60_000);
    expect(splitPlainRecords(`"a",${'x'.repeat(60_000)}\n`, ',')).toBeUndefined();
    expect(splitPlainRecords(`a,${'x'.repeat(60_000)}\n`, ',')).toBeUndefined();
    expect(splitPlainRecords('a||b\n', '||')).toBeUndefined();
  });

  it('numbers lines as before across plain and quoted stretches', async () => {
    const text = 'sku,note\nA,1\n\nB,"two\nlines"\nC,3\r\nD,4';
    for (const size of [1, 2, 3, 5, 8, text.length]) {
      const chunks = cutAnywhere(text, () => (size - 1) / 40, 40);
      const rows = await rowsOf(chunks, ',');
      expect(rows.map(({ line, row }) => [line, row])).toEqual([
        [1, 1],
        [2, 2],
        [4, 4],
        [6, 5],
        [7, 6],
      ]);
    }
  });

  it('stops a record longer than any row at its line, measuring at most 64 Mi characters of it', async () => {
    let produced = 0;
    async function* endless(): AsyncGenerator<string> {
      yield 'sku,quantity\nA,1\n';
      for (;;) {
        produced++;
        yield 'x'.repeat(32 * 1024);
      }
    }
    const rows = readCsvRows(endless(), { delimiter: ',', file: 'page.csv' });
    const error = await (async () => {
      for await (const row of rows) void row;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(
      /^page\.csv:3: a row of more than 67,1\d\d,\d\d\d characters \(its end was not found\), more than the 200,000 the input\.maxRowChars setting allows; its cell in column 1 \(A\) holds at least 67,1\d\d,\d\d\d characters\./,
    );
    // Measured to a bound, never held: an endless row stops after 64 Mi characters of it.
    expect(produced).toBeLessThan(2100);
  });
});

/** What the piece splitter makes of the text fed in these pieces. */
function splitInPieces(chunks: readonly string[], delimiter: string, longestLine: number): string[][] | undefined {
  const splitter = new PieceSplitter(delimiter.charCodeAt(0), longestLine);
  for (const chunk of chunks) splitter.feed(chunk);
  return splitter.rows();
}

/** A quoted cell of about `size` characters: accents, `""`, delimiters and line breaks, as a pasted description. */
function longQuotedCell(size: number, delimiter: string): string {
  const line = `Açúcar refinado São João${delimiter} fardo com 6; ""extra"" – linha\n`;
  return `"${line.repeat(Math.ceil(size / line.length))}"`;
}

describe('CSV records split piece by piece as they come', () => {
  it.each([',', ';', '\t'])(
    'are what the whole-text splitter makes of the text, however it is cut (delimiter %j)',
    (delimiter) => {
      let splitTexts = 0;
      for (let seed = 1; seed <= 300; seed++) {
        const next = seededRandom(seed);
        // The splitter's text: line ends normalized and the byte order mark taken off before it.
        const text = csvText(next, delimiter)
          .replaceAll('\r\n', '\n')
          .replaceAll('\r', '\n')
          .replace(/^\uFEFF/, '');
        // A small bound on the characters outside quotes, for some seeds: records past it go to csv-parse.
        const longestLine = seed % 3 === 0 ? 12 : 50_000;
        const whole = splitPlainRecords(text, delimiter, longestLine, true, Number.POSITIVE_INFINITY);
        for (const largest of [1, 3, 17, text.length]) {
          const split = splitInPieces(cutAnywhere(text, next, largest), delimiter, longestLine);
          expect({ seed, largest, rows: split }).toEqual({ seed, largest, rows: whole });
        }
        // What is split (not left to csv-parse) is csv-parse's reading.
        const expected = whole === undefined ? undefined : csvParseRows(text, delimiter);
        expect({ seed, rows: whole }).toEqual({ seed, rows: expected });
        if (whole !== undefined) splitTexts++;
      }
      expect(splitTexts).toBeGreaterThan(150);
    },
  );

  // What LibreOffice and Excel wrote (a cell with a line break, `;;;;` rows, tabs), not only what the generator made.
  it.each(readdirSync(realExports).filter((name) => name !== 'README.md'))(
    'are csv-parse rows of the real export %s, however it is cut',
    (name) => {
      const text = iconv
        .decode(readFileSync(join(realExports, name)), encodingOf(name))
        .replace(/^\uFEFF/, '')
        .replaceAll('\r\n', '\n')
        .replaceAll('\r', '\n');
      const delimiter = name.endsWith('.txt') ? '\t' : ';';
      const expected = csvParseRows(text, delimiter);
      for (const largest of [1, 7, 64, text.length]) {
        const rows = splitInPieces(cutAnywhere(text, seededRandom(largest), largest), delimiter, 50_000);
        expect({ largest, rows }).toEqual({ largest, rows: expected });
      }
    },
  );

  it('leave to csv-parse what the whole-text splitter leaves to it, a quote split between two pieces or not', () => {
    // Text after a closing quote; a quote never closed; a closing quote then text in the next piece.
    expect(splitInPieces(['a,"b"', 'x\n'], ',', 100)).toBeUndefined();
    expect(splitInPieces(['a,"b', '\nc\n'], ',', 100)).toBeUndefined();
    expect(splitInPieces(['a,"b"', '"', 'c"\n'], ',', 100)).toEqual([['a', 'b"c']]);
    expect(splitInPieces(['a,"b"', '', ',c\n'], ',', 100)).toEqual([['a', 'b', 'c']]);
    expect(splitInPieces(['a,"b"'], ',', 100)).toEqual([['a', 'b']]);
    // Outside quotes a record may hold `longestLine` characters; inside them, any number.
    expect(splitInPieces(['abcdef', 'ghij\n'], ',', 9)).toBeUndefined();
    expect(splitInPieces(['"abcdef', 'ghij"\n'], ',', 9)).toEqual([['abcdefghij']]);
  });

  it('split a record past a megabyte as it comes, and keep its text for csv-parse when they cannot', () => {
    const cell = longQuotedCell(1_500_000, ';');
    const split = new RecordStretches(';', 50_000);
    for (const chunk of cutAnywhere(`A;${cell}`, seededRandom(7), 65_536)) split.add(chunk, true);
    const records = split.end(';5\nB;6\n', true);
    expect(records.rows).toEqual(csvParseRows(`A;${cell};5\nB;6\n`, ';'));
    expect(records.length).toBe(`A;${cell};5\nB;6\n`.length);

    const refused = new RecordStretches(';', 50_000);
    for (const chunk of cutAnywhere(`A;${cell}`, seededRandom(8), 65_536)) refused.add(chunk, true);
    const after = refused.end('x;5\n', true);
    expect(after.rows).toBeUndefined();
    expect(after.text()).toBe(`A;${cell}x;5\n`);

    // A lone surrogate: csv-parse reads it (as U+FFFD), not the splitter.
    const lone = new RecordStretches(';', 50_000);
    lone.add(`A;${cell.slice(0, -1)}`, true);
    lone.add('\uD800"', false);
    expect(lone.end(';5\n', true).rows).toBeUndefined();
  });

  it('give the rows and lines csv-parse gives a file with a cell of megabytes, however the file is cut', async () => {
    const cell = longQuotedCell(2_500_000, ';');
    const text = `sku;quantity;descrição\nACU-1;12;${cell}\nACU-2;3;"curta"\r\nACU-3;4;x\n`;
    const bounds = { ...defaultRowBounds, maxRowChars: 2 * text.length };
    const expected = csvParseRows(text, ';');
    const cellLines = cell.split('\n').length - 1;
    for (const largest of [4_096, 65_536, 1_000_000]) {
      const rows: CsvRow[] = [];
      const chunks = cutAnywhere(text, seededRandom(largest), largest);
      for await (const row of readCsvRows(pieces(chunks), { delimiter: ';', file: 'estoque.csv', bounds }))
        rows.push(row);
      expect(rows.map((row) => row.cells)).toEqual(expected);
      expect(rows.map(({ line, row }) => [line, row])).toEqual([
        [1, 1],
        [2, 2],
        [3 + cellLines, 3],
        [4 + cellLines, 4],
      ]);
    }
  });

  it('refuse a long record with text after a closing quote, at its line, as for a short one', async () => {
    const cell = longQuotedCell(1_200_000, ';');
    const text = `sku;quantity;nota\nA;1;${cell}x\nB;2;y\n`;
    const bounds = { ...defaultRowBounds, maxRowChars: 2 * text.length };
    const error = await (async () => {
      for await (const row of readCsvRows(pieces(cutAnywhere(text, seededRandom(3), 65_536)), {
        delimiter: ';',
        file: 'estoque.csv',
        bounds,
      }))
        void row;
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    // The line of the closing quote, past the cell's line breaks.
    const closingLine = 2 + cell.split('\n').length - 1;
    expect((error as InputError).message).toMatch(
      new RegExp(`^estoque\\.csv:${closingLine}: text follows the closing quote of a quoted cell`),
    );
  });
});
