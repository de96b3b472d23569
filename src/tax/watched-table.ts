import { countOf } from '../lib/plural.js';
import {
  closeSync,
  fstatSync,
  type FSWatcher,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  watch,
} from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
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

/** The most links followed from the table's path: as many as the kernel follows before it gives up (ELOOP). */
const mostLinks = 40;

/**
 * Every name whose change changes what the table's path reads: the path itself, each link it leads through and
 * the file it lands on. An ERP that keeps `current.csv -> v42.csv` either swaps the link (the path's folder sees
 * it) or writes or renames over the target (only the target's folder sees it, which may be another folder).
 */
function namesBehind(path: string): Set<string> {
  const names = new Set([resolve(path)]);
  let current = resolve(path);
  try {
    for (let followed = 0; followed < mostLinks && lstatSync(current).isSymbolicLink(); followed++) {
      current = resolve(dirname(current), readlinkSync(current));
      names.add(current);
    }
    names.add(realpathSync(path));
  } catch {
    // A link to nothing (its target being replaced): the names found so far are watched; the next reload looks again.
  }
  return names;
}

/**
 * The tax table in use, read again whenever its file changes: watched through its folder (editors and `mv`
 * replace the file rather than write into it), and through the folder of each link's target when the path is a
 * link; reloads one at a time, swapped in whole only when the new table is good. A bad new table is logged with
 * its file:line problems and the old one kept.
 */
export class WatchedTaxTable {
  private table: TaxTable | undefined;
  private status: TableStatus | undefined;
  /** One watcher per name behind the path (see namesBehind), each on that name's folder. */
  private readonly watchers = new Map<string, FSWatcher>();
  /** Closed: a reload still under way watches nothing new. */
  private closed = false;
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
    this.watchNamesBehind();
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
      // A link swapped to another target: its new target is the one whose changes matter from now on.
      this.watchNamesBehind();
    });
    return this.reloading;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Watches each name behind the path that is not watched yet, and lets go of those no longer behind it. */
  private watchNamesBehind(): void {
    if (this.closed) return;
    const names = namesBehind(this.path);
    for (const [name, watcher] of this.watchers)
      if (!names.has(name)) {
        watcher.close();
        this.watchers.delete(name);
      }
    for (const name of names) {
      if (this.watchers.has(name)) continue;
      const file = basename(name);
      try {
        const watcher = watch(dirname(name), { persistent: false }, (_event, changed) => {
          if (changed === null || changed === file) this.scheduleReload();
        });
        this.watchers.set(name, watcher);
      } catch (error) {
        // The path's own folder must be watchable (start fails as before); a target's folder gone is looked at again.
        if (name === resolve(this.path)) throw error;
      }
    }
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
