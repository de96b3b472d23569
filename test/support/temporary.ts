import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const temporaryFolders: string[] = [];

/**
 * A fresh empty folder under the temporary folder (the test file's own, temporary-setup.ts), removed by
 * `removeTemporaryFolders`: after each test file by that setup file, also when a test failed, or sooner by a test.
 */
export function temporaryFolder(prefix = 'b2bctl-test-'): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  temporaryFolders.push(folder);
  return folder;
}

/** Removes every folder made by `temporaryFolder` (and the e2e config and work folders made from it). */
export function removeTemporaryFolders(): void {
  for (const folder of temporaryFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}
