/**
 * A cron run whose login (B2BCTL_PASSWORD) is what the network cuts (a user test): the error named the platform's
 * origin only ("No answer from http://host … connection cut"), as if the run's own requests had failed, and every
 * item was counted `failed`, with a row each, though no item route was ever called. It now names the token route
 * and the user, and the items no request carried are `not sent` (no row; the resume sends them): the run stops at
 * the login, which every request needs and which has spent its retries.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe('stock push: the login itself gets no answer', () => {
  it('the error names the token route and the user; the items are not sent, no item route called', async () => {
    platform.routes['POST /v1/auth/token'] = (_request, _body, response) => response.socket?.destroy();
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\nA2,1,1.00\nA3,2,2.00\n');
    // One item a request: three requests waiting on the one login.
    const flags = ['--route', 'batch', '--batch-size', '1', '--retries', '1'];
    const result = await runCommandLine(['stock', 'push', 'stock.csv', ...flags], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_USERNAME: 'erp@t11.test', B2BCTL_PASSWORD: 'secret' },
      cwd: folder,
      clock: new FakeClock(Date.UTC(2026, 10, 30, 2, 0, 0)),
    });
    expect(result.code).toBe(69);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^error: Logging in as erp@t11\\.test \\(POST ${platform.url.replace(/\./g, '\\.')}/v1/auth/token\\) failed: No answer from \\S+ after 2 attempts: the connection to \\S+ was cut before an answer came \\(UND_ERR_SOCKET\\)\\. .+ Stopped: no request is sent without the login, so the items it held back were not sent; when the platform is back, run: .*b2bctl stock push stock\\.csv .*--resume stock\\.report-20261130-020000\\.csv$`,
      ),
    );
    // The summary and the closing line agree with the report: nothing failed, three not sent.
    expect(lines).toContainEqual(
      expect.stringMatching(/^stock push: 3 not sent; 2 requests, 1 retry, 0 throttled \(429\);/),
    );
    expect(result.closingLine).toMatch(/: 3 not sent; exit 69$/);
    expect(readReport(join(folder, onlyReport(folder, 'stock')))).toEqual([]);
    expect(result.stderr).not.toMatch(/failed because|errors: /);
    // The token route alone was called (twice: --retries 1), never the stock route.
    expect(platform.received).toEqual(['POST /v1/auth/token', 'POST /v1/auth/token']);
  });
});
