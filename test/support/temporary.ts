import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const temporaryFolders: string[] = [];

/** A fresh empty folder under the system's temporary folder, removed by `removeTemporaryFolders`. */
export function temporaryFolder(prefix = 'b2bctl-test-'): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  temporaryFolders.push(folder);
  return folder;
}

/** Removes every folder made by `temporaryFolder` (and the e2e config and work folders made from it). */
export function removeTemporaryFolders(): void {
  for (const folder of temporaryFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}
