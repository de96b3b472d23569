import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { InputRecord } from '../../../../src/io/input/open-input.js';
import { InterruptedError } from '../../../../src/base/errors.js';
import { stockCatalogue } from '../../../../src/commands/stock/stock-input.js';
import { openAnyInput } from '../../../../src/io/input/workbook-or-text.js';
import { temporaryFolder } from '../../../support/temporary.js';
import { inlineCell, numberCell, odsNumber, odsText, writeOds, writeXlsx } from '../../../support/workbook-writer.js';

/** `file` opened as `stock push` opens its input, with `more` of the reader's options (an interrupt, row bounds). */
function openStockInput(file: string, more: Partial<Parameters<typeof openAnyInput>[0]> = {}) {
  return openAnyInput({ path: file, stdin: Readable.from([]), catalogue: stockCatalogue, warn: () => {}, ...more });
}

// SIGTERM or Ctrl-C while a workbook's parts are inflated stops the reading at the next chunk (exit 75), as a CSV's
// does: a cron job's `timeout` is obeyed, not left until the whole sheet has been read (a user test).
describe('a workbook read after Ctrl-C or SIGTERM', () => {
  it('stops at the next chunk with an InterruptedError naming the file, no record handed out', async () => {
    const file = join(temporaryFolder('b2bctl-workbook-interrupt-'), 'estoque.xlsx');
    const rows = Array.from(
      { length: 5_000 },
      (_, index) =>
        `<row r="${index + 2}">${inlineCell(`A${index + 2}`, `SKU-${index}`)}${numberCell(`B${index + 2}`, index)}</row>`,
    );
    writeXlsx(file, `<row r="1">${inlineCell('A1', 'sku')}${inlineCell('B1', 'quantity')}</row>${rows.join('')}`);
    const reading = openStockInput(file, { interrupt: AbortSignal.abort() });
    await expect(reading).rejects.toThrow(InterruptedError);
    await expect(reading).rejects.toThrow(`Interrupted while reading ${file} (the sheet); nothing was sent.`);
  });
});

// The merged ranges follow the rows; they are read chunk by chunk, keeping only an unfinished element (a user test).
describe('merged ranges after many rows, over many chunks', () => {
  it('each of 20,000 ranges fills the row below its first', async () => {
    const file = join(temporaryFolder('b2bctl-workbook-merges-'), 'estoque.xlsx');
    const count = 40_000;
    const rows = Array.from({ length: count }, (_, index) => {
      const row = index + 2;
      const warehouse = row % 2 === 0 ? inlineCell(`C${row}`, `W-${row}`) : '';
      return `<row r="${row}">${inlineCell(`A${row}`, `SKU-${row}`)}${numberCell(`B${row}`, 1)}${warehouse}</row>`;
    });
    const merges = Array.from(
      { length: count / 2 },
      (_, index) => `<mergeCell ref="C${2 * index + 2}:C${2 * index + 3}"/>`,
    );
    writeXlsx(
      file,
      `<row r="1">${inlineCell('A1', 'sku')}${inlineCell('B1', 'quantity')}${inlineCell('C1', 'warehouse')}</row>${rows.join('')}`,
      `<mergeCells count="${merges.length}">${merges.join('')}</mergeCells><pageMargins left="0.7"/>`,
    );
    const input = await openStockInput(file);
    const records: InputRecord[] = [];
    for await (const record of input.records) records.push(record);
    input.close();
    expect(records).toHaveLength(count);
    for (const record of records)
      expect(record.values.warehouse).toBe(`W-${record.line % 2 === 0 ? record.line : record.line - 1}`);
  });
});

/** A signal that turns aborted at its `after`th look: Ctrl-C arriving while the reader is deep in a part. */
function abortedAfter(after: number): AbortSignal {
  let looks = 0;
  return {
    get aborted() {
      return ++looks >= after;
    },
  } as AbortSignal;
}

// An .ods is read as an .xlsx is: Ctrl-C or SIGTERM stops it at the next chunk, also inside a cell of tens of
// megabytes that a raised input.maxRowChars lets through (a user test).
describe('an .ods read after Ctrl-C or SIGTERM', () => {
  const header = `<table:table-row>${odsText('sku')}${odsText('quantity')}</table:table-row>`;

  it('stops at the next chunk with an InterruptedError naming the file, no record handed out', async () => {
    const file = join(temporaryFolder('b2bctl-workbook-interrupt-'), 'estoque.ods');
    const rows = Array.from(
      { length: 5_000 },
      (_, index) => `<table:table-row>${odsText(`SKU-${index}`)}${odsNumber(index)}</table:table-row>`,
    );
    writeOds(file, `${header}${rows.join('')}`);
    const reading = openStockInput(file, { interrupt: AbortSignal.abort() });
    await expect(reading).rejects.toThrow(`Interrupted while reading ${file} (the sheet); nothing was sent.`);
  });

  it('inside a cell of 30,000,000 characters the bound was raised for: stopped there, not at its end', async () => {
    const file = join(temporaryFolder('b2bctl-workbook-interrupt-'), 'bigcell.ods');
    writeOds(file, `${header}<table:table-row>${odsText('SKU-1')}${odsText('A'.repeat(30_000_000))}</table:table-row>`);
    const input = await openStockInput(file, {
      rowBounds: { maxColumns: 16_384, maxRowChars: 50_000_000 },
      interrupt: abortedAfter(20),
    });
    const records: InputRecord[] = [];
    const reading = (async () => {
      for await (const record of input.records) records.push(record);
    })();
    await expect(reading).rejects.toThrow(InterruptedError);
    await expect(reading).rejects.toThrow(`Interrupted while reading ${file} (the rows from row 2); nothing was sent.`);
    expect(records).toEqual([]);
    input.close();
  });
});
