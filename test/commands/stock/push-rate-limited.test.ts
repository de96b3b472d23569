/**
 * `stock push` against a store that rate-limits (the sandbox's --rate-limit), in process on the real clock (the
 * sandbox counts its window in real time): a 429 is waited out and the pace lowered, it never spends `--retries`,
 * and the summary counts it as throttled only (docs/platform.md, "Status codes").
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { summaryCounts, summaryLine } from '../../support/run-files.js';
import { requestCounts, resetCounts, stopTestSandbox } from '../../support/sandbox.js';
import { batchRoute, compareWithGenerated, writeGeneratedStock } from '../../support/stock.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  if (sandbox) await stopTestSandbox(sandbox);
  sandbox = undefined;
});

describe('stock push against a store that answers 429 above 4 requests a second', () => {
  it.each([['0'], ['3']])(
    'with --retries %s: every item arrives once, exit 0, and the 429s are counted as throttled, not retries',
    async (retries) => {
      const started = await startLoggedInSandbox({ rateLimit: 4 });
      sandbox = started.sandbox;
      await resetCounts(sandbox);
      const folder = temporaryFolder();
      writeGeneratedStock(join(folder, 'stock.csv'), 500);
      const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', '--retries', retries], {
        configDir: started.configDir,
        cwd: folder,
      });
      expect(result.code).toBe(0);
      const counts = summaryCounts(result.stderr);
      // Eight requests at once meet a limit of four a second: some are refused, and each refusal is sent again.
      expect(counts.throttled).toBeGreaterThan(0);
      expect(summaryLine(result.stderr)).toBe(
        `stock push: 500 applied; ${counts.requests} requests, 0 retries, ${counts.throttled} throttled (429)`,
      );
      expect(counts.requests).toBe(10 + counts.throttled);
      expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: counts.requests });
      expect(await compareWithGenerated(sandbox, 500)).toEqual({
        lines: 500,
        missing: 0,
        mismatches: [],
        updates: 500,
      });
    },
    30_000,
  );
});
