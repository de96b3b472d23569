/**
 * A resumed report holds one row per record once the resume ends, as the docs say a report does: the resume appended
 * a row for each record it sent again after the interrupted run's `failed` one, and a morning's `grep -c ,failed,`
 * counted 2,000 failed items after a night that was finished completely (z/Z1).
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { scheduleFault } from '../../support/api-sandbox.js';
import { runCommandLine } from '../../support/command-line.js';
import { readErrorsCsv, readReport } from '../../support/run-files.js';
import { requestCounts, resetCounts, useSandboxWithToken } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
useSandboxWithToken((ready) => ({ sandbox, env } = ready));

const batchRoute = 'PUT /v1/stock/batch';

/** The next three requests to the batch route answered 503: with no retry, the run stops after them. */
async function threeUnavailableAfterOne(): Promise<void> {
  // Each fault counts the requests the ones before it let through: all three at the 2nd make requests 2, 3 and 4 fail.
  for (let fault = 0; fault < 3; fault++) await scheduleFault(sandbox, '/v1/stock/batch', 2, 503);
}

/** The outcome of each line the report names, failing on a line named twice. */
function outcomeByLine(path: string): Map<string, string> {
  const rows = readReport(path);
  const byLine = new Map(rows.map((row) => [row.line, row.outcome]));
  expect(byLine.size).toBe(rows.length);
  return byLine;
}

function linesWith(byLine: Map<string, string>, outcome: string): number[] {
  return [...byLine].filter(([, value]) => value === outcome).map(([line]) => Number(line));
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe('a resumed report', () => {
  it('holds one row per record once the resume ends, a resume of a resume too', async () => {
    const folder = temporaryFolder('b2bctl-resumed-rows-');
    const configDir = join(folder, 'config');
    const items = Array.from({ length: 60 }, (_, index) => `GEN-${String(index + 1).padStart(7, '0')},${index}`);
    writeFileSync(join(folder, 'stock.csv'), ['sku,quantity', ...items, ''].join('\n'));
    const flags = ['--route', 'batch', '--batch-size', '10', '--concurrency', '1', '--retries', '0'];
    const run = (args: string[]) => runCommandLine(['stock', 'push', ...args], { configDir, cwd: folder, env });

    // Lines 2-11 applied, 12-41 unknown (each 503 may have come after the platform applied its batch), 42-61 never
    // sent.
    await threeUnavailableAfterOne();
    const night = await run(['stock.csv', ...flags]);
    expect(night.code).toBe(69);
    const report = /--resume (\S+)$/m.exec(night.stderr)?.[1] ?? '';
    const reportPath = join(folder, report);
    const resumeArgs = ['stock.csv', ...flags, '--resume', report];

    // The first resume sends lines 12-21 (applied), then 22-51 are unknown and it stops again.
    await threeUnavailableAfterOne();
    const first = await run(resumeArgs);
    expect(first.code).toBe(69);
    let byLine = outcomeByLine(reportPath);
    expect(linesWith(byLine, 'applied')).toEqual(range(2, 21));
    expect(linesWith(byLine, 'unknown')).toEqual(range(22, 51));
    expect(byLine.size).toBe(50);
    // Its own errors file has a row per record left unknown, too.
    const errors = readdirSync(folder).filter((name) => name.startsWith('stock.errors-'));
    const firstErrors = errors.find((name) => first.stderr.includes(`errors: ${name} `)) ?? '';
    expect(readErrorsCsv(join(folder, firstErrors)).rows.map((row) => row.at(-2))).toEqual(range(22, 51).map(String));

    // The resume of the resume sends the 40 left (22-61) and leaves the report with the 60 records, each once.
    await resetCounts(sandbox);
    const second = await run(resumeArgs);
    expect(second.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 4 });
    byLine = outcomeByLine(reportPath);
    expect(linesWith(byLine, 'applied')).toEqual(range(2, 61));
    expect(byLine.size).toBe(60);
    // Rewritten as b2bctl writes every file (0600), and no temporary file left beside it.
    expect(statSync(reportPath).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
