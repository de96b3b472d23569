/**
 * `stock push` through a stock route whose 2xx answers a test writes: a proxy in front of the sandbox answers every
 * request to the batch or queue route itself (the sandbox never sees one), and the run is read back as its report
 * and errors file. For the answers the platform document does not show.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StockPushOptions } from '../../src/commands/stock/push.js';
import { filesStartingWith, onlyFile, readErrorsCsv, readReport } from './run-files.js';
import { useSandbox } from './sandbox.js';
import { pathOf, type ProxiedRequest, useScriptedProxy } from './scripted-proxy.js';
import { temporaryFolder } from './temporary.js';

export type StockRoute = 'batch' | 'queue';

const stockRoutes = {
  batch: { method: 'PUT', path: '/v1/stock/batch' },
  queue: { method: 'POST', path: '/api/v1/stocks/batch' },
};

/** The SKUs a stock request carried, in the order sent. */
function skusSent(request: ProxiedRequest): string[] {
  return (JSON.parse(request.body) as { items: { sku: string }[] }).items.map((item) => item.sku);
}

/**
 * Call at the top of a test file: a fresh sandbox for each test, and what starts a logged-in run whose every request
 * to `route` is answered `status` with `answer(the SKUs it sent)` by a proxy, closed after the test. Gives the
 * sandbox, the run's test context, the proxy's URL, and how many requests reached the route.
 */
export function useAnsweredStockRoute() {
  const fixture = useSandbox();
  const proxied = useScriptedProxy();
  return async (route: StockRoute, status: number, answer: (skus: string[]) => unknown) => {
    const { sandbox, loggedInContext } = fixture();
    const { method, path } = stockRoutes[route];
    const proxy = await proxied(sandbox.url, (request) =>
      request.method === method && pathOf(request) === path
        ? { answer: status, body: answer(skusSent(request)) }
        : undefined,
    );
    const test = await loggedInContext({ globals: { baseUrl: proxy.url } });
    const sent = () => proxy.requests.filter((request) => pathOf(request) === path).length;
    return { sandbox, test, url: proxy.url, sent };
  };
}

/** A stock CSV of these SKUs (quantity and price by place), and the options of a push of it through the route. */
export function stockFile(route: StockRoute, skus: readonly string[]): { folder: string; options: StockPushOptions } {
  const folder = temporaryFolder();
  const rows = skus.map((sku, place) => `${sku},${place + 1},${place + 1}.00`);
  writeFileSync(join(folder, 'stock.csv'), ['sku,quantity,price', ...rows, ''].join('\n'));
  const options = { file: join(folder, 'stock.csv'), route, strict: false, dryRun: false, skipInvalid: false };
  return { folder, options };
}

/**
 * The report as `key outcome id message` lines (`key outcome status message` given `status`), and the errors file's
 * SKUs (none when there is no errors file).
 */
export function runRecord(
  folder: string,
  third: 'id' | 'status' = 'id',
): { rows: string[]; errors: (string | undefined)[] } {
  const rows = readReport(onlyFile(folder, 'stock.report-')).map(
    (row) => `${row.key} ${row.outcome} ${row[third]} ${row.message}`,
  );
  const errorsFiles = filesStartingWith(folder, 'stock.errors-');
  const errors = errorsFiles.length === 0 ? [] : readErrorsCsv(onlyFile(folder, 'stock.errors-')).rows;
  return { rows, errors: errors.map((cells) => cells[0]) };
}
