import { createHash } from 'node:crypto';
import { accessSync, closeSync, constants, readFileSync, realpathSync, rmSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { B2bctlError, ExitCode, UsageError } from '../base/errors.js';
import { specialFileKind } from '../lib/file-owners.js';
import { lstatOrUndefined } from '../lib/file-status.js';
import { NotRegularFileError, openNamedFileSync } from '../lib/named-file.js';
import { shellWord } from '../lib/shell-word.js';
import { writeFileDurably } from '../io/output/durable-file.js';
import { printable } from '../lib/printable.js';
import { systemErrorCause } from '../lib/system-error-cause.js';

// Windows has no O_NOFOLLOW (and no links a user can plant without privilege).
const noFollow = constants.O_NOFOLLOW ?? 0;

/** Where a poller resumes: the upper bound already written and the versions emitted inside the look-back overlap. */
export interface OrdersCursor {
  profile: string;
  /**
   * The store (its base URL, normalised) whose orders the cursor counts: a run against another store must not read
   * or move it (a user test). Absent from a cursor an older b2bctl wrote, which the next save stamps.
   */
  baseUrl?: string;
  /** ISO-8601: every order version updated up to here has been written and flushed. */
  cursor: string;
  /**
   * `id@lastUpdated` keys emitted at or after `cursor` minus the look-back, not to be emitted again; one whose instant
   * has no zone (read in this machine's, maybe hours off) while the platform lists it in a window reaching there. A
   * version whose stamp is coarser than a millisecond is also kept with `#` and a digest of its listed entry after it
   * (rememberedKeys): a release before this one reads the first and passes over the second; a cursor it wrote holds
   * none, and its keys stand for the first entry listed (newVersions).
   */
  emitted: string[];
  /**
   * ISO-8601: where the first run started (its --since), kept while the look-back would reach behind it: an order
   * updated before the instant the user chose is not emitted by the runs after.
   */
  floor?: string;
  /**
   * The listed versions whose detail kept failing (`--detail`; decision 0046): the cursor moved past them so that one
   * bad order holds back no other, and each is asked for again by every run until its detail is written. Absent when
   * none is pending.
   */
  pending?: PendingOrder[];
}

/** A listed order version whose detail answered an error: written by a later run once its detail answers. */
export interface PendingOrder {
  id: string | number;
  orderNumber?: string | number;
  /** ISO-8601: the update instant of the version listed (a later version listed since replaces it). */
  lastUpdated: string;
  /** The listing entry, written in the detail's place if the order's detail answers 404 later, as any such order's. */
  record: unknown;
  /** ISO-8601: when its detail first failed. */
  since: string;
  /** The HTTP status of its detail's last answer. */
  answered: number;
}

/**
 * The name of the lock a poll of this cursor takes (config/lock.ts). The lock protects the cursor: two runs of one
 * cursor never overlap, but a second feed of one store on a cursor of its own (`--status CANCELED --cursor
 * canceled.json` beside the main poll, for another importer) runs beside the first instead of exiting 75 whenever
 * the two cron lines meet. The profile's own cursor keeps the lock `orders-poll`; any other is named by its file,
 * its folder's links resolved, so two spellings of one file (`k9/a.json`, `/srv/k9/a.json`) are one lock.
 */
export function cursorLockName(cursorPath: string, profileCursorPath: string): string {
  const file = canonicalPath(cursorPath);
  if (file === canonicalPath(profileCursorPath)) return 'orders-poll';
  return `orders-poll.cursor-${createHash('sha256').update(file).digest('hex').slice(0, 16)}`;
}

/** The absolute path of a file that may not exist yet, through its folder's real path when the folder exists. */
function canonicalPath(path: string): string {
  const absolute = resolve(path);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

/**
 * The default cursor of a profile, in the config folder beside the profiles. A poll filtered by status has its own:
 * sharing one would let a filtered run move the cursor past orders of the other statuses.
 */
export function defaultCursorPath(
  configDirectory: string,
  profileName: string,
  statuses: readonly string[] = [],
): string {
  const filter =
    statuses.length === 0
      ? ''
      : `.status-${[...new Set(statuses)]
          .toSorted()
          .join('+')
          .replace(/[^\w+-]/g, '_')}`;
  return join(configDirectory, 'cursors', `${profileName}.orders-poll${filter}.json`);
}

/**
 * The saved cursor, undefined when there is none yet. A file that is not a cursor, or that belongs to another
 * profile, stops the run (exit 2) before anything is emitted: guessing would re-emit or skip orders.
 */
export function readCursor(path: string, profileName: string): OrdersCursor | undefined {
  const text = readCursorText(path);
  if (text === undefined) return undefined;
  let parsed: Partial<OrdersCursor> | undefined;
  try {
    parsed = JSON.parse(text) as Partial<OrdersCursor>;
  } catch {
    parsed = undefined;
  }
  const valid =
    parsed !== undefined &&
    parsed !== null &&
    typeof parsed.profile === 'string' &&
    typeof parsed.cursor === 'string' &&
    (parsed.baseUrl === undefined || typeof parsed.baseUrl === 'string') &&
    !Number.isNaN(Date.parse(parsed.cursor)) &&
    Array.isArray(parsed.emitted) &&
    parsed.emitted.every((key) => typeof key === 'string') &&
    (parsed.floor === undefined || (typeof parsed.floor === 'string' && !Number.isNaN(Date.parse(parsed.floor)))) &&
    (parsed.pending === undefined || (Array.isArray(parsed.pending) && parsed.pending.every(isPendingOrder)));
  if (!valid) {
    throw new UsageError(
      `The orders cursor ${printable(path)} is not a cursor file (corrupt or written by something else); nothing was emitted. Move it aside and run again with --since to choose where to start.`,
    );
  }
  if (parsed!.profile !== profileName) {
    throw new UsageError(
      `The orders cursor ${printable(path)} belongs to profile "${parsed!.profile}", not "${profileName}"; nothing was emitted. Use --profile ${parsed!.profile}, or another --cursor file for this profile.`,
    );
  }
  return parsed as OrdersCursor;
}

/** Whether a cursor's pending entry has what a run needs to ask for the order again and to name it. */
function isPendingOrder(value: unknown): value is PendingOrder {
  if (value === null || typeof value !== 'object') return false;
  const entry = value as Partial<PendingOrder>;
  return (
    (typeof entry.id === 'string' || typeof entry.id === 'number') &&
    (entry.orderNumber === undefined ||
      typeof entry.orderNumber === 'string' ||
      typeof entry.orderNumber === 'number') &&
    typeof entry.lastUpdated === 'string' &&
    !Number.isNaN(Date.parse(entry.lastUpdated)) &&
    typeof entry.since === 'string' &&
    typeof entry.answered === 'number'
  );
}

/**
 * The cursor's text, undefined when there is none. Never through a symbolic link (O_NOFOLLOW), whoever owns it: one
 * another user planted in a shared folder, pointing at this user's cursor of another job, had that cursor read and
 * every order since --since skipped (exit 0), and whoever can re-point it chooses the cursor of every later run.
 * Refused as a linked config.json is (exit 77). What is no file at all is refused before it is opened, by what lstat
 * sees (a socket cannot even be opened); the open without waiting refuses one swapped in after that look.
 */
function readCursorText(path: string): string | undefined {
  const found = lstatOrUndefined(path);
  if (found !== undefined && !found.isFile() && !found.isSymbolicLink())
    throw cursorNotAFile(path, cursorFileKind(found));
  let descriptor: number;
  try {
    descriptor = openNamedFileSync(path, { flags: noFollow }).descriptor;
  } catch (error) {
    if (error instanceof NotRegularFileError) throw cursorNotAFile(path, error.kind);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP')
      throw new B2bctlError(
        `The orders cursor ${printable(path)} is a symbolic link, which b2bctl never follows: whoever can point it elsewhere decides which cursor the poll continues from, and so which orders it skips; nothing was emitted. Remove the link (rm ${shellWord(path)}) and give --cursor the file itself, or a new file (with --since for its first run).`,
        ExitCode.authFailed,
      );
    throw new UsageError(`Cannot read the orders cursor ${printable(path)}: ${printable((error as Error).message)}.`);
  }
  try {
    return readFileSync(descriptor, 'utf8');
  } finally {
    closeSync(descriptor);
  }
}

/**
 * A FIFO, a socket, a device or a folder named as the cursor: read, a FIFO held the poll for ever in open(2), deaf to
 * SIGTERM and Ctrl-C (a cron job piled up stuck runs, each holding the profile's lock), and /dev/zero was judged by
 * its mode, with advice to chmod it. Refused as an unreadable input is (exit 66), saying what it is; the fix never
 * names an rm: the path may be the system's own (/dev/zero).
 */
function cursorNotAFile(path: string, kind: string): B2bctlError {
  return new B2bctlError(
    `The orders cursor ${printable(path)} is ${kind}, not a file: b2bctl keeps the cursor in a regular file, which it reads whole and replaces by a rename; nothing was emitted. Give --cursor the path of a file (a new one, with --since for its first run).`,
    ExitCode.inputMissing,
  );
}

/** What a cursor path is, a device named as character or block (which /dev/zero and /dev/sdb are). */
function cursorFileKind(stats: Stats): string {
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return specialFileKind(stats);
}

/**
 * Refuses, before anything is fetched, a cursor whose folder cannot be written (a read-only HOME, a file in the way):
 * the run emitted every order, then failed to save its cursor (exit 75), and the next run emitted them all again.
 * Looked at, not made: the nearest folder of the path that exists must be one this user may write in. A full disk is
 * still found only at the write. `given` is whether --cursor named it (else it is the profile's, in the config folder).
 */
export function refuseUnwritableCursorFolder(path: string, given: boolean): void {
  const folder = dirname(resolve(path));
  const cause = unwritableFolderCause(folder);
  if (cause === undefined) return;
  const where = given
    ? `The folder of the orders cursor ${printable(path)} cannot be written (${cause})`
    : `orders poll keeps this profile's cursor in the config folder (${printable(folder)}), which cannot be written (${cause})`;
  throw new UsageError(
    `${where}: the orders would be emitted, then no cursor saved, and the next run would emit them again; nothing was fetched. Give --cursor FILE in a folder this user can write (with --since for its first run)${given ? '' : ', or set B2BCTL_CONFIG_DIR to such a folder'}.`,
  );
}

/** Why files cannot be made in `folder` (or in the nearest of its parents that exists), undefined when they can. */
function unwritableFolderCause(folder: string): string | undefined {
  let nearest = folder;
  while (lstatOrUndefined(nearest) === undefined && dirname(nearest) !== nearest) nearest = dirname(nearest);
  if (lstatOrUndefined(nearest)?.isDirectory() === false) return `${printable(nearest)} is in the way, not a folder`;
  try {
    accessSync(nearest, constants.W_OK | constants.X_OK);
    return undefined;
  } catch (error) {
    return systemErrorCause(error) ?? (error as Error).message;
  }
}

/** Saves the cursor atomically (temporary file, fsync, rename): a crash leaves the old one or the new one. */
export function writeCursor(path: string, cursor: OrdersCursor): void {
  writeFileDurably(path, `${JSON.stringify(cursor, null, 2)}\n`);
}

/** A run whose output was closed early (`| head`): what it wrote and where it started, for the next run to say. */
export interface CutShortRun {
  /** ISO-8601: when the output closed. */
  at: string;
  written: number;
  /** ISO-8601: where the cut-short run started; the `--since` that starts there again. */
  since: string;
}

/** Beside the cursor, so a --cursor file has its own. */
function cutShortPath(cursorPath: string): string {
  return `${cursorPath}.cut-short.json`;
}

export function writeCutShort(cursorPath: string, run: CutShortRun): void {
  writeFileDurably(cutShortPath(cursorPath), `${JSON.stringify(run)}\n`);
}

/** The note of a cut-short last run, or undefined (none, or unreadable: it is only a note). */
export function readCutShort(cursorPath: string): CutShortRun | undefined {
  try {
    // Never through a link either: one planted beside the cursor could name any --since for the next run to suggest.
    const { descriptor } = openNamedFileSync(cutShortPath(cursorPath), { flags: noFollow });
    let text: string;
    try {
      text = readFileSync(descriptor, 'utf8');
    } finally {
      closeSync(descriptor);
    }
    const parsed = JSON.parse(text) as Partial<CutShortRun>;
    if (typeof parsed.at !== 'string' || typeof parsed.since !== 'string' || typeof parsed.written !== 'number')
      return undefined;
    return parsed as CutShortRun;
  } catch {
    return undefined;
  }
}

export function clearCutShort(cursorPath: string): void {
  rmSync(cutShortPath(cursorPath), { force: true });
}
