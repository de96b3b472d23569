/**
 * `stock push` in process: the route --route auto picks and why, and what is reported when the batch route
 * answers 2xx without settling its items (a status b2bctl does not know, or no per-item result at all).
 */
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { B2bctlError } from '../../../src/base/errors.js';
import { runSet } from '../../../src/commands/config/index.js';
import { run as push, type StockPushOptions } from '../../../src/commands/stock/push.js';
import { maskClock, onlyFile, readReport } from '../../support/run-files.js';
import { requestCounts, seedDirectory, useSandbox } from '../../support/sandbox.js';
import { pathOf, type ProxyAction, useScriptedProxy } from '../../support/scripted-proxy.js';
import {
  batchRoute,
  queueDrained,
  queueRoute,
  sampleCsvEntries,
  stockEntries,
  stockSummary,
} from '../../support/stock.js';
import { temporaryFolder } from '../../support/temporary.js';
import type { TestContext } from '../../support/test-context.js';

const fixture = useSandbox();
const proxied = useScriptedProxy();

/** A folder holding a copy of samples/stock.csv (52 items, `;`, decimal commas). */
function stockFolder(): { folder: string; file: string } {
  const folder = temporaryFolder();
  copyFileSync(join(seedDirectory, 'stock.csv'), join(folder, 'stock.csv'));
  return { folder, file: join(folder, 'stock.csv') };
}

function options(file: string, extra: Partial<StockPushOptions> = {}): StockPushOptions {
  return { file, route: 'auto', strict: false, dryRun: false, skipInvalid: false, ...extra };
}

async function setThreshold(test: TestContext, value: string): Promise<void> {
  const setting = fixture().context({ configDir: test.configDir });
  expect(await setting.run(runSet, { key: 'stock.autoThreshold', value })).toBe(0);
}

describe('stock push --route auto', () => {
  it.each([
    [undefined, 'batch', 'stock push: route batch (52 items <= 1000, the stock.autoThreshold setting)'],
    ['51', 'queue', 'stock push: route queue (52 items > 51, the stock.autoThreshold setting)'],
    ['52', 'batch', 'stock push: route batch (52 items <= 52, the stock.autoThreshold setting)'],
  ])('stock.autoThreshold %s: the %s route, and the reason on stderr', async (threshold, route, reason) => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext();
    if (threshold !== undefined) await setThreshold(test, threshold);
    const { folder, file } = stockFolder();
    expect(await test.run(push, options(file))).toBe(0);
    const requests = route === 'batch' ? { [batchRoute]: 2 } : { [queueRoute]: 1 };
    const sending =
      route === 'batch'
        ? 'stock push: sending 52 items in up to 2 requests of up to 50 items through the batch route (concurrency 8)'
        : 'stock push: sending 52 items in up to 1 request of up to 200 items through the queue route (concurrency 8)';
    expect(maskClock(test.stderr(), folder)).toBe(
      [
        'stock push: validating DIR/stock.csv',
        'stock push: 52 records, 52 valid, 0 invalid (T s)',
        reason,
        sending,
        `stock push: 52 ${route === 'batch' ? 'applied' : 'queued'}; ${route === 'batch' ? '2 requests' : '1 request'}, 0 retries, 0 throttled (429); T s, R items/s`,
        'stock push: report: DIR/stock.report-STAMP.csv',
        // Off a terminal the run closes with file, store, counts and exit code (a cron log's last line).
        `stock push: DIR/stock.csv to profile "default" (${sandbox.url}): 52 ${route === 'batch' ? 'applied' : 'queued'}; exit 0`,
        '',
      ].join('\n'),
    );
    expect(await requestCounts(sandbox)).toEqual(requests);
    const outcomes = new Set(readReport(onlyFile(folder, 'stock.report-')).map((row) => row.outcome));
    expect(outcomes).toEqual(new Set([route === 'batch' ? 'applied' : 'queued']));
    if (route === 'queue') await queueDrained(sandbox);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
  });

  it('--route batch and queue are taken as given, whatever the threshold', async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext();
    await setThreshold(test, '0');
    const { folder, file } = stockFolder();
    expect(await test.run(push, options(file, { route: 'batch' }))).toBe(0);
    expect(test.stderr()).not.toContain('stock push: route ');
    expect(await requestCounts(sandbox)).toEqual({ [batchRoute]: 2 });
    expect(readReport(onlyFile(folder, 'stock.report-'))).toHaveLength(52);
  });

  it("--batch-size above the route auto chose: that route's maximum, said (the night's size picked the route)", async () => {
    const { loggedInContext } = fixture();
    const test = await loggedInContext();
    const { file } = stockFolder();
    expect(await test.run(push, options(file, { batchSize: 51 }))).toBe(0);
    expect(test.stderr()).toContain(
      'stock push: --batch-size 51 is more than the batch route takes: batches of 50 items\n',
    );
  });
});

/** The batch route's answers replaced for the first `batches` requests; later ones reach the sandbox. */
async function batchAnswers(answer: (body: { items: { sku: string }[] }) => unknown, batches: number) {
  const { sandbox, loggedInContext } = fixture();
  let answered = 0;
  const proxy = await proxied(sandbox.url, (request): ProxyAction => {
    if (request.method !== 'PUT' || pathOf(request) !== '/v1/stock/batch' || answered >= batches) return undefined;
    answered++;
    return { answer: 200, body: answer(JSON.parse(request.body) as { items: { sku: string }[] }) };
  });
  const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
  return { sandbox, test };
}

const unitemisedWarning =
  'warning: the stock batch route answered 2xx without a per-item result b2bctl recognises; those items are reported "accepted". If the answer holds a list of per-item results, set answers.stockBatch.results (and answers.stockBatch.status) to read them; b2bctl --verbose stock push shows the answer (doctor does not send to the stock routes, which write).';

describe('stock push: batch answers that do not settle their items', () => {
  it('a pending status (PENDING) is "accepted" with that status, warned once as pending (its result was recognised), exit 0', async () => {
    const { sandbox, test } = await batchAnswers(
      (body) => ({ results: body.items.map((item) => ({ sku: item.sku, status: 'PENDING' })) }),
      1,
    );
    const { folder, file } = stockFolder();
    expect(await test.run(push, options(file, { route: 'batch' }))).toBe(0);
    const rows = readReport(onlyFile(folder, 'stock.report-'));
    expect(rows.slice(0, 50).every((row) => row.outcome === 'accepted')).toBe(true);
    expect(rows[0]).toMatchObject({ status: '200', message: 'the platform answered "PENDING" for this item' });
    expect(rows.slice(50).map((row) => row.outcome)).toEqual(['applied', 'applied']);
    expect(
      test
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('warning:')),
    ).toEqual([
      'warning: the stock batch route answered a per-item status saying the item is taken but not yet applied ("PENDING"); those items are reported "accepted".',
    ]);
    expect(test.stderr()).toContain('stock push: 2 applied, 50 accepted;');
    // Only the second batch reached the platform.
    expect(await stockSummary(sandbox)).toMatchObject({ applied: 2 });
  });

  it('two batches answered without any per-item result: every item "accepted", the warning still once', async () => {
    const { sandbox, test } = await batchAnswers(() => ({ ok: true }), 2);
    const { folder, file } = stockFolder();
    expect(await test.run(push, options(file, { route: 'batch' }))).toBe(0);
    const rows = readReport(onlyFile(folder, 'stock.report-'));
    expect(new Set(rows.map((row) => `${row.outcome} ${row.status} ${row.message}`))).toEqual(
      new Set(['accepted 200 the answer did not itemise this item']),
    );
    expect(rows).toHaveLength(52);
    expect(
      test
        .stderr()
        .split('\n')
        .filter((line) => line === unitemisedWarning),
    ).toHaveLength(1);
    expect(await stockSummary(sandbox)).toMatchObject({ applied: 0 });
  });
});

describe('stock push: a config folder whose lock cannot be written', () => {
  // A full or read-only disk said only `ENOSPC: no space left on device, write`, exit 1 (read as "records were
  // rejected"), with no closing line. Here a file holds the locks folder's name: the lock cannot be made either.
  it('names the lock and says nothing was sent, exit 2, the closing line last; nothing sent', async () => {
    const { sandbox, loggedInContext } = fixture();
    const test = await loggedInContext({ globals: { quiet: true } });
    writeFileSync(join(test.configDir, 'locks'), '');
    const { file } = stockFolder();
    expect(await test.run(push, options(file))).toBe(2);
    const lock = join(test.configDir, 'locks', 'default.stock-push.lock');
    expect(test.stderr()).toBe(
      `error: Cannot write the lock ${lock} (EEXIST: file already exists); nothing was sent. Make room on its disk or make it writable, or use a config folder elsewhere (B2BCTL_CONFIG_DIR).\n`,
    );
    // Printed after that line by run-program, as the log's last.
    expect((test.error as B2bctlError).closingLine?.message).toBe(
      `stock push: ${file} to profile "default" (${sandbox.url}): nothing read; exit 2`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

// Refused before the file is read, with the closing line: B2BCTL_ALLOW_HTTP=1 was found when the first request was
// made, leaving a report and a resume command for a run that never started; a stock schema that does not read was
// refused without the closing line a log watcher keys on (a fresh user test).
describe('stock push: a setting the run would refuse', () => {
  it.each([
    [
      'B2BCTL_ALLOW_HTTP',
      '1',
      'Setting "http.allowPlain" must be one of true, false, not "1" (from B2BCTL_ALLOW_HTTP).',
    ],
    [
      'B2BCTL_STOCK_SCHEMA',
      '{bad',
      'The stock schema from the stock.schema setting (from B2BCTL_STOCK_SCHEMA) is not usable: ',
    ],
  ])(
    '%s=%s: exit 2 before the file is read, no report, the closing line last; nothing sent',
    async (variable, value, message) => {
      const { sandbox, loggedInContext } = fixture();
      const test = await loggedInContext({ globals: { quiet: true }, env: { [variable]: value } });
      const { folder, file } = stockFolder();
      expect(await test.run(push, options(file))).toBe(2);
      expect(test.stderr()).toContain(`error: ${message}`);
      expect(test.stderr()).not.toContain('resume');
      expect((test.error as B2bctlError).closingLine?.message).toBe(
        `stock push: ${file} to profile "default" (${sandbox.url}): nothing read; exit 2`,
      );
      expect(readdirSync(folder)).toEqual(['stock.csv']);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );
});
