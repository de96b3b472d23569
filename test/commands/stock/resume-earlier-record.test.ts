/**
 * A resume from the report of an earlier b2bctl, whose run record holds the input's size and first 64 KiB but no
 * hash of the whole file: a change past them that keeps the size cannot be seen, so the resume says what it
 * compared instead of passing in silence (the upgrade tester's G8: a changed value sent, exit 0, no word).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport } from '../../support/run-files.js';
import { requestCounts, resetCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

describe('a resume from the run record of an earlier b2bctl', () => {
  it('warns that only the size and the first 64 KiB were compared; a finished run sends nothing', async () => {
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'stock.csv'), 'sku;quantity\r\nPAR-SXT-M8X40-ZN;5\r\nPAR-SXT-M10X50-ZN;7\r\n');
    const configDir = freshConfigDir();
    const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
    const run = (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env });
    expect((await run(['stock', 'push', 'stock.csv'])).code).toBe(0);
    const report = onlyReport(dir, 'stock');
    // The run record as an earlier b2bctl wrote it: no `content`.
    const metaPath = join(dir, report.replace(/\.csv$/, '.meta.json'));
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
    delete meta.input.content;
    writeFileSync(metaPath, JSON.stringify(meta));
    await resetCounts(sandbox);

    const resumed = await run(['stock', 'push', 'stock.csv', '--resume', report]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr.split('\n')).toContain(
      `stock push: ${report} was written by an earlier b2bctl, whose run record holds only the input's size and first 64 KiB: a change past them cannot be seen. Resume only with the file that run read, unchanged.`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
