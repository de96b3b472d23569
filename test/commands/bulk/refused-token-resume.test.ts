/**
 * A bulk run whose token the platform stops accepting mid-run (a 12-hour token expiring during a long import) ends
 * with exit 77 and the line to log in, then the line that resumes it: re-running the file instead would fail every
 * record the first run created as already registered.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { scheduleFault } from '../../support/api-sandbox.js';
import { login, runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { createRoute, generateCustomers, storedCustomers } from '../../support/customers.js';
import { readReport } from '../../support/run-files.js';
import { requestCounts, resetCounts, stopTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;
beforeAll(async () => {
  ({ sandbox, configDir } = await startLoggedInSandbox());
});
afterAll(async () => {
  await stopTestSandbox(sandbox);
  removeTemporaryFolders();
});

describe('customer create stopped by a refused token', () => {
  it('prints the resume line after the login line, and the resume after logging in sends only the rest', async () => {
    const folder = temporaryFolder('b2bctl-refused-token-');
    writeFileSync(join(folder, 'customers.csv'), generateCustomers(12));
    const run = (args: readonly string[]) => runCommandLine(args, { configDir, cwd: folder });
    await resetCounts(sandbox);
    // The fifth create finds every token revoked: four customers are created, the other eight not sent.
    await scheduleFault(sandbox, '/v1/customer', 5, 'revoke-tokens');

    const stopped = await run(['customer', 'create', 'customers.csv', '--concurrency', '1']);
    expect(stopped.code).toBe(77);
    const last = stopped.stderr.trimEnd().split('\n').at(-1) ?? '';
    const report = /--resume (\S+)$/.exec(last)?.[1] ?? '';
    expect(report).toMatch(/^customers\.report-\d{8}-\d{6}\.csv$/);
    expect(last).toBe(
      `error: Not logged in for profile "default": the platform refused its token. Run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default (or set B2BCTL_PASSWORD so b2bctl logs in again by itself). Then resume with: B2BCTL_CONFIG_DIR=${configDir} b2bctl customer create customers.csv --profile default --concurrency 1 --resume ${report}`,
    );
    expect(readReport(join(folder, report)).map((row) => row.outcome)).toEqual(Array(4).fill('created'));

    // The operator does as told: logs in, then runs the printed line.
    await login(sandbox, configDir);
    const resumed = await run(last.replace(/^.* b2bctl /, '').split(' '));
    expect(resumed.code).toBe(0);
    expect(readReport(join(folder, report)).map((row) => row.outcome)).toEqual(Array(12).fill('created'));
    expect((await storedCustomers(sandbox)).length).toBe(12);
    // Each customer created once: 12 accepted creates, and the one the revoked token turned into a 401.
    expect((await requestCounts(sandbox))[createRoute]).toBe(13);
  });
});
