import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** Whether this system shows a process its open files (Linux's /proc); tests that read them skip elsewhere. */
export const canListOpenFiles = existsSync('/proc/self/fd');

/** The files this process holds open (Linux's /proc), by name: other test threads open files meanwhile. */
export function openFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [readlinkSync(join('/proc/self/fd', fd))];
    } catch {
      return [];
    }
  });
}
