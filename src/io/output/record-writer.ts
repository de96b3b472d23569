import { WrittenNumber } from '../../lib/written-json.js';
import { once } from 'node:events';
import type { OutputFormat } from '../../base/output-format.js';
import { valueAtPath } from '../../domain/validation.js';
import { cellText, csvLine, guardDigitsText } from './csv-format.js';
import { batchedWriter } from './batched-writer.js';
import { renderTable, type TableColumn, type TableOptions, terminalColumns } from './table.js';

/** What a listing needs to be written in every output format. */
export interface RecordLayout<T> {
  /** The columns of the terminal table. */
  table: readonly TableColumn<T>[];
  /** The dot paths of the CSV columns, in order. */
  csv: readonly string[];
  /**
   * The CSV columns whose values are numbers held as decimal text (money computed exactly, `459.00`): `--excel`
   * writes them with a decimal comma, as it writes numbers, or a pt-BR Excel reads them as text.
   */
  decimalText?: readonly string[];
  /**
   * The CSV columns holding codes of digits (an NCM, a SKU): `--excel` guards one a spreadsheet would read as a number
   * (`09012100` as 9012100) with the `'` a bulk report's key gets (guardDigitsText), so the sheet shows it as written.
   */
  digitsText?: readonly string[];
  /** The order of the table's rows, when the command promises one (the table waits for every row anyway). */
  tableOrder?: (a: T, b: T) => number;
}

export interface RecordWriter<T> {
  write(record: T): Promise<void>;
  /** Finishes the output; resolves to the number of records written. */
  end(): Promise<number>;
  /**
   * Finishes the output after a failure: what was written stays whole (a JSON array is closed once it holds a record,
   * so `| jq` reads what came before the exit code says the rest did not), and nothing is added to an empty one.
   */
  abandon(): Promise<void>;
}

/**
 * Writes records as they arrive: JSON as one array (the same bytes as `JSON.stringify(list, null, 2)`),
 * NDJSON a line each, CSV with dot-path columns; the table waits for all rows to size its columns.
 */
export function createRecordWriter<T>(
  format: OutputFormat,
  stream: NodeJS.WritableStream,
  layout: RecordLayout<T>,
  options: TableOptions & {
    batched?: boolean;
    excel?: boolean;
    /** Told each text as it is handed to the stream: what a file should hold once it is flushed. */
    handed?: (text: string) => void;
  },
): RecordWriter<T> {
  // A row wider than the terminal wraps and a table is unreadable: every table on a terminal fits its width, unless
  // the command sets its own (a pipe or a file has no width, and keeps every column whole).
  const fitted = 'maxWidth' in options ? options : { ...options, maxWidth: terminalColumns(stream) };
  return createFittedRecordWriter(format, stream, layout, fitted);
}

function createFittedRecordWriter<T>(
  format: OutputFormat,
  stream: NodeJS.WritableStream,
  layout: RecordLayout<T>,
  options: TableOptions & { batched?: boolean; excel?: boolean; handed?: (text: string) => void },
): RecordWriter<T> {
  if (options.batched) {
    // Many small records (a problem per line of a large file): written in batches, all of them before end resolves.
    const batch = batchedWriter(stream);
    const writer = recordWriter(format, (text) => batch.write(text), layout, options);
    return {
      write: (record) => writer.write(record),
      async end() {
        const count = await writer.end();
        await batch.flush();
        return count;
      },
      async abandon() {
        await writer.abandon();
        await batch.flush();
      },
    };
  }
  return recordWriter(
    format,
    async (text) => {
      options.handed?.(text);
      if (!stream.write(text)) await once(stream, 'drain');
    },
    layout,
    options,
  );
}

function recordWriter<T>(
  format: OutputFormat,
  put: (text: string) => Promise<void> | undefined,
  layout: RecordLayout<T>,
  options: TableOptions & { excel?: boolean },
): RecordWriter<T> {
  let count = 0;
  switch (format) {
    case 'json':
      return {
        async write(record) {
          const indented = JSON.stringify(record, null, 2).replaceAll('\n', '\n  ');
          await put(`${count === 0 ? '[\n' : ',\n'}  ${indented}`);
          count++;
        },
        async end() {
          await put(count === 0 ? '[]\n' : '\n]\n');
          return count;
        },
        async abandon() {
          if (count > 0) await put('\n]\n');
        },
      };
    case 'ndjson':
      return {
        async write(record) {
          await put(`${JSON.stringify(record)}\n`);
          count++;
        },
        async end() {
          return count;
        },
        async abandon() {},
      };
    case 'csv':
      return csvRecordWriter(put, layout, options.excel === true);
    case 'table': {
      const rows: T[] = [];
      return {
        async write(record) {
          rows.push(record);
        },
        async end() {
          const ordered = layout.tableOrder ? rows.toSorted(layout.tableOrder) : rows;
          await put(await renderTable(layout.table, ordered, options));
          return rows.length;
        },
        // A table is drawn whole or not at all: the rows read before the failure are not drawn as if complete.
        async abandon() {},
      };
    }
  }
}

/** CSV with dot-path columns, or for a pt-BR Excel: a BOM, `;` between cells and a decimal comma. */
function csvRecordWriter<T>(
  put: (text: string) => Promise<void> | undefined,
  layout: RecordLayout<T>,
  excel: boolean,
): RecordWriter<T> {
  let count = 0;
  let headerWritten = false;
  // A pt-BR Excel reads `;` between cells and a decimal comma, and UTF-8 only after a BOM.
  const delimiter = excel ? ';' : ',';
  const decimalText = new Set(excel ? layout.decimalText : []);
  const digitsText = new Set(excel ? layout.digitsText : []);
  const cell = (value: unknown, path: string) =>
    !excel
      ? cellText(value)
      : decimalText.has(path) && typeof value === 'string' && decimalTextPattern.test(value)
        ? value.replace('.', ',')
        : digitsText.has(path) && typeof value === 'string'
          ? guardDigitsText(value)
          : excelCellText(value);
  const writeHeader = async () => {
    if (headerWritten) return;
    headerWritten = true;
    await put(`${excel ? '\uFEFF' : ''}${csvLine(layout.csv, delimiter)}`);
  };
  return {
    async write(record) {
      await writeHeader();
      await put(
        csvLine(
          layout.csv.map((path) => cell(valueAtPath(record, path), path)),
          delimiter,
        ),
      );
      count++;
    },
    async end() {
      await writeHeader();
      return count;
    },
    async abandon() {},
  };
}

/** A decimal number as text (`-12.50`, `6.5`, `12`): what a decimalText column holds when it holds a number. */
const decimalTextPattern = /^-?\d+(\.\d+)?$/;

/** A cell for a pt-BR Excel: a number with a decimal comma (`1234,5`), the rest as cellText writes it. */
function excelCellText(value: unknown): string {
  if (value instanceof WrittenNumber) return value.written.replace('.', ',');
  return typeof value === 'number' && Number.isFinite(value) ? String(value).replace('.', ',') : cellText(value);
}
