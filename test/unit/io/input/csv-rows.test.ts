import { describe, expect, it } from 'vitest';
import { ExitCode, InputError } from '../../../../src/base/errors.js';
import { type CsvRow, readCsvRows } from '../../../../src/io/input/csv-rows.js';

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let index = 0; index < text.length; index += size) yield text.slice(index, index + size);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function rowsOf(text: string, options: { delimiter?: string; chunk?: number } = {}): Promise<CsvRow[]> {
  return collect<CsvRow>(
    readCsvRows(pieces(text, options.chunk ?? Math.max(1, text.length)), {
      delimiter: options.delimiter ?? ',',
      file: 'customers.csv',
    }),
  );
}

async function failureOf(text: string, options: { delimiter?: string; chunk?: number } = {}): Promise<InputError> {
  const error = await rowsOf(text, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InputError);
  return error as InputError;
}

describe('readCsvRows line numbers', () => {
  it.each<[string, string, string, number[]]>([
    ['LF', 'h1,h2\n1,2\n3,4\n', ',', [1, 2, 3]],
    ['CRLF', 'h1,h2\r\n1,2\r\n3,4\r\n', ',', [1, 2, 3]],
    ['no line end after the last record', 'h1,h2\r\n1,2\r\n3,4', ',', [1, 2, 3]],
    ['empty lines between records', 'h1,h2\r\n\r\n1,2\r\n\r\n\r\n3,4\r\n', ',', [1, 3, 6]],
    ['empty lines before the header', '\r\n\r\nh1,h2\r\n1,2\r\n', ',', [3, 4]],
    ['empty lines at the end', 'h1,h2\r\n1,2\r\n\r\n\r\n', ',', [1, 2]],
    [
      'a quoted field over two lines in a CRLF file',
      'name,note\r\nAna,"line one\r\nline two"\r\nBia,x\r\n',
      ',',
      [1, 2, 4],
    ],
    [
      'a quoted field over four lines with an empty line inside',
      'name;note\r\nAna;"one\r\n\r\nthree\r\nfour"\r\nBia;x\r\n',
      ';',
      [1, 2, 6],
    ],
    ['two multi-line fields in one record', 'a,b\r\n"1\r\n2","3\r\n4"\r\n5,6\r\n', ',', [1, 2, 5]],
    ['a multi-line field opening a record after empty lines', 'a\r\n\r\n"x\r\ny"\r\n\r\nz\r\n', ',', [1, 3, 6]],
    ['lone CR line ends', 'a,b\r1,2\r\r3,4\r', ',', [1, 2, 4]],
    ['a record of empty cells still counts', 'a,b\n,\n1,2\n', ',', [1, 2, 3]],
    ['a record of one space still counts', 'a\n \n1\n', ',', [1, 2, 3]],
    ['a quote inside an unquoted field', 'a,b\n5" tela,x\n1,2\n', ',', [1, 2, 3]],
    ['tab-separated', 'a\tb\r\n1\t"x\r\ny"\r\n2\t3\r\n', '\t', [1, 2, 4]],
  ])('%s', async (_name, text, delimiter, expected) => {
    for (const chunk of [text.length, 1, 2, 7]) {
      const lines = (await rowsOf(text, { delimiter, chunk })).map((row) => row.line);
      expect({ chunk, lines }).toEqual({ chunk, lines: expected });
    }
  });
});

describe('readCsvRows cells', () => {
  it.each<[string, string, string, string[][]]>([
    [
      'a quoted CRLF becomes LF inside the cell',
      'name,note\r\nAna,"line one\r\nline two"\r\n',
      ',',
      [
        ['name', 'note'],
        ['Ana', 'line one\nline two'],
      ],
    ],
    [
      'escaped quotes',
      'a,b\n"say ""oi""","x,y"\n',
      ',',
      [
        ['a', 'b'],
        ['say "oi"', 'x,y'],
      ],
    ],
    [
      'decimal commas with the semicolon delimiter',
      'sku;price\r\nA-1;1.234,56\r\n',
      ';',
      [
        ['sku', 'price'],
        ['A-1', '1.234,56'],
      ],
    ],
    [
      'a BOM is stripped from the first header',
      '\uFEFFdocument;name\r\n1;Ana\r\n',
      ';',
      [
        ['document', 'name'],
        ['1', 'Ana'],
      ],
    ],
    [
      'short and long rows are kept as they are',
      'a,b,c\n1\n1,2,3,4\n',
      ',',
      [['a', 'b', 'c'], ['1'], ['1', '2', '3', '4']],
    ],
    [
      'padding is kept (passwords must not be trimmed)',
      'a,b\n  x  , y\n',
      ',',
      [
        ['a', 'b'],
        ['  x  ', ' y'],
      ],
    ],
    [
      'accents',
      'nome;cidade\nJoão;São Paulo\n',
      ';',
      [
        ['nome', 'cidade'],
        ['João', 'São Paulo'],
      ],
    ],
  ])('%s', async (_name, text, delimiter, expected) => {
    expect((await rowsOf(text, { delimiter })).map((row) => row.cells)).toEqual(expected);
  });
});

describe('readCsvRows on a long file', () => {
  it('keeps line numbers right past the 8192 records it pairs at a time', async () => {
    const expected: { line: number; row: number; first: string }[] = [];
    let text = 'id,note\r\n';
    let line = 2;
    // The spreadsheet's row: a blank line is a row, a line break inside a quoted cell is not.
    let row = 2;
    for (let index = 1; index <= 20_000; index++) {
      if (index % 997 === 0) {
        text += '\r\n';
        line++;
        row++;
      }
      expected.push({ line, row, first: String(index) });
      if (index % 1500 === 0) {
        text += `${index},"two\r\nlines"\r\n`;
        line += 2;
      } else {
        text += `${index},x\r\n`;
        line++;
      }
      row++;
    }
    const rows = await rowsOf(text, { chunk: 4096 });
    expect(rows[0]).toEqual({ line: 1, row: 1, cells: ['id', 'note'] });
    const got = rows.slice(1).map((entry) => ({ line: entry.line, row: entry.row, first: entry.cells[0] }));
    expect(got.length).toBe(20_000);
    expect(got).toEqual(expected);
  });
});

describe('readCsvRows errors', () => {
  it.each<[string, string, string, number]>([
    ['opened on line 3 of a CRLF file with more lines after it', 'h1,h2\r\n1,2\r\n3,"never\r\n4,5\r\n6,7\r\n', ',', 3],
    [
      'opened on line 5 after a closed multi-line field',
      'h1;h2\r\n1;"a\r\nb"\r\n\r\n2;"never closed\r\n3;4\r\n',
      ';',
      5,
    ],
    ['opened on the header line', '"h1,h2\n1,2\n', ',', 1],
    ['an escaped quote at the end of the field', 'h1,h2\n1,2\n3,"x""\n', ',', 3],
  ])('an unterminated quote %s names that line', async (_name, text, delimiter, line) => {
    for (const chunk of [text.length, 1, 3]) {
      const error = await failureOf(text, { delimiter, chunk });
      expect(error.message).toBe(
        `customers.csv:${line}: a quoted field opens on this line and is never closed. Close the quote (a quote inside a quoted field is written "").`,
      );
      expect(error.line).toBe(line);
      expect(error.file).toBe('customers.csv');
      expect(error.exitCode).toBe(ExitCode.dataInvalid);
    }
  });

  it('an InputError from the text source (bad UTF-8 further down) comes out as it is', async () => {
    const failure = new InputError(
      'customers.csv: not valid UTF-8 (after byte 11). If it was saved by Excel as plain "CSV", pass --encoding windows-1252.',
      { file: 'customers.csv' },
    );
    async function* text(): AsyncGenerator<string> {
      yield 'a,b\r\n1,2\r\n';
      throw failure;
    }
    const error = await collect(readCsvRows(text(), { delimiter: ',', file: 'customers.csv' })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBe(failure);
  });
});
