import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { writeWholeSync } from '../../lib/whole-write.js';
import { dirname } from 'node:path';
import {
  createFileExclusively,
  makePrivateFolder,
  privateFileMode,
  removeAbandonedTemporaries,
  temporaryPathBeside,
} from '../../lib/private-file.js';

/** How `rewriteFileDurably` writes the new file. */
export interface RewriteOptions {
  /** The new file's mode, whatever the umask (default 0600: customers' data). */
  mode?: number;
  /**
   * The caller removed `path`'s abandoned temporaries already: a folder of thousands of orders is swept once a run
   * (removeAbandonedTemporariesIn), not listed once an order.
   */
  swept?: boolean;
}

/**
 * The one way b2bctl replaces a file by a new version of it (an order, a cursor, a run record, a report or an errors
 * file rewritten), so that a reader never sees half of it and a crash never leaves it half-written or empty. `write`
 * fills a new file created exclusively under a random name in the same folder (a link planted at the name is never
 * written through); it is fsynced, renamed over `path` (replacing a link planted there instead of following it), and
 * the folder is fsynced so the rename itself survives a power cut: without both fsyncs, a file system lacking ext4's
 * rename-over heuristics can show the file empty or short after a power cut. A failure on the way, or the process
 * exiting while an asynchronous `write` is under way, removes the temporary file and leaves `path` as it was; what a
 * SIGKILL or a power cut leaves is removed by the next rewrite of `path` (removeAbandonedTemporaries).
 */
export function rewriteFileDurably(
  path: string,
  write: (descriptor: number) => Promise<void>,
  options?: RewriteOptions,
): Promise<void>;
export function rewriteFileDurably(path: string, write: (descriptor: number) => void, options?: RewriteOptions): void;
export function rewriteFileDurably(
  path: string,
  write: (descriptor: number) => void | Promise<void>,
  options: RewriteOptions = {},
): void | Promise<void> {
  if (options.swept !== true) removeAbandonedTemporaries(path);
  const copy = new TemporaryCopy(path, options.mode ?? privateFileMode);
  let writing: void | Promise<void>;
  try {
    writing = write(copy.descriptor);
  } catch (error) {
    copy.abandon();
    throw error;
  }
  if (!(writing instanceof Promise)) return copy.replaceTarget();
  return writing.then(
    () => copy.replaceTarget(),
    (error: unknown) => {
      copy.abandon();
      throw error;
    },
  );
}

/**
 * Writes `text` to `path` durably (rewriteFileDurably), in a folder made 0700 when missing.
 */
export function writeFileDurably(path: string, text: string, options: RewriteOptions = {}): void {
  makePrivateFolder(dirname(path));
  rewriteFileDurably(path, (descriptor) => writeWholeSync(descriptor, text), options);
}

/** The new version of a file, under a temporary name beside it until it replaces the file. */
class TemporaryCopy {
  private readonly temporary: string;
  readonly descriptor: number;
  private open = true;
  private readonly remove = () => rmSync(this.temporary, { force: true });

  private readonly path: string;
  constructor(path: string, mode: number) {
    this.path = path;

    this.temporary = temporaryPathBeside(path);
    this.descriptor = createFileExclusively(this.temporary, mode);
    // An exit while an asynchronous write is under way (an interrupted run) leaves no copy behind.
    process.once('exit', this.remove);
  }

  replaceTarget(): void {
    try {
      fsyncSync(this.descriptor);
      this.close();
      renameSync(this.temporary, this.path);
    } catch (error) {
      // A name another user holds in a shared folder (EPERM in a sticky one) refuses the rename: the copy holds the
      // same data (an order, customers' details) and would stay behind under a name no reader looks for.
      this.abandon();
      throw error;
    }
    process.off('exit', this.remove);
    syncFolder(dirname(this.path));
  }

  abandon(): void {
    try {
      this.close();
    } catch {
      // The failure the caller is told of is the write's or the rename's, not this one.
    }
    this.remove();
    process.off('exit', this.remove);
  }

  private close(): void {
    if (!this.open) return;
    this.open = false;
    closeSync(this.descriptor);
  }
}

/** Makes the renames and creations in `folder` durable. */
export function syncFolder(folder: string): void {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(folder, 'r');
    fsyncSync(descriptor);
  } catch {
    // Some file systems (and Windows) cannot fsync a folder; the rename is still atomic there.
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
