/**
 * Run before each test file (vitest.config.ts's setupFiles): the file gets a temporary folder of its own as TMPDIR,
 * for itself and every b2bctl it starts (test/support/cli.ts passes TMPDIR on), so that what a file leaves behind
 * is seen whatever the other worker runs meanwhile. After the file, also when a test failed, its folders from
 * `temporaryFolder` are removed, then the folder itself with whatever else is in it. A `b2bctl-*` entry still there
 * fails the file, by name: a test made it another way, or b2bctl itself left it (another tool's own, such as Node's
 * compile cache, is only removed). A file whose tests are all skipped runs no afterAll: its folder goes at the run's
 * end (temporary-run.ts).
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { runTemporaryVariable } from './temporary-run.js';
import { removeTemporaryFolders } from './temporary.js';

const runnersTemporary = process.env.TMPDIR;
// Made here, not with temporaryFolder: removeTemporaryFolders would remove it before it is looked at. Under the run's
// folder (temporary-run.ts), which the run's end removes even when this file's afterAll never runs.
const fileTemporary = mkdtempSync(join(process.env[runTemporaryVariable] ?? tmpdir(), 'b2bctl-file-'));
// Passable by other users, as /tmp is (not listable): a PostgreSQL cluster run as the `postgres` user lives in a folder
// of its own below it (bench/lib/postgres.mjs).
chmodSync(fileTemporary, 0o711);
process.env.TMPDIR = fileTemporary;

afterAll(() => {
  removeTemporaryFolders();
  const leftBehind = readdirSync(fileTemporary).filter((name) => name.startsWith('b2bctl-'));
  rmSync(fileTemporary, { recursive: true, force: true });
  if (runnersTemporary === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = runnersTemporary;
  if (leftBehind.length > 0)
    throw new Error(
      `the test file left ${leftBehind.join(', ')} in the temporary folder: make a test's folders with temporaryFolder() (test/support/temporary.ts); what b2bctl made, it must remove`,
    );
});
