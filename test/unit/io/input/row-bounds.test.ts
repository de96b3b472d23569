import { describe, expect, it } from 'vitest';
import { InputError, InterruptedError } from '../../../../src/base/errors.js';
import { type CsvRow, readCsvRows } from '../../../../src/io/input/csv-rows.js';
import { ColumnCounter, longRowMessage, longRowShape } from '../../../../src/io/input/row-bounds.js';
import { splitPlainRecords } from '../../../../src/io/input/csv/plain-split.js';

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let index = 0; index < text.length; index += size) yield text.slice(index, index + size);
}

async function rowsOf(
  text: string,
  options: { chunk?: number; maxColumns?: number; maxRowChars?: number; interrupt?: AbortSignal } = {},
): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  for await (const row of readCsvRows(pieces(text, options.chunk ?? Math.max(1, text.length)), {
    delimiter: ';',
    file: 'in.csv',
    bounds: { maxColumns: options.maxColumns ?? 16_384, maxRowChars: options.maxRowChars ?? 200_000 },
    interrupt: options.interrupt,
  }))
    rows.push(row);
  return rows;
}

async function failureOf(text: string, options: Parameters<typeof rowsOf>[1] = {}): Promise<Error> {
  const error = await rowsOf(text, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** Feeding `text` to a fresh counter, as a function for toThrow. */
function counted(text: string, maxColumns: number, firstLine = 1): () => void {
  return () => new ColumnCounter(';', maxColumns, firstLine, 'in.csv').feed(text);
}

describe('ColumnCounter', () => {
  it.each([
    ['a row at the bound', 'a;b;c\n', 3],
    ['delimiters inside quotes', '"a;b;c;d";e\n', 2],
    ['a quoted line break', '"a\nb;c;d";e\n', 2],
    ['rows each at the bound', 'a;b\nc;d\n;\n', 2],
  ])('lets %s through', (_name, text, maxColumns) => {
    expect(counted(text, maxColumns)).not.toThrow();
  });

  it('refuses the first row past the bound, naming its line and its count in the text at hand', () => {
    const error = (() => {
      try {
        counted('a;b\nc;d\n\n;;;;;\n;', 3, 10)();
      } catch (caught) {
        return caught as InputError;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect(error?.exitCode).toBe(65);
    expect(error?.message).toBe(
      'in.csv:13: a row of at least 6 columns, more than the 3 the input.maxColumns setting allows. Check the delimiter (--delimiter); if the file really has that many columns, raise the setting to at least that count: b2bctl config set input.maxColumns NUMBER.',
    );
  });

  it('counts across pieces fed one at a time', () => {
    const counter = new ColumnCounter(';', 3, 1, 'in.csv');
    counter.feed('a;b');
    counter.feed(';c');
    expect(() => counter.feed(';d')).toThrow(/in\.csv:1: a row of at least 4 columns/);
  });
});

describe('longRowShape and longRowMessage', () => {
  it.each([
    ['a long cell', `a;${'x'.repeat(500)};b\nnext`, { longestCell: 500, columns: 3, whole: true }],
    ['many short cells', 'a;b;c;d', { longestCell: 1, columns: 4, whole: false }],
    ['a quoted delimiter', '"a;b";c\n', { longestCell: 5, columns: 2, whole: true }],
  ])('%s', (_name, text, shape) => {
    expect(longRowShape(text, ';')).toEqual(shape);
  });

  it('names a cell, or the columns, and the setting; an HTML page as one', () => {
    expect(longRowMessage(`a;${'x'.repeat(900)}\n`, ';', 1000)).toBe(
      'a row of more than 1,000 characters (a cell of 900 characters), more than the input.maxRowChars setting allows. If the row is meant to be this long, raise the setting above its length: b2bctl config set input.maxRowChars NUMBER.',
    );
    expect(longRowMessage(`${'ab;'.repeat(600)}`, ';', 1000)).toContain('(at least 601 columns)');
    expect(longRowMessage(`  <!DOCTYPE html><html>${'<p>x</p>'.repeat(200)}`, ';', 1000)).toBe(
      'a row of more than 1,000 characters; this is not a spreadsheet export (an HTML page saved as .csv?). Export the data as CSV.',
    );
    expect(longRowMessage(`<b>bold</b> text;${'x'.repeat(900)}`, ';', 1000)).toContain('a cell of at least 900');
  });
});

describe('readCsvRows within its bounds', () => {
  it('a row past input.maxColumns, plain or quoted, in one piece or many, is refused with its line', async () => {
    for (const chunk of [1, 7, 1000]) {
      const plain = await failureOf('a;b;c\n1;2;3\n1;2;3;4\n', { maxColumns: 3, chunk });
      expect(plain.message).toMatch(/^in\.csv:3: a row of (at least )?4 columns, more than the 3/);
      const quoted = await failureOf('a;b;c\n"1";2;3;4\n', { maxColumns: 3, chunk });
      expect(quoted.message).toMatch(/^in\.csv:2: a row of (at least )?4 columns, more than the 3/);
    }
  });

  it('a row still arriving is refused before its end: no row is made of it', async () => {
    const error = await failureOf(`a;b\n${';'.repeat(100_000)}`, { maxColumns: 1000, chunk: 4096 });
    expect(error.message).toMatch(/^in\.csv:2: a row of at least [\d,]+ columns, more than the 1,000/);
  });

  it('input.maxRowChars: a longer row is refused naming its cell; a raised bound reads it', async () => {
    const text = `a;b\n1;${'x'.repeat(5000)}\n`;
    const error = await failureOf(text, { maxRowChars: 1000 });
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      'in.csv:2: a row of 5,002 characters, more than the 1,000 the input.maxRowChars setting allows; its cell in column 2 (B) holds 5,000 characters. If the row is meant to be this long, raise the setting to at least its length: b2bctl config set input.maxRowChars 5002.',
    );
    const rows = await rowsOf(text, { maxRowChars: 10_000 });
    expect(rows.map((row) => row.cells[1]?.length)).toEqual([1, 5000]);
  });

  it('a stretch longer than the splitter takes (16 Mi characters by default) is left to csv-parse', () => {
    const text = 'a;b\n"x""y\nz";1\n';
    expect(splitPlainRecords(text, ';')).toEqual([
      ['a', 'b'],
      ['x"y\nz', '1'],
    ]);
    expect(splitPlainRecords(text, ';', undefined, false, text.length - 1)).toBeUndefined();
  });

  it('a row of more than a slice is parsed in slices, to the same cells', async () => {
    const long = `"${'é'.repeat(700_000)}😀${'y'.repeat(700_000)}";z`;
    const rows = await rowsOf(`a;b\n${long}\n1;2\n`, { maxRowChars: 10_000_000 });
    expect(rows.map((row) => row.line)).toEqual([1, 2, 3]);
    expect(rows[1]?.cells[0]).toBe(`${'é'.repeat(700_000)}😀${'y'.repeat(700_000)}`);
    expect(rows[1]?.cells[1]).toBe('z');
  });

  it('an interrupt during the sliced parse stops it with an InterruptedError', async () => {
    const controller = new AbortController();
    // A long walk character by character outside quotes is csv-parse's, in slices.
    const text = `${'x'.repeat(3_000_000)};z\n`;
    const reading = rowsOf(text, { maxRowChars: 10_000_000, interrupt: controller.signal });
    setImmediate(() => controller.abort('SIGTERM'));
    const error = await reading.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).message).toBe('in.csv: interrupted while reading the rows from line 1.');
  });
});

describe('input.maxRowChars counts characters, in the unit users see', () => {
  const word = 'Conceição São João açúcar ';
  const portuguese = (length: number) => word.repeat(Math.ceil(length / word.length)).slice(0, length);

  it('a Portuguese row of 170,100 characters (more than 200,000 bytes in UTF-8) is read under the default 200,000', async () => {
    const row = `A-1;1;${portuguese(170_094)}`;
    expect(row.length).toBe(170_100);
    expect(Buffer.byteLength(row)).toBeGreaterThan(200_000);
    for (const chunk of [4096, 65_536, 1_000_000]) {
      const rows = await rowsOf(`sku;quantity;warehouse\n${row}\n`, { chunk });
      expect(rows.map((read) => read.cells.join(';').length)).toEqual([22, 170_100]);
    }
  });

  it('a long quoted cell with line breaks: its real columns, its cell, and the value that reads it, which does', async () => {
    const cell = `"${'linha com acentuação\n'.repeat(12_000)}"`;
    const text = `sku;quantity;descricao;warehouse\nA-1;1;${cell};CD\nA-2;2;curta;CD\n`;
    for (const chunk of [4096, text.length]) {
      const error = await failureOf(text, { chunk });
      expect(error.message).toBe(
        `in.csv:2: a row of ${(cell.length + 9).toLocaleString('en-US')} characters, more than the 200,000 the input.maxRowChars setting allows; its cell in column 3 (C) holds ${(cell.length - 2).toLocaleString('en-US')} characters. If the row is meant to be this long, raise the setting to at least its length: b2bctl config set input.maxRowChars ${cell.length + 9}.`,
      );
      const rows = await rowsOf(text, { chunk, maxRowChars: cell.length + 9 });
      expect(rows.map((row) => [row.line, row.cells.length])).toEqual([
        [1, 4],
        [2, 4],
        [12_003, 4],
      ]);
    }
    // One character less than the value named is refused.
    expect((await failureOf(text, { maxRowChars: cell.length + 8 })).message).toMatch(/^in\.csv:2: a row of/);
  });

  it('many short cells: the count of columns, not a cell', async () => {
    const error = await failureOf(`a;b\n${'ab;'.repeat(600)}x\n`, { maxRowChars: 1000 });
    expect(error.message).toBe(
      'in.csv:2: a row of 1,801 characters, more than the 1,000 the input.maxRowChars setting allows; it has 601 columns. If the row is meant to be this long, raise the setting to at least its length: b2bctl config set input.maxRowChars 1801.',
    );
  });

  it('an HTML page saved as .csv is called one', async () => {
    const error = await failureOf(`<!DOCTYPE html><html>${'<p>x</p>'.repeat(200)}`, { maxRowChars: 1000 });
    expect(error.message).toBe(
      'in.csv:1: a row of more than 1,000 characters; this is not a spreadsheet export (an HTML page saved as .csv?). Export the data as CSV.',
    );
  });
});

/** Header, then a quoted cell that never ends; aborts `controller` once `after` pieces of the cell are out. */
function endlessCell(
  controller: AbortController,
  after: number,
): { text: AsyncGenerator<string>; produced: () => number } {
  let produced = 0;
  async function* text(): AsyncGenerator<string> {
    yield 'sku;quantity;descricao\nA-1;1;"';
    for (;;) {
      if (++produced === after) controller.abort('SIGINT');
      yield 'çã'.repeat(32 * 1024);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { text: text(), produced: () => produced };
}

describe('Ctrl-C while a huge cell is read', () => {
  it.each([
    ['under input.maxRowChars (the cell is being gathered)', 1_000_000_000],
    ['over input.maxRowChars (the row is being measured for the message)', 100_000],
  ])('%s: the next piece stops the reading with the interrupted error', async (_name, maxRowChars) => {
    const controller = new AbortController();
    const { text, produced } = endlessCell(controller, 10);
    const reading = (async () => {
      for await (const row of readCsvRows(text, {
        delimiter: ';',
        file: 'in.csv',
        bounds: { maxColumns: 16_384, maxRowChars },
        interrupt: controller.signal,
      }))
        void row;
    })();
    const error = await reading.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    // The input never ends: only serving the interrupt ends the reading.
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).message).toBe('in.csv: interrupted while reading the rows from line 2.');
    expect(produced()).toBe(10);
  });
});
