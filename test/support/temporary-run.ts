/**
 * vitest's globalSetup: one temporary folder for the whole run, under which every test file makes its own
 * (temporary-setup.ts), removed when the run ends. A file whose tests are all skipped (a tool missing) runs no
 * afterAll, so its own folder would stay in /tmp after every run; here it goes with the rest. Other vitest runs on the
 * machine (another checkout's) have folders of their own, untouched.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variable that hands the run's folder to the workers, which start after this and inherit the environment. */
export const runTemporaryVariable = 'B2BCTL_TEST_RUN_TMPDIR';

export default function setup(): () => void {
  const runTemporary = mkdtempSync(join(tmpdir(), 'b2bctl-run-'));
  // Passable by other users, as /tmp is (not listable): see temporary-setup.ts.
  chmodSync(runTemporary, 0o711);
  process.env[runTemporaryVariable] = runTemporary;
  return () => rmSync(runTemporary, { recursive: true, force: true });
}
