import { statOrUndefined } from '../lib/file-status.js';
import { countOf } from '../lib/plural.js';
import { createHash } from 'node:crypto';
import {
  closeSync,
  type FSWatcher,
  lstatSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  watch,
} from 'node:fs';
import { NotRegularFileError, openNamedFileSync } from '../lib/named-file.js';
import { basename, dirname, join, parse, relative, resolve, sep } from 'node:path';
import type { TaxRule, TaxTable } from '../domain/tax/rules.js';
import { printable } from '../lib/printable.js';

/** What the table's life shows on /healthz. */
export interface TableStatus {
  rows: number;
  loadedAt: string;
  /** The last reload that was refused, while the table before it is still in use: when, never the file's text. */
  refused?: { at: string; problem: string };
}

/** What /healthz says of a refused reload. */
const refusedInWords =
  'the new table was refused; the log line at that time says why, and the previous table is in use';

/**
 * What /healthz says of the last refused reload once a later one was taken: kept with its time, so a monitor polling
 * every minute still sees that the ERP's export wrote a table that could not be read (a user test).
 */
const refusedBeforeInWords =
  'a new table was refused at that time (the log line then says why); a later one was taken (loadedAt)';

/** How long the table's file must stay unchanged before it is read again. */
const quietMs = 300;

/**
 * How long a table written in place that lacks rows of the table in use must stay unchanged before it is taken. An
 * export that writes whole lines and pauses between them (a CSV library's buffered writes, `>>` in a script, an ERP
 * writing row by row from a slow query) leaves, at each pause, a file that reads as a good table with only its first
 * rows: served, a cart whose 8-digit NCM row is not written yet takes a shorter prefix's rate, a wrong tax answered
 * 200. 5 s was taken by an export pausing 6.5 s (user tests): a minute keeps the table in use through any pause of a
 * query short of that, at the cost of a row deleted in place being served a minute longer. No wait makes writing in
 * place safe; a file renamed into place is whole, and is taken at once, as a table that only grows or changes rates.
 */
const defaultSettleMs = 60_000;

/**
 * The bytes the table is read from (its file and the files read with it), digested: read again when a held table's
 * wait is over, so that a change its size and time do not show (a file system whose times count whole seconds, a
 * writer that sets them back) holds it anew rather than having the table taken. Undefined when a file cannot be read.
 */
function digestOf(paths: readonly string[]): string | undefined {
  const digest = createHash('sha256');
  try {
    for (const path of paths) digest.update(readFileSync(path)).update('\0');
  } catch {
    return undefined;
  }
  return digest.digest('hex');
}

/**
 * A text table written in place that does not end with a line end is still being written (an export paused): its
 * last row may be cut in its last column and still read as a row. Refused, so the table in use stays until the file
 * is whole. A file renamed into place is whole, and is read as at start. A workbook cut short is no workbook.
 */
function refuseUnfinishedText(path: string): void {
  if (!/\.(csv|txt|tsv)$/i.test(path)) return;
  let last: Buffer;
  try {
    // Opened without waiting too: a FIFO swapped in since refuseSpecialFile looked is refused, left to the next look.
    const { descriptor, stats } = openNamedFileSync(path);
    try {
      const size = stats.size;
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
      `${printable(path)}: the file does not end with a line end, so it is probably still being written in place; it is read again once it does (end its last line with a line end, or write the new table under another name and rename it into place)`,
    );
}

/**
 * A FIFO, socket or device swapped in for the table (a broken export step, or anyone who may write its folder) would
 * be opened and waited on for ever: every callback unanswered, SIGTERM unheard. Opened without waiting, refused.
 */
function refuseSpecialFile(path: string): void {
  try {
    closeSync(openNamedFileSync(path).descriptor);
  } catch (error) {
    if (error instanceof NotRegularFileError)
      throw new Error(
        `${printable(path)}: it is ${error.kind}, not a file, so it is not read; it is read again once a file is in its place`,
        { cause: error },
      );
    // Gone or unreadable: the load says which.
  }
}

function inodeOf(path: string): number | undefined {
  return statOrUndefined(path)?.ino;
}

/** The most links followed from the table's path: as many as the kernel follows before it gives up (ELOOP). */
const mostLinks = 40;

/** The first folder or file of the path, from its root, that is a link; undefined when none is. */
function firstLinkIn(path: string): string | undefined {
  let prefix = parse(path).root;
  for (const part of path.slice(prefix.length).split(sep).filter(Boolean)) {
    prefix = join(prefix, part);
    if (lstatSync(prefix).isSymbolicLink()) return prefix;
  }
  return undefined;
}

/**
 * Every name whose change changes what the table's path reads: the path itself, each link it leads through, the
 * file's own or any folder's on the way (`/srv/tax/current -> release-42`, swapped at each release), and the file it
 * lands on. An ERP that keeps `current.csv -> v42.csv` either swaps the link (the link's folder sees it) or writes
 * or renames over the target (only the target's folder sees it, which may be another folder).
 */
function namesBehind(path: string): Set<string> {
  const names = new Set([resolve(path)]);
  let current = resolve(path);
  try {
    for (let followed = 0; followed < mostLinks; followed++) {
      const link = firstLinkIn(current);
      if (link === undefined) break;
      names.add(link);
      current = resolve(dirname(link), readlinkSync(link), relative(link, current));
    }
    names.add(realpathSync(path));
  } catch {
    // A link to nothing (its target being replaced): the names found so far are watched; the next reload looks again.
  }
  return names;
}

/**
 * The folder a name is watched through: its folder as it resolves now, since a watch holds the folder it was
 * opened on, not its path (a name under a swapped folder link is watched again under the new folder).
 */
function watchedFolderOf(name: string): string {
  try {
    return realpathSync(dirname(name));
  } catch {
    return dirname(name);
  }
}

/** What the path reads now: the file it resolves to and that file's version; a change of either is a new table. */
function identityOf(path: string): string {
  try {
    const { dev, ino, size, mtimeMs } = statSync(path);
    return [realpathSync(path), dev, ino, size, mtimeMs].join(':');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}

/**
 * How often the path is looked at besides the watch: a folder on the way renamed or swapped in a way no watched
 * folder sees (a plain release folder renamed over the one named) is still noticed.
 */
const checkEveryMs = 2000;

/**
 * The tax table in use, read again whenever its file changes: watched through its folder (editors and `mv`
 * replace the file rather than write into it), through the folder of each link on the way and of each link's
 * target, and looked at every few seconds besides; reloads one at a time, swapped in whole only when the new table
 * is good. A bad new table is logged with its file:line problems and the old one kept. The files the table is read
 * with (its `--map`) are watched alike: a new map is a new reading of the table, and a bad one is refused as a bad
 * table is.
 */
export class WatchedTaxTable {
  private table: TaxTable | undefined;
  private status: TableStatus | undefined;
  /** One watcher per name behind the path (see namesBehind), each on that name's folder as it resolves now. */
  private readonly watchers = new Map<string, FSWatcher>();
  private check: NodeJS.Timeout | undefined;
  /** What the path read at the last load tried (identityOf), good or refused: a refused table is not tried again until it changes. */
  private examined: string | undefined;
  /** Closed: a reload still under way watches nothing new. */
  private closed = false;
  private reloading: Promise<void> = Promise.resolve();
  private pending = false;
  private quiet: NodeJS.Timeout | undefined;
  /** The file read last: another one renamed into its place is whole, however its last line ends. */
  private loadedInode: number | undefined;
  /**
   * A table written in place that lacks rows, held until the file stays as it is for settleMs and then reads the
   * same bytes (`digest`) as when it was held.
   */
  private held: { identity: string; digest: string | undefined; timer: NodeJS.Timeout } | undefined;
  /** What the path read when a held table settled: it is then taken, however many rows it lacks. */
  private settled: string | undefined;

  private readonly path: string;
  private readonly load: () => Promise<TaxTable>;
  private readonly log: { info(line: string): void; error(line: string): void };
  private readonly now: () => number;
  /** The other files the table is read with (its --map), as they are named now: `--write-map` names one at start. */
  private readonly readWith: () => readonly string[];
  private readonly settleMs;
  constructor(
    path: string,
    load: () => Promise<TaxTable>,
    log: { info(line: string): void; error(line: string): void },
    now: () => number,
    readWith: () => readonly string[] = () => [],
    settleMs = defaultSettleMs,
  ) {
    this.path = path;
    this.load = load;
    this.log = log;
    this.now = now;
    this.readWith = readWith;
    this.settleMs = settleMs;
  }

  /** Reads the table (a bad one throws, so the server never starts without one) and starts watching it. */
  async start(): Promise<void> {
    this.loadedInode = inodeOf(this.path);
    const table = identityOf(this.path);
    this.swap(await this.load());
    // The files read with it as named after the load: --write-map saves the map it reads the table with.
    this.examined = this.identity(table);
    this.watchNamesBehind();
    this.check = setInterval(() => this.reloadIfChanged(), checkEveryMs);
    this.check.unref();
  }

  current(): TaxTable {
    if (this.table === undefined) throw new Error('the tax table was read before start()');
    return this.table;
  }

  tableStatus(): TableStatus | undefined {
    return this.status;
  }

  /** Reads the file again now (the watcher calls this; tests may too). Resolves once it is done. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(async () => {
      this.pending = false;
      this.examined = this.identity();
      try {
        refuseSpecialFile(this.path);
        const inode = inodeOf(this.path);
        const inPlace = inode === undefined || inode === this.loadedInode;
        if (inPlace) refuseUnfinishedText(this.path);
        const table = await this.load();
        const lost = this.table?.rowsMissingFrom(table) ?? [];
        if (inPlace && lost.length > 0 && this.settled !== this.examined) this.hold(table, lost);
        else {
          this.loadedInode = inode;
          this.swap(table);
          const fewer = lost.length === 0 ? '' : `, without ${countOf(lost.length, 'rows')} of the table before`;
          this.log.info(`tax table ${printable(this.path)} reloaded: ${countOf(table.size, 'rows')}${fewer}.`);
        }
      } catch (error) {
        const problem = (error as Error).message;
        // The log says what was wrong; /healthz, which needs no credential, only that and when. A problem quotes the
        // file's lines, and the path may have been pointed at any file this server can read (another account may
        // write the table's folder): its first line would be published to whoever reaches /healthz.
        this.status = { ...(this.status as TableStatus), refused: { at: this.isoNow(), problem: refusedInWords } };
        this.log.error(`${problem} (the previous table, ${countOf(this.table?.size ?? 0, 'rows')}, is still in use)`);
      }
      // A link swapped to another target: its new target is the one whose changes matter from now on.
      this.watchNamesBehind();
    });
    return this.reloading;
  }

  /**
   * A table written in place that lacks rows of the one in use: kept aside until the file has stayed as it is for
   * settleMs (an export writing whole lines may be pausing between them) and its bytes read again are those it was
   * held with, then read and taken; a change meanwhile is read as any change is, and holds it anew.
   */
  private hold(table: TaxTable, lost: readonly TaxRule[]): void {
    const identity = this.examined as string;
    if (this.held?.identity === identity) return;
    clearTimeout(this.held?.timer);
    const files = [this.path, ...this.readWith()];
    const digest = digestOf(files);
    const timer = setTimeout(() => {
      this.held = undefined;
      if (this.closed || this.identity() !== identity) return;
      if (digest === undefined || digestOf(files) !== digest) {
        this.log.info(
          `tax table ${printable(this.path)} changed while held, though its size and time did not: held again.`,
        );
        this.scheduleReload();
        return;
      }
      this.settled = identity;
      void this.reload();
    }, this.settleMs);
    timer.unref();
    this.held = { identity, digest, timer };
    const first = lost[0] as TaxRule;
    this.log.info(
      `tax table ${printable(this.path)}, written in place, reads ${countOf(table.size, 'rows')} without ${countOf(lost.length, 'rows')} of the table in use (the first: NCM ${first.ncm}, ${first.from} → ${first.to}, ${first.buyer}); taken if the file stays as it is for ${this.settleMs / 1000} s, in case it is still being written (writing in place is unsafe: an export pausing longer is taken half-written; write the new table under another name and rename it into place, which is taken at once).`,
    );
  }

  close(): void {
    this.closed = true;
    clearInterval(this.check);
    clearTimeout(this.quiet);
    clearTimeout(this.held?.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** What the table's path and the files it is read with read now (identityOf each): a change of any is a reload. */
  private identity(table = identityOf(this.path)): string {
    return [table, ...this.readWith().map(identityOf)].join('\n');
  }

  /** Watches each name behind the path that is not watched yet, and lets go of those no longer behind it. */
  private watchNamesBehind(): void {
    if (this.closed) return;
    const behind = [this.path, ...this.readWith()].flatMap((path) => [...namesBehind(path)]);
    const names = new Map(behind.map((name) => [join(watchedFolderOf(name), basename(name)), name]));
    for (const [watched, watcher] of this.watchers)
      if (!names.has(watched)) {
        watcher.close();
        this.watchers.delete(watched);
      }
    for (const [watched, name] of names) {
      if (this.watchers.has(watched)) continue;
      const file = basename(watched);
      try {
        const watcher = watch(dirname(watched), { persistent: false }, (_event, changed) => {
          if (changed === null || changed === file) this.scheduleReload();
          else this.reloadIfChanged();
        });
        this.watchers.set(watched, watcher);
      } catch (error) {
        // The path's own folder must be watchable (start fails as before); a target's folder gone is looked at again.
        if (name === resolve(this.path)) throw error;
      }
    }
  }

  /** A reload when the path now reads another file, or its file changed, since the last load tried. */
  private reloadIfChanged(): void {
    if (this.closed || this.pending) return;
    if (this.identity() !== this.examined) this.scheduleReload();
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
    clearTimeout(this.held?.timer);
    this.held = undefined;
    this.table = table;
    const refused = this.status?.refused;
    this.status = {
      rows: table.size,
      loadedAt: this.isoNow(),
      ...(refused === undefined ? {} : { refused: { at: refused.at, problem: refusedBeforeInWords } }),
    };
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}
