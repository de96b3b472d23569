import { fstatSync, fsyncSync, ftruncateSync, lstatSync } from 'node:fs';
import { OutputError } from '../base/errors.js';
import { join } from 'node:path';
import { type Context, stdoutStyle } from '../context.js';
import { claimClosedOutput, claimFailedWrites, isClosedPipe } from '../io/output/closed-output.js';
import { writeFileDurably } from '../io/output/durable-file.js';
import { terminalColumns } from '../io/output/table.js';
import { makePrivateFolder, removeAbandonedTemporariesIn } from '../lib/private-file.js';
import { shellWord } from '../lib/shell-word.js';
import { userName } from '../lib/file-owners.js';
import { createRecordWriter, type RecordLayout, type RecordWriter } from '../io/output/record-writer.js';
import type { ListedOrder } from '../platform/orders.js';
import type { OutputFormat } from '../base/output-format.js';
import { printable } from '../lib/printable.js';
import { WrittenNumber } from '../lib/written-json.js';
import { orderStatusOf } from '../domain/order-stages.js';
import { orderFileName } from '../domain/order-file-name.js';

/** Where a poll writes the order versions it emits, and whether what it wrote is known to be on disk. */
export interface OrderSink {
  write(version: ListedOrder, record: unknown): Promise<void>;
  /**
   * Makes what was written durable and says whether it is: true for `--out-dir` and a stdout redirected to a file
   * (fsynced), false for a pipe or a terminal, where the cursor may only move once the whole run was written.
   */
  flush(): Promise<boolean>;
  end(): Promise<number>;
  /** True once the reader of stdout closed it (`| head`): nothing more can be written. */
  closed(): boolean;
  /** The headers of the columns the table left out to fit the terminal, once it is drawn (else none). */
  hiddenColumns(): readonly string[];
}

const orderLayout: RecordLayout<Record<string, unknown>> = {
  table: [
    // Planned widths: which columns a terminal shows depends on its width, never on the run's orders. The id and
    // the update instant (what the cursor and the files go by) stay whole; the creation instant goes first, and the
    // customer's name, cut with … as the terminal narrows, goes last, before the id or the instant would be cut.
    { header: 'ID', value: (order) => String(order.id ?? ''), keepWhole: true, plannedWidth: 6 },
    { header: 'ORDER', value: (order) => String(order.orderId ?? ''), dropRank: 2, plannedWidth: 8 },
    { header: 'STATUS', value: (order) => statusCell(order.status), dropRank: 1, plannedWidth: 16 },
    { header: 'CREATED', value: (order) => String(order.dateCreated ?? ''), dropRank: 3, plannedWidth: 24 },
    { header: 'UPDATED', value: (order) => String(order.lastUpdated ?? ''), keepWhole: true, plannedWidth: 24 },
    {
      header: 'CUSTOMER',
      value: (order) => cellText(order.partnerCompanyName),
      plannedWidth: 16,
      yieldsToWhole: true,
    },
  ],
  csv: [
    'id',
    'orderId',
    'status',
    'approvalWorkflow',
    'workflowIsApproved',
    'dateCreated',
    'lastUpdated',
    'partnerCompanyName',
    'partnerDocument',
  ],
  // A poll's table lists the changes in update order, oldest first, whatever order the windows were read in.
  tableOrder: (a, b) =>
    Date.parse(String(a.lastUpdated)) - Date.parse(String(b.lastUpdated)) || String(a.id).localeCompare(String(b.id)),
};

export function createOrderSink(context: Context, outDir: string | undefined): OrderSink {
  if (outDir !== undefined) return folderSink(outDir);
  const stream = context.io.stdout;
  const format = context.outputFormat('ndjson');
  let handed = 0;
  let hiddenColumns: readonly string[] = [];
  const writer: RecordWriter<Record<string, unknown>> = createRecordWriter(format, stream, orderLayout, {
    ...stdoutStyle(context),
    handed: (text) => (handed += Buffer.byteLength(text)),
    // A row wider than the terminal wraps and the table is unreadable: fit it (a pipe keeps every column).
    maxWidth: terminalColumns(stream),
    onHiddenColumns: (headers) => (hiddenColumns = headers),
  });
  const descriptor = regularFileDescriptor(stream);
  // A closed pipe is said by the poll (what was written, where the next run starts), not ended on by the process.
  let closed = false;
  const onError = (error: unknown) => {
    if (isClosedPipe(error)) closed = true;
  };
  stream.on('error', onError);
  const releaseClosed = claimClosedOutput(stream);
  const file =
    descriptor === undefined ? undefined : new CoveredFile(descriptor, claimFailedWrites(stream), () => handed);
  const release = () => {
    releaseClosed();
    file?.release();
  };
  const whileOpen = async (write: () => Promise<unknown>) => {
    if (closed) return;
    try {
      await write();
    } catch (error) {
      if (!isClosedPipe(error)) throw file?.cutBack(error) ?? error;
      closed = true;
    }
  };
  let written = 0;
  return {
    closed: () => closed,
    hiddenColumns: () => hiddenColumns,
    async write(version, record) {
      if (closed) return;
      written++;
      await whileOpen(() => writer.write(shownRow(format, version, record as Record<string, unknown>)));
    },
    async flush() {
      // One JSON document is readable only once its `]` is written (a run cut mid-way left an array no importer
      // reads): the cursor moves only over the whole of it, as for a pipe; NDJSON and CSV lines are each whole.
      if (file === undefined || format === 'json') return false;
      try {
        // The stream's own buffer first, then the kernel's.
        await new Promise<void>((resolve, reject) => stream.write('', (error) => (error ? reject(error) : resolve())));
        fsyncSync(file.descriptor);
      } catch (error) {
        throw file.cutBack(error);
      }
      file.covered();
      return true;
    },
    async end() {
      let count = 0;
      // A table of no orders is left out: the poll's line says "0 new order versions", and under --watch a header
      // alone would be printed every quiet cycle. JSON still ends as [], a CSV with its header line.
      if (format !== 'table' || written > 0) await whileOpen(async () => (count = await writer.end()));
      // A last write's EPIPE arrives as an event after it returned: wait for it before the poll judges the run.
      if (!closed)
        await new Promise<void>((resolve) =>
          stream.write('', (error) => {
            if (isClosedPipe(error)) closed = true;
            resolve();
          }),
        );
      stream.off('error', onError);
      release();
      // The closing `]` on disk before the cursor moves over the document (the poll saves it after this).
      if (format === 'json' && file !== undefined && !closed) syncWhole(file);
      return count;
    },
  };
}

/** Fsyncs a file stdout is redirected to, and checks it holds all it was handed; else cuts it back and throws. */
function syncWhole(file: CoveredFile): void {
  try {
    fsyncSync(file.descriptor);
  } catch (error) {
    throw file.cutBack(error);
  }
  file.covered();
}

/**
 * A value of the platform's as a table's cell: text and numbers as written, anything else (an object, a list) as its
 * JSON, as the CSV writes it; `[object Object]` is JavaScript's words, not the platform's data (a user test).
 */
function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' && !(value instanceof WrittenNumber) ? JSON.stringify(value) : String(value);
}

/** A status as written, or one given as an object (`{"code":"CANCELED","name":"Cancelado"}`) by its code. */
function statusCell(status: unknown): string {
  return typeof status === 'object' && status !== null ? (orderStatusOf(status) ?? cellText(status)) : cellText(status);
}

/**
 * An order as the format shows it. The table and the CSV are for people and spreadsheets: they show the id, number
 * and instants b2bctl read, whatever the platform calls them (the creation instant as written; no number when the
 * order shows none, as json says null); json and ndjson pass the platform's object on.
 */
function shownRow(format: OutputFormat, version: ListedOrder, row: Record<string, unknown>): Record<string, unknown> {
  if (format !== 'table' && format !== 'csv') return row;
  return {
    ...row,
    id: version.id,
    orderId: version.orderNumber ?? '',
    dateCreated: version.dateCreated ?? row.dateCreated,
    lastUpdated: version.lastUpdated,
  };
}

/**
 * A regular file stdout is redirected to (`>> orders.ndjson`), and its size as far as the cursor covers it. A disk
 * that fills up cuts a write short (node's stdout writes what fits and drops the rest), which left half an order at
 * the file's end for the next run to append after: the file is cut back to what the cursor covers, so it ends with a
 * whole order and the next run, continuing from the cursor, writes the rest once. The failure is said here, with
 * that, not by the process's own stdout handler.
 */
class CoveredFile {
  private size: number;
  private readonly startSize: number;

  readonly descriptor: number;
  readonly release: () => void;
  /** The bytes handed to stdout so far. */
  private readonly handed: () => number;
  constructor(descriptor: number, release: () => void, handed: () => number) {
    this.descriptor = descriptor;
    this.release = release;
    this.handed = handed;

    this.startSize = fstatSync(descriptor).size;
    this.size = this.startSize;
  }

  /**
   * What was written is flushed and the cursor moves over it; or, when the file holds less than was handed to it,
   * the error to end the run with. A disk that fills up cuts a write short without an error (node's stdout on a file
   * writes what fits and drops the rest), and the error comes only with a later write: the cursor must not pass
   * the order that was cut.
   */
  covered(): void {
    const size = fstatSync(this.descriptor).size;
    // Less, not other: another writer of the same file (stderr sent there too) only adds to it.
    if (size < this.startSize + this.handed())
      throw this.cutBack(Object.assign(new Error('a write was cut short'), { code: 'a write was cut short' }));
    this.size = size;
  }

  /** The error a failed write ends the run with, once the file is cut back to what the cursor covers. */
  cutBack(error: unknown): OutputError {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    const again = 'make room or write elsewhere, then run the command again: it continues from the cursor';
    try {
      ftruncateSync(this.descriptor, this.size);
    } catch (cutError) {
      const cutCode = (cutError as NodeJS.ErrnoException).code ?? (cutError as Error).message;
      return new OutputError(
        `cannot write to stdout (${code}), and the file could not be cut back (${cutCode}): it may end in half an order; cut it to its first ${this.size} bytes (truncate -s ${this.size} FILE), then ${again}.`,
        { cause: error },
      );
    }
    return new OutputError(
      `cannot write to stdout (${code}): the file was cut back to the ${this.size} bytes the cursor covers, so it ends with a whole order; ${again}.`,
      { cause: error },
    );
  }
}

/** `--out-dir`: one file per order version, each written durably. */
function folderSink(outDir: string): OrderSink {
  makePrivateFolder(outDir);
  // What a run killed mid-write left: never renamed, so never read; removed once here, not at each order.
  removeAbandonedTemporariesIn(outDir);
  let count = 0;
  return {
    async write(version, record) {
      const path = join(outDir, orderFileName(version.id, version));
      try {
        // Orders are customers' data: 0600 whatever the umask, in a folder b2bctl creates 0700.
        writeFileDurably(path, `${JSON.stringify(record, null, 2)}\n`, { swept: true });
      } catch (error) {
        throw new OutputError(orderNotWritten(version, path, error), { cause: error });
      }
      count++;
    },
    async flush() {
      return true;
    },
    async end() {
      return count;
    },
    closed: () => false,
    hiddenColumns: () => [],
  };
}

/**
 * Why an order file could not be written, and what to do. The common case in a shared folder: another user made a
 * file of the order's name first, and the folder's sticky bit lets only its owner replace it (EPERM). It is no order
 * b2bctl wrote, so the line says whose it is. The cursor has not passed the order: the same command writes it again.
 */
function orderNotWritten(version: ListedOrder, path: string, error: unknown): string {
  const order = `order ${String(version.id)}${version.orderNumber === undefined ? '' : ` (number ${String(version.orderNumber)})`}`;
  const again = 'the cursor has not passed this order, so running the same command again writes it';
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  const owner = code === 'EPERM' || code === 'EACCES' ? ownerOtherThanMe(path) : undefined;
  if (owner !== undefined)
    return `Cannot write ${order} to ${printable(path)}: another user, ${userName(owner)}, made a file of that name there first, and b2bctl may not replace it (${code}); it is no order b2bctl wrote. Have it removed (by its owner or root: rm ${shellWord(path)}), or use an --out-dir no other user can write to; ${again}.`;
  return `Cannot write ${order} to ${printable(path)} (${code}); ${again}.`;
}

/** The owner of what is at `path` when it is another user (root included), else undefined. */
function ownerOtherThanMe(path: string): number | undefined {
  const me = process.getuid?.();
  if (me === undefined) return undefined;
  try {
    const owner = lstatSync(path).uid;
    return owner === me ? undefined : owner;
  } catch {
    return undefined;
  }
}

/** The descriptor of a stdout redirected to a regular file, which can be fsynced; undefined for pipes and terminals. */
function regularFileDescriptor(stream: NodeJS.WritableStream): number | undefined {
  const descriptor = (stream as { fd?: unknown }).fd;
  if (typeof descriptor !== 'number') return undefined;
  try {
    return fstatSync(descriptor).isFile() ? descriptor : undefined;
  } catch {
    return undefined;
  }
}
