import { countOf } from '../lib/plural.js';
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { TaxTable } from '../domain/tax/rules.js';

/** What the table's life shows on /healthz. */
export interface TableStatus {
  rows: number;
  loadedAt: string;
  /** The last reload that was refused, while the table before it is still in use. */
  refused?: { at: string; problem: string };
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

  constructor(
    private readonly path: string,
    private readonly load: () => Promise<TaxTable>,
    private readonly log: { info(line: string): void; error(line: string): void },
    private readonly now: () => number,
  ) {}

  /** Reads the table (a bad one throws, so the server never starts without one) and starts watching it. */
  async start(): Promise<void> {
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
        const table = await this.load();
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

  /** One reload for a burst of change events (an editor's save is several). */
  private scheduleReload(): void {
    if (this.pending) return;
    this.pending = true;
    setTimeout(() => void this.reload(), 50).unref();
  }

  private swap(table: TaxTable): void {
    this.table = table;
    this.status = { rows: table.size, loadedAt: this.isoNow() };
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
