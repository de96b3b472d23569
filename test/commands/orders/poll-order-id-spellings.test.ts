/**
 * orders poll against a store that spells one order's id two ways (a user test): `"id": 7` in one answer and
 * `"id": "000007"` in another, as a store behind two gateway nodes does. One order is emitted once, with the id as
 * the platform first gave it, whether the two spellings meet across a page edge of one run or across two runs; an id
 * that is not digits alone (`"07A"`) is another order than `"7"`. From a real HTTP server standing for the store.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { listingAsk, listingPage } from '../../support/scripted-order-listing.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const iso = (ms: number) => new Date(ms).toISOString();
const since = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const until = since + 600_000;

/** What the listing holds, oldest first; how the answer of a page spells each id (by the page's offset). */
let listed: { id: string | number; orderId: number; status: string; lastUpdated: string }[] = [];
let spelled: (id: string | number, offset: number) => string | number = (id) => id;

beforeEach(() => {
  listed = [];
  spelled = (id) => id;
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const ask = listingAsk(request);
    const page = listingPage(listed, ask).map((entry) => ({ ...entry, id: spelled(entry.id, ask.offset) }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  };
});

/** One `orders poll` of the window with the cursor given (a first run from --since); more flags after. */
async function poll(cursor: string, configDir: string, ...flags: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const window = ['--since', iso(since), '--until', iso(until)];
  return await runCommandLine(['orders', 'poll', '-o', 'ndjson', '--cursor', cursor, ...window, ...flags], {
    configDir,
    env,
  });
}

/** `count` orders with ids 1…count, updated a second apart from a minute into the window. */
function orders(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    orderId: 100_001 + index,
    status: 'AWAITING_PAYMENT',
    lastUpdated: iso(since + 60_123 + index * 1000),
  }));
}

const idsOf = (stdout: string) => ndjsonOf(stdout).map((order) => (order as { id: unknown }).id);

describe('orders poll: an order whose id the store spells as a number and as zero-padded digits', () => {
  it('across a page edge: one record per order, its id as the first page gave it', async () => {
    // 30 orders: the page at offset 0 lists 1…25, the next (at 24, overlapping by one) 25…30 as zero-padded text.
    listed = orders(30);
    spelled = (id, offset) => (offset === 0 ? id : String(id).padStart(6, '0'));
    const result = await poll(join(temporaryFolder(), 'cursor.json'), freshConfigDir());
    expect(result.code).toBe(0);
    const ids = idsOf(result.stdout);
    expect(ids.slice(0, 25)).toEqual(Array.from({ length: 25 }, (_, index) => index + 1));
    expect(ids.slice(25)).toEqual(['000026', '000027', '000028', '000029', '000030']);
  });

  it('--out-dir across a page edge: one file for the order on both pages, named as the first page gave its id', async () => {
    listed = orders(30);
    spelled = (id, offset) => (offset === 0 ? id : String(id).padStart(6, '0'));
    const folder = temporaryFolder();
    const outDir = join(folder, 'out');
    expect((await poll(join(folder, 'cursor.json'), freshConfigDir(), '--out-dir', outDir)).code).toBe(0);
    const files = readdirSync(outDir);
    expect(files).toHaveLength(30);
    expect(files.filter((name) => /^0*25-/.test(name))).toEqual([expect.stringMatching(/^25-100025-/)]);
  });

  it('across two runs: the next run, listing it as "000007", emits nothing; a new version of it is emitted', async () => {
    listed = [{ id: 7, orderId: 100_007, status: 'AWAITING_PAYMENT', lastUpdated: iso(until - 10_123) }];
    const folder = temporaryFolder();
    const cursor = join(folder, 'cursor.json');
    const configDir = freshConfigDir();
    const first = await poll(cursor, configDir);
    expect(first.code).toBe(0);
    expect(idsOf(first.stdout)).toEqual([7]);

    spelled = (id) => String(id).padStart(6, '0');
    const again = await poll(cursor, configDir);
    expect(again.code).toBe(0);
    expect(idsOf(again.stdout)).toEqual([]);
    expect(again.stderr).toContain('orders poll: 0 new order versions');

    // A later version is another version, emitted as this answer spells it.
    listed = [{ id: 7, orderId: 100_007, status: 'CANCELED', lastUpdated: iso(until - 5_123) }];
    const changed = await poll(cursor, configDir);
    expect(ndjsonOf(changed.stdout)).toMatchObject([{ id: '000007', status: 'CANCELED' }]);
  });

  it('--out-dir across two runs: a later version spelled "000007" is written under the same order name', async () => {
    listed = [{ id: 7, orderId: 100_007, status: 'AWAITING_PAYMENT', lastUpdated: iso(until - 10_123) }];
    const folder = temporaryFolder();
    const cursor = join(folder, 'cursor.json');
    const outDir = join(folder, 'out');
    const configDir = freshConfigDir();
    expect((await poll(cursor, configDir, '--out-dir', outDir)).code).toBe(0);
    spelled = (id) => String(id).padStart(6, '0');
    listed = [{ id: 7, orderId: 100_007, status: 'CANCELED', lastUpdated: iso(until - 5_123) }];
    expect((await poll(cursor, configDir, '--out-dir', outDir)).code).toBe(0);
    // Two versions, one order: both files named 7-…, as the ERP groups an order's versions by the name's id.
    expect(readdirSync(outDir).map((name) => name.split('-').slice(0, 2).join('-'))).toEqual(['7-100007', '7-100007']);
  });

  it('across two runs on a store stamping whole seconds: the digest of the entry is not fooled by the spelling', async () => {
    const stamp = new Date(until - 10_123).toISOString().replace('.000Z', 'Z');
    listed = [{ id: 7, orderId: 100_007, status: 'AWAITING_PAYMENT', lastUpdated: stamp }];
    const folder = temporaryFolder();
    const cursor = join(folder, 'cursor.json');
    const configDir = freshConfigDir();
    expect(idsOf((await poll(cursor, configDir)).stdout)).toEqual([7]);
    spelled = (id) => String(id).padStart(6, '0');
    const again = await poll(cursor, configDir);
    expect(idsOf(again.stdout)).toEqual([]);
  });

  it('a cursor an older b2bctl wrote, remembering the version as "000007": the run listing 7 emits nothing', async () => {
    listed = [{ id: 7, orderId: 100_007, status: 'AWAITING_PAYMENT', lastUpdated: iso(until - 10_123) }];
    spelled = (id) => String(id).padStart(6, '0');
    const folder = temporaryFolder();
    const cursor = join(folder, 'cursor.json');
    const configDir = freshConfigDir();
    expect(idsOf((await poll(cursor, configDir)).stdout)).toEqual(['000007']);
    // As an older b2bctl remembered it: the id as listed.
    const saved = JSON.parse(readFileSync(cursor, 'utf8')) as { emitted: string[] };
    expect(saved.emitted).toEqual([`7@${iso(until - 10_123)}`]);
    writeFileSync(cursor, JSON.stringify({ ...saved, emitted: [`000007@${iso(until - 10_123)}`] }));
    spelled = (id) => id;
    expect(idsOf((await poll(cursor, configDir)).stdout)).toEqual([]);
  });

  it('"7" and "07A" are two orders, and so are 7 and "7A"', async () => {
    const at = iso(since + 60_000);
    listed = [
      { id: '7', orderId: 100_007, status: 'AWAITING_PAYMENT', lastUpdated: at },
      { id: '07A', orderId: 100_008, status: 'AWAITING_PAYMENT', lastUpdated: at },
      { id: '7A', orderId: 100_009, status: 'AWAITING_PAYMENT', lastUpdated: at },
    ];
    const folder = temporaryFolder();
    const result = await poll(join(folder, 'cursor.json'), freshConfigDir());
    expect(result.code).toBe(0);
    expect(idsOf(result.stdout).toSorted()).toEqual(['07A', '7', '7A']);
  });
});
