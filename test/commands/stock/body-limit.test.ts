/**
 * `stock push` behind a front with a body limit (nginx's client_max_body_size): a batch refused with 413 is sent
 * again in halves, the rest of the run uses the smaller size, the report is exact and the summary says so.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run as push, type StockPushOptions } from '../../../src/commands/stock/push.js';
import { onlyFile, readReport } from '../../support/run-files.js';
import { seedDirectory, useSandbox } from '../../support/sandbox.js';
import { pathOf, useScriptedProxy } from '../../support/scripted-proxy.js';
import { stockSummary } from '../../support/stock.js';
import { temporaryFolder } from '../../support/temporary.js';

const fixture = useSandbox();
const proxied = useScriptedProxy();

const nginxPage =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** A front that refuses any stock body above `limitBytes` as nginx does, and passes the rest to the sandbox. */
async function frontWithBodyLimit(limitBytes: number, globals: { quiet?: boolean } = {}) {
  const { sandbox, loggedInContext } = fixture();
  const proxy = await proxied(sandbox.url, (request) =>
    pathOf(request) === '/v1/stock/batch' && Buffer.byteLength(request.body) > limitBytes
      ? { answer: 413, body: nginxPage, headers: { 'content-type': 'text/html' } }
      : undefined,
  );
  return { sandbox, proxy, test: await loggedInContext({ globals: { baseUrl: proxy.url, ...globals } }) };
}

function options(file: string, extra: Partial<StockPushOptions> = {}): StockPushOptions {
  return { file, route: 'batch', strict: false, concurrency: 1, dryRun: false, skipInvalid: false, ...extra };
}

describe('stock push behind a 413 body limit', () => {
  it('halves the batch for the rest of the run, resends the refused items, reports each once', async () => {
    // samples/stock.csv: 52 items of ~100 bytes; 1,000 bytes lets ~14 through.
    const { sandbox, proxy, test } = await frontWithBodyLimit(1000);
    const folder = temporaryFolder();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(folder, 'stock.csv'));
    expect(await test.run(push, options(join(folder, 'stock.csv')))).toBe(0);

    const batches = proxy.requests
      .filter((request) => pathOf(request) === '/v1/stock/batch')
      .map((request) => ({
        items: (JSON.parse(request.body) as { items: unknown[] }).items.length,
        refused: Buffer.byteLength(request.body) > 1000,
      }));
    expect(batches.slice(0, 2)).toEqual([
      { items: 50, refused: true },
      { items: 25, refused: true },
    ]);
    // Once a size fits, every later request is at most that size: the run does not try 50 again.
    expect(batches.slice(2).every((batch) => batch.items <= 12 && !batch.refused)).toBe(true);
    expect(batches.slice(2).reduce((total, batch) => total + batch.items, 0)).toBe(52);
    const refused = 2;

    const rows = readReport(onlyFile(folder, 'stock.report-'));
    expect(rows).toHaveLength(52);
    expect(new Set(rows.map((row) => row.outcome))).toEqual(new Set(['applied']));
    expect(new Set(rows.map((row) => row.key)).size).toBe(52);
    expect(await stockSummary(sandbox)).toMatchObject({ applied: 52 });

    const stderr = test.stderr();
    expect(stderr).toMatch(
      /warning: a request of 50 items \(\d+ bytes\) was refused as too large \(HTTP 413, usually a proxy's body limit\); sending 25 per request for the rest of the run\./,
    );
    expect(stderr).toMatch(
      new RegExp(
        `warning: ${refused} requests refused as too large \\(HTTP 413, up to \\d+ bytes\\) were sent again in smaller ones: the run went from 50 to (\\d+) items per request\\. Pass --batch-size \\1 next time\\.`,
      ),
    );
    expect(stderr).toContain('stock push: 52 applied');
  });

  it('says what to pass next time before the closing line, which stays the last line, with --quiet too', async () => {
    const { proxy, test } = await frontWithBodyLimit(1000, { quiet: true });
    const folder = temporaryFolder();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(folder, 'stock.csv'));
    expect(await test.run(push, options(join(folder, 'stock.csv')))).toBe(0);
    const refused = proxy.requests.filter((request) => Buffer.byteLength(request.body) > 1000).length;
    // Logged plain by the test context: one line each, the closing line last (a cron monitor reads `tail -1`).
    expect(test.stderr().split('\n')).toEqual([
      expect.stringMatching(
        /^warning: a request of 50 items \(\d+ bytes\) was refused as too large .* sending 25 per request for the rest of the run\.$/,
      ),
      expect.stringMatching(
        /^warning: a request of 25 items \(\d+ bytes\) was refused as too large .* sending 12 per request for the rest of the run\.$/,
      ),
      expect.stringMatching(
        new RegExp(
          `^warning: ${refused} requests refused as too large \\(HTTP 413, up to \\d+ bytes\\) were sent again in smaller ones: the run went from 50 to 12 items per request\\. Pass --batch-size 12 next time\\.$`,
        ),
      ),
      expect.stringMatching(
        /^stock push: \S+stock\.csv to profile "default" \(http:\/\/127\.0\.0\.1:\d+\): 52 applied; exit 0$/,
      ),
      '',
    ]);
  });

  it('a single item too large for the front fails as before, with the 413 in the report', async () => {
    const { test } = await frontWithBodyLimit(20);
    const folder = temporaryFolder();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(folder, 'stock.csv'));
    expect(await test.run(push, options(join(folder, 'stock.csv')))).toBe(1);
    const rows = readReport(onlyFile(folder, 'stock.report-'));
    expect(rows).toHaveLength(52);
    expect(new Set(rows.map((row) => `${row.outcome} ${row.status}`))).toEqual(new Set(['failed 413']));
  });
});
