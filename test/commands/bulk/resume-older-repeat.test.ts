/**
 * A resume from a report written by a build that sent the first of two rows for one SKU (before every repeat was
 * refused): this build refuses both rows, so that done record is no longer among the valid ones. The start line said
 * it was among those already done ("2 items (2 already done)" with one item left), and the count of records to send
 * was one short; what was sent was right (found by a fresh user test).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { expectSomeLine, onlyReport, readReport, timed } from '../../support/run-files.js';
import { requestCounts, resetCounts } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';
import { batchRoute, stockEntries } from '../../support/stock.js';

let sandbox: RunningSandbox;
let configDir: string;
useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const repeated = 'PAR-SXT-M10X50-ZN';

describe('a resume from a report that has the first of two rows for one SKU done', () => {
  it('counts as done only the done records still valid, and sends the rest', async () => {
    const folder = temporaryFolder('b2bctl-resume-older-repeat-');
    writeFileSync(
      join(folder, 'stock.csv'),
      ['sku,quantity', `${repeated},5`, `${repeated},7`, 'POR-SXT-M8-ZN,3', 'ARR-LIS-M8-ZN,4', ''].join('\n'),
    );
    const run = (args: readonly string[]) => runCommandLine(args, { configDir, cwd: folder });
    expect((await run(['stock', 'push', 'stock.csv', '--skip-invalid', '--batch-size', '2'])).code).toBe(1);
    const reportPath = join(folder, onlyReport(folder, 'stock'));
    // What a build before every repeat was refused wrote for the same file, interrupted after its first request
    // (lines 2 and 4): the first row of the SKU applied, the second one invalid as a repeat of it.
    const [header, , , line4] = readFileSync(reportPath, 'utf8').split('\r\n');
    expect(line4).toBe('4,POR-SXT-M8-ZN,applied,200,,,4');
    const older = [
      header,
      `2,${repeated},applied,200,,,2`,
      `3,${repeated},invalid,,,Property [sku] with value [${repeated}] does not pass validation (the same SKU is already on line 2 of this file),3`,
      line4,
    ];
    writeFileSync(reportPath, `${older.join('\r\n')}\r\n`);
    await resetCounts(sandbox);

    const resumed = await run(['stock', 'push', 'stock.csv', '--resume', reportPath]);
    expect(resumed.code).toBe(1);
    // Line 4 is done; line 2, done too, is now invalid: neither among the records left to send nor counted as one
    // of this run's invalid records (it gets no row), so the closing counts hold nothing "not sent".
    expectSomeLine(
      resumed.stderr,
      timed(
        'stock push: sending 1 item (1 already done by the resumed run) in up to 1 request of up to 2 items through the batch route (concurrency 8)',
      ),
    );
    expectSomeLine(
      resumed.stderr,
      timed('stock push: 1 applied, 1 invalid; 1 request, 0 retries, 0 throttled (429); {s} s, {n} items/s'),
    );
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 1 });
    expect(readReport(reportPath).map((row) => `${row.line} ${row.outcome}`)).toEqual([
      '2 applied',
      '3 invalid',
      '4 applied',
      '5 applied',
    ]);
    expect((await stockEntries(sandbox)).map((entry) => entry.sku)).toContain('ARR-LIS-M8-ZN');
  });
});
