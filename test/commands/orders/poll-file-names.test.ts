/**
 * orders poll --out-dir, orders whose ids differ only in a character a file name cannot hold as it is (`A-1`, `A_1`,
 * `a/b`, `a b`), updated at one instant and showing no number, from a real HTTP server (a user test): each is written
 * to its own file, named as `webhook listen --fetch-orders` names its files. The `_` written for every such character
 * gave `A-1` and `A_1` one file: one order was in none, exit 0, and the cursor went past both.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { makePrivateFolder } from '../../../src/lib/private-file.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const iso = (ms: number) => new Date(ms).toISOString();
const since = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const until = since + 600_000;
const updatedAt = iso(since + 60_000);
const instant = updatedAt.replace(/[-:.]/g, '');

const orders = [
  { id: 'A-1', total: 10 },
  { id: 'A_1', total: 20 },
  { id: 'a/b', total: 30 },
  { id: 'a b', total: 40 },
  { id: 'a_b', total: 50 },
  // Numbered: `-` inside the id or the number would read as the separator of the name's places.
  { id: 'A', orderId: '1-', total: 60 },
  { id: 'B-2', orderId: '2026-7', total: 70 },
].map((order) => ({ ...order, status: 'PAID', lastUpdated: updatedAt }));

function useListing(): void {
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const offset = Number(new URL(request.url ?? '/', platform.url).searchParams.get('offset'));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(orders.slice(offset)));
  };
}

function poll(folder: string) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(
    ['orders', 'poll', '--since', iso(since), '--until', iso(until), '--out-dir', folder, '--cursor', `${folder}.json`],
    { configDir: freshConfigDir(), env },
  );
}

/** The total of the order each file holds, by file name. */
function totalsByFile(folder: string): Record<string, unknown> {
  return Object.fromEntries(
    readdirSync(folder).map((name) => [
      name,
      (JSON.parse(readFileSync(join(folder, name), 'utf8')) as { total?: unknown }).total,
    ]),
  );
}

describe('orders poll --out-dir, ids a file name cannot hold as they are', () => {
  it('writes each order to its own file, whatever characters its id and number differ in', async () => {
    useListing();
    const folder = join(temporaryFolder('b2bctl-poll-names-'), 'orders');
    const result = await poll(folder);
    expect(result.code).toBe(0);
    expect(result.stderr.trimEnd()).toBe(
      `orders poll: 7 new order versions updated ${iso(since)} … ${iso(until)}; cursor ${iso(until)}.`,
    );
    expect(totalsByFile(folder)).toEqual({
      [`A%2D1--${instant}.json`]: 10,
      [`A_1--${instant}.json`]: 20,
      [`a%2Fb--${instant}.json`]: 30,
      [`a%20b--${instant}.json`]: 40,
      [`a_b--${instant}.json`]: 50,
      [`A-1%2D-${instant}.json`]: 60,
      [`B%2D2-2026%2D7-${instant}.json`]: 70,
    });
  });

  it('a folder holding files an earlier b2bctl named: they are kept as they are, and new versions get the new names', async () => {
    useListing();
    const folder = join(temporaryFolder('b2bctl-poll-names-'), 'orders');
    makePrivateFolder(folder);
    const earlier = `A_1--20261101T000000000Z.json`;
    writeFileSync(join(folder, earlier), '{"id":"A-1","total":1}\n', { mode: 0o600 });
    // A copy a killed run left goes, in the one grammar of b2bctl's temporary names; a file of the user's stays.
    writeFileSync(join(folder, `.${earlier}.0123456789abcdef.tmp`), '{', { mode: 0o600 });
    writeFileSync(join(folder, '.notes.tmp'), '{"total":0}\n', { mode: 0o600 });
    const result = await poll(folder);
    expect(result.code).toBe(0);
    const totals = totalsByFile(folder);
    expect(totals[earlier]).toBe(1);
    expect(totals['.notes.tmp']).toBe(0);
    expect(Object.keys(totals)).toHaveLength(9);
    expect(totals[`A%2D1--${instant}.json`]).toBe(10);
  });
});
