import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { writeWholeSync } from '../../lib/whole-write.js';
import { dirname } from 'node:path';
import {
  createFileExclusively,
  makePrivateFolder,
  privateFileMode,
  temporaryPathBeside,
} from '../../lib/private-file.js';

/**
 * Writes `text` to `path` so that a reader never sees half of it and a crash never leaves it half-written: to a
 * temporary name in the same folder, fsynced, renamed over the target, and the folder fsynced so the rename itself
 * survives a power cut. The temporary name is random and created exclusively, and the rename replaces a link planted
 * at `path` instead of writing through it.
 */
export function writeFileDurably(path: string, text: string, mode = privateFileMode): void {
  const folder = dirname(path);
  makePrivateFolder(folder);
  const temporary = temporaryPathBeside(path);
  const descriptor = createFileExclusively(temporary, mode);
  try {
    writeWholeSync(descriptor, text);
    fsyncSync(descriptor);
  } catch (error) {
    closeSync(descriptor);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(descriptor);
  try {
    renameSync(temporary, path);
  } catch (error) {
    // A name another user holds in a shared folder (EPERM in a sticky one) refuses the rename: the temporary file
    // holds the same data (an order, customers' details) and would stay behind under a name no reader looks for.
    rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(folder);
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
