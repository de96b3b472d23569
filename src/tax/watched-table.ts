import { countOf } from '../lib/plural.js';
import { closeSync, fstatSync, type FSWatcher, openSync, readSync, statSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { TaxTable } from '../domain/tax/rules.js';

/** What the table's life shows on /healthz. */
export interface TableStatus {
  rows: number;
  loadedAt: string;
  /** The last reload that was refused, while the table before it is still in use. */
  refused?: { at: string; problem: string };
}

/** How long the table's file must stay unchanged before it is read again. */
const quietMs = 300;

/**
 * A text table written in place that does not end with a line end is still being written (an export paused): its
 * last row may be cut in its last column and still read as a row. Refused, so the table in use stays until the file
 * is whole. A file renamed into place is whole, and is read as at start. A workbook cut short is no workbook.
 */
function refuseUnfinishedText(path: string): void {
  if (!/\.(csv|txt|tsv)$/i.test(path)) return;
  let last: Buffer;
  try {
    const descriptor = openSync(path, 'r');
    try {
      const size = fstatSync(descriptor).size;
      if (size === 0) return;
      last = Buffer.alloc(1);
      readSync(descriptor, last, 0, 1, size - 1);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    return;
  }
  if (last[0] !== 0x0a)
    throw new Error(
      `${path}: the file does not end with a line end, so it is probably still being written in place; it is read again once it does (end its last line with a line end, or write the new table under another name and rename it into place)`,
    );
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/**
 * The tax table in use, read again whenever its file changes: watched through its folder (editors and `mv`
 * replace the file rather than write into it), reloads one at a time, swapped in whole only when the new table
 * is good. A bad new table is logged with its file:line problems and the old one kept.
 */
export class WatchedTaxTable {
  private table: TaxTable | undefined;
  private status: TableStatus | undefined;
  private watcher: FSWatcher | undefined;
  private reloading: Promise<void> = Promise.resolve();
  private pending = false;
  private quiet: NodeJS.Timeout | undefined;
  /** The file read last: another one renamed into its place is whole, however its last line ends. */
  private loadedInode: number | undefined;

  constructor(
    private readonly path: string,
    private readonly load: () => Promise<TaxTable>,
    private readonly log: { info(line: string): void; error(line: string): void },
    private readonly now: () => number,
  ) {}

  /** Reads the table (a bad one throws, so the server never starts without one) and starts watching it. */
  async start(): Promise<void> {
    this.loadedInode = inodeOf(this.path);
    this.swap(await this.load());
    const name = basename(this.path);
    this.watcher = watch(dirname(this.path), { persistent: false }, (_event, file) => {
      if (file === null || file === name) this.scheduleReload();
    });
  }

  current(): TaxTable {
    if (this.table === undefined) throw new Error('the tax table was read before start()');
    return this.table;
  }

  tableStatus(): TableStatus | undefined {
    return this.status;
  }

  /** Reads the file again now (the watcher calls this; tests and SIGHUP may too). Resolves once it is done. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      this.pending = false;
      try {
        const inode = inodeOf(this.path);
        if (inode === undefined || inode === this.loadedInode) refuseUnfinishedText(this.path);
        const table = await this.load();
        this.loadedInode = inode;
        this.swap(table);
        this.log.info(`tax table ${this.path} reloaded: ${countOf(table.size, 'rows')}.`);
      } catch (error) {
        const problem = (error as Error).message;
        this.status = { ...(this.status as TableStatus), refused: { at: this.isoNow(), problem } };
        this.log.error(`${problem} (the previous table, ${countOf(this.table?.size ?? 0, 'rows')}, is still in use)`);
      }
    });
    return this.reloading;
  }

  close(): void {
    this.watcher?.close();
  }

  /**
   * One reload for a burst of change events (an editor's save is several, an ERP writing in place many): it comes
   * once the file has been quiet for a while, each event putting it off.
   */
  private scheduleReload(): void {
    this.pending = true;
    clearTimeout(this.quiet);
    this.quiet = setTimeout(() => void this.reload(), quietMs);
    this.quiet.unref();
  }

  private swap(table: TaxTable): void {
    this.table = table;
    this.status = { rows: table.size, loadedAt: this.isoNow() };
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
