/**
 * A platform that takes fewer items per request than b2bctl sends (the route's maximum) answers every request with
 * the same 422: the run ended "records to fix and feed back" with a feed-back command that fails again the same way
 * (a user test). A line now says every request was refused whole with that answer, and that --batch-size N is what a
 * feed-back then needs; a run whose requests were not all refused alike has no such line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

/** `stock push` of 120 items in batches of 50 through the batch route, the platform taking at most `limit` a request. */
async function pushTo(limit: number) {
  platform.routes['PUT /v1/stock/batch'] = (_request, body, response) => {
    const items = (JSON.parse(body) as { items: { sku: string }[] }).items;
    if (items.length > limit)
      return response
        .writeHead(422, { 'content-type': 'application/json' })
        .end(`{"status":"UNPROCESSABLE_ENTITY","message":"batch must hold 1 to ${limit} items"}`);
    const results = items.map((item) => ({ sku: item.sku, status: 'APPLIED' }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  };
  const folder = freshWorkDir();
  const rows = Array.from({ length: 120 }, (_, place) => `S${place};${place}`);
  writeFileSync(join(folder, 'stock.csv'), ['sku;quantity', ...rows, ''].join('\r\n'));
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const args = ['stock', 'push', 'stock.csv', '--route', 'batch', '--concurrency', '1'];
  return await runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
}

describe('stock push against a platform taking fewer items per request than sent', () => {
  it('every request refused whole with the same 422: says so, and that the feed-back needs --batch-size N; exit 1', async () => {
    const result = await pushTo(10);
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(Array.from({ length: 3 }, () => 'PUT /v1/stock/batch'));
    expect(result.stderr).toContain(
      `warning: every request of the run (3, of up to 50 items) was refused whole with the same answer: PUT ${platform.url}/v1/stock/batch failed with HTTP 422: batch must hold 1 to 10 items. If the platform takes fewer items per request than that, the records may have nothing to fix: add --batch-size N (what it takes) to the command that feeds the errors file back.`,
    );
  });

  it('a run with one request taken (the last, of 20 items) has no such line', async () => {
    const result = await pushTo(20);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('refused whole');
  });
});
