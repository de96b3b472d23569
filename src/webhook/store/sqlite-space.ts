import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { yieldToOthers } from './prune-slices.js';
import type { SpaceReport } from './types.js';

/** Pages one slice of incremental vacuum moves (4 MB at the default page size). */
const vacuumSlicePages = 1000;

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

function pragmaNumber(database: BetterSqlite3.Database, name: string): number {
  return Number(database.pragma(name, { simple: true }));
}

/**
 * Gives the free pages retention left back to the file system, in slices that let intake through. An inbox made
 * before incremental auto-vacuum (mode NONE) cannot: the report says how much is free, for `webhook inbox --compact`.
 */
export async function reclaimFreePages(database: BetterSqlite3.Database, file: string): Promise<SpaceReport> {
  const freeBytes = pragmaNumber(database, 'freelist_count') * pragmaNumber(database, 'page_size');
  // 0 NONE, 1 FULL, 2 INCREMENTAL.
  if (pragmaNumber(database, 'auto_vacuum') !== 2) return { reclaimed: false, freeBytes };
  const before = fileBytes(file);
  while (pragmaNumber(database, 'freelist_count') > 0) {
    database.pragma(`incremental_vacuum(${vacuumSlicePages})`);
    await yieldToOthers();
  }
  // The file shrinks when the log is written back into it.
  database.pragma('wal_checkpoint(TRUNCATE)');
  return { reclaimed: true, freeBytes, before, after: fileBytes(file) };
}

/** Rewrites the whole file in incremental auto-vacuum mode (the receiver stopped): the one-time switch. */
export function compactFile(database: BetterSqlite3.Database, file: string): { before: number; after: number } {
  const before = fileBytes(file);
  database.pragma('auto_vacuum = INCREMENTAL');
  database.exec('VACUUM');
  database.pragma('wal_checkpoint(TRUNCATE)');
  return { before, after: fileBytes(file) };
}
