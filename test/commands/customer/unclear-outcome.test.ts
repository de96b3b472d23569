/**
 * Creates whose answers never came, on a platform slower than --timeout: the customers were created, but neither
 * the answer nor the question "does it exist now?" came back. Reported `failed`, they were then sent again by the
 * resume and reported `failed … already registered` (found by a fresh user test). They are `unknown`: the resume
 * asks again before it sends, and reports them created.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { createRoute, generateCustomers, storedCustomers } from '../../support/customers.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { fetchToken, requestCounts, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let token: string;

beforeAll(async () => {
  // Every answer takes 300 ms: a --timeout of 200 ms never sees one, though the platform does the work.
  sandbox = await startTestSandbox({ latencyMs: 300 });
  token = await fetchToken(sandbox);
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});

describe('a create whose answer and whose existence check are both lost', () => {
  it('is unknown, not failed; the resume finds it created and sends nothing twice', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'clientes.csv'), generateCustomers(4));
    const configDir = freshConfigDir();
    const run = (args: string[]) =>
      runCommandLine(['customer', 'create', 'clientes.csv', '--no-input', ...args], {
        configDir,
        cwd: folder,
        env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
      });
    const first = await run(['--timeout', '200', '--retries', '0', '--concurrency', '1']);
    expect(first.code).toBe(69);
    const report = onlyReport(folder, 'clientes');
    const rows = readReport(join(folder, report));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.outcome === 'unknown')).toBe(true);
    expect(rows[0]?.message).toContain('a resume asks again before sending it');
    // No errors file "to fix and feed back": fed back, they would be refused as registered (a fresh user test).
    expect(readdirSync(folder).filter((name) => name.includes('.errors-'))).toEqual([]);
    expect(first.stderr).not.toContain('to fix and feed back');
    expect((await storedCustomers(sandbox)).length).toBe(rows.length);

    // A resume takes the run's flags: a --timeout the platform can meet is given again.
    const resumed = await run(['--resume', report, '--timeout', '30000']);
    expect(resumed.code).toBe(0);
    const after = readReport(join(folder, report));
    expect(after.filter((row) => row.outcome === 'created')).toHaveLength(4);
    // Each customer once: the unknown ones were found, the rest created.
    expect(await storedCustomers(sandbox)).toHaveLength(4);
    expect((await requestCounts(sandbox))[createRoute]).toBeGreaterThanOrEqual(4);
  }, 60_000);
});
