import { statSync } from 'node:fs';
import type { SqliteDatabase } from './sqlite-database.js';
import { restAfter, type SlicePace } from './prune-slices.js';
import type { SpaceReport } from './types.js';

/**
 * Pages one slice of incremental vacuum moves (1 MB at the default page size): an append waits behind a slice on the
 * writer thread, and slices of 1,000 pages took 5–50 ms on a store of a million events.
 */
const vacuumSlicePages = 256;

/** Runs `PRAGMA source` on the inbox's writer thread, outside a transaction; `durable` false: no fsync of its own. */
export type RunPragma = (source: string, durable?: boolean) => Promise<Record<string, unknown>[]>;

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Bytes of the database file and its write-ahead log. */
export function fileBytes(file: string): number {
  return sizeOf(file) + sizeOf(`${file}-wal`);
}

async function pragmaNumber(pragma: RunPragma, name: string): Promise<number> {
  const first = (await pragma(name))[0];
  return first === undefined ? 0 : Number(Object.values(first)[0]);
}

/**
 * Gives the free pages retention left back to the file system, in paced slices that let intake through, all on the
 * writer thread (the receiver's thread only awaits them). An inbox made before incremental auto-vacuum (mode NONE)
 * cannot: the report says how much is free, for `webhook inbox --compact`. A stop ends it after the slice under way;
 * the file is then as small as the slices so far made it.
 */
export async function reclaimFreePages(
  pragma: RunPragma,
  file: string,
  { signal, busy }: SlicePace = {},
): Promise<SpaceReport> {
  const freeBytes = (await pragmaNumber(pragma, 'freelist_count')) * (await pragmaNumber(pragma, 'page_size'));
  // 0 NONE, 1 FULL, 2 INCREMENTAL.
  if ((await pragmaNumber(pragma, 'auto_vacuum')) !== 2) return { reclaimed: false, freeBytes };
  const before = fileBytes(file);
  const stopped = () => signal?.aborted === true;
  while (!stopped() && (await pragmaNumber(pragma, 'freelist_count')) > 0) {
    const began = performance.now();
    await pragma(`incremental_vacuum(${vacuumSlicePages})`, false);
    await restAfter(began, busy);
  }
  // The file shrinks when the log is written back into it.
  await pragma('wal_checkpoint(TRUNCATE)');
  return { reclaimed: true, freeBytes, before, after: fileBytes(file) };
}

/** Rewrites the whole file in incremental auto-vacuum mode (the receiver stopped): the one-time switch. */
export function compactFile(database: SqliteDatabase, file: string): { before: number; after: number } {
  const before = fileBytes(file);
  database.pragma('auto_vacuum = INCREMENTAL');
  database.exec('VACUUM');
  database.pragma('wal_checkpoint(TRUNCATE)');
  return { before, after: fileBytes(file) };
}
