import { fstatSync, ftruncateSync, writeSync } from 'node:fs';

/**
 * Writes all of `data` at the descriptor's position. Node's writeSync is one system call and returns what it wrote,
 * which on a disk filling up is less than asked, the rest dropped without an error (a report's line cut in two). Asked
 * again for the rest, the system says why (ENOSPC), and the caller sees the failure.
 */
export function writeWholeSync(descriptor: number, data: string | Uint8Array): void {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let written = 0;
  while (written < bytes.length) written += writeSync(descriptor, bytes, written, bytes.length - written);
}

/**
 * Appends all of `data` or none of it: a write the disk cuts short is taken back, so a report or an errors file never
 * ends in half a row, and what it holds is exactly the rows whose writes returned.
 */
export function appendWholeSync(descriptor: number, data: string | Uint8Array): void {
  const before = fstatSync(descriptor).size;
  try {
    writeWholeSync(descriptor, data);
  } catch (error) {
    try {
      ftruncateSync(descriptor, before);
    } catch {
      // Left as it is: a resume cuts an unfinished last row (cutUnfinishedRow), as after a crash.
    }
    throw error;
  }
}
