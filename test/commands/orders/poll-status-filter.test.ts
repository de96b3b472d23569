/**
 * orders poll --status against a listing that ignores the `status` parameter (as a server does one it does not know,
 * whatever the platform document says of the listing), from a real HTTP server: an order of another
 * status is not emitted, the run says once that the platform did not filter, and the cursor moves over the window
 * read whole, as it does for a platform that filters.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { listingAsk, listingPage } from '../../support/scripted-order-listing.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const iso = (ms: number) => new Date(ms).toISOString();
const since = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const until = since + 600_000;

/** Orders of two statuses, one written in small letters, and one that shows no status at all. */
const orders = [
  { id: 1001, orderId: 201001, status: 'AWAITING_PAYMENT', lastUpdated: iso(since + 60_000) },
  { id: 1002, orderId: 201002, status: 'READY_TO_SHIP', lastUpdated: iso(since + 120_000) },
  { id: 1003, orderId: 201003, status: 'AWAITING_PAYMENT', lastUpdated: iso(since + 180_000) },
  { id: 1004, orderId: 201004, status: 'ready_to_ship', lastUpdated: iso(since + 240_000) },
  { id: 1005, orderId: 201005, lastUpdated: iso(since + 300_000) },
  { id: 1006, orderId: 201006, status: 'CANCELED', lastUpdated: iso(since + 360_000) },
];

/** A listing that reads its bounds and pages, and ignores `status`; the queries it was sent, in order. */
function useListingIgnoringStatus(): URLSearchParams[] {
  const asked: URLSearchParams[] = [];
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const ask = listingAsk(request);
    asked.push(ask.query);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(listingPage(orders, ask)));
  };
  return asked;
}

/**
 * The detail route: each order as listed, with what `changes` gives its id over it (a field set to undefined is
 * left out); the ids whose detail was asked, in order.
 */
function useDetails(changes: Record<number, Record<string, unknown>>): number[] {
  const asked: number[] = [];
  platform.routes['GET /v1/orders/*'] = (request, _body, response) => {
    const id = Number(request.url?.split('/').at(-1));
    asked.push(id);
    const detail = { ...orders.find((order) => order.id === id), ...changes[id] };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(detail));
  };
  return asked;
}

function poll(configDir: string, args: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['orders', 'poll', '-o', 'ndjson', '--since', iso(since), '--until', iso(until), ...args], {
    configDir,
    env,
  });
}

const emittedIds = (stdout: string) => ndjsonOf<{ id: number }>(stdout).map((order) => order.id);

describe('orders poll --status, a listing that does not filter by status', () => {
  it('emits only the orders of the statuses asked, says once how many it left out, moves the cursor', async () => {
    const asked = useListingIgnoringStatus();
    const configDir = freshConfigDir();
    const result = await poll(configDir, ['--status', 'READY_TO_SHIP']);
    expect(result.code).toBe(0);
    // The status sent all the same (a platform that filters is helped by it), and only the orders of that status
    // emitted: in small letters too, and the one that shows no status, which nothing here can check.
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((query) => query.getAll('status').join() === 'READY_TO_SHIP')).toBe(true);
    expect(emittedIds(result.stdout)).toEqual([1002, 1004, 1005]);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      'warning: the platform listed 3 orders of another status than READY_TO_SHIP though --status was sent: it did not filter its listing by status, so b2bctl left them out itself.',
      'warning: 1 listed order showed no status, so --status could not be checked on it: it was emitted as the platform listed it for the status asked.',
      `orders poll: 3 new order versions updated ${iso(since)} … ${iso(until)}; cursor ${iso(until)}.`,
    ]);
    const cursorFile = join(configDir, 'cursors', 'default.orders-poll.status-READY_TO_SHIP.json');
    expect((JSON.parse(readFileSync(cursorFile, 'utf8')) as { cursor: string }).cursor).toBe(iso(until));
  });

  it('two statuses: an order of either is kept, the others counted', async () => {
    useListingIgnoringStatus();
    const configDir = freshConfigDir();
    const result = await poll(configDir, ['--status', 'AWAITING_PAYMENT', '--status', 'CANCELED']);
    expect(result.code).toBe(0);
    expect(emittedIds(result.stdout)).toEqual([1001, 1003, 1005, 1006]);
    expect(result.stderr.trimEnd().split('\n')[0]).toBe(
      'warning: the platform listed 2 orders of another status than AWAITING_PAYMENT or CANCELED though --status was sent: it did not filter its listing by status, so b2bctl left them out itself.',
    );
  });

  it('without --status every listed order is emitted and nothing is said of statuses', async () => {
    const asked = useListingIgnoringStatus();
    const result = await poll(freshConfigDir(), []);
    expect(result.code).toBe(0);
    expect(asked.every((query) => !query.has('status'))).toBe(true);
    expect(emittedIds(result.stdout)).toEqual(orders.map((order) => order.id));
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      `orders poll: 6 new order versions updated ${iso(since)} … ${iso(until)}; cursor ${iso(until)}.`,
    ]);
  });
});

describe('orders poll --status --detail: the status checked is the one the detail shows', () => {
  const otherListed =
    'warning: the platform listed 3 orders of another status than READY_TO_SHIP though --status was sent: it did not filter its listing by status, so b2bctl left them out itself.';

  it('an order listed ready to ship whose detail says cancelled, and one listed without a status whose detail says unpaid, are left out', async () => {
    useListingIgnoringStatus();
    const details = useDetails({
      1002: { status: 'CANCELED', lastUpdated: iso(since + 130_000) },
      1004: { status: undefined },
      1005: { status: 'AWAITING_PAYMENT' },
    });
    const configDir = freshConfigDir();
    const result = await poll(configDir, ['--status', 'READY_TO_SHIP', '--detail']);
    expect(result.code).toBe(0);
    // Details asked only for the orders the listing kept; 1004's shows no status, so its listing's decides.
    expect(details.toSorted()).toEqual([1002, 1004, 1005]);
    expect(emittedIds(result.stdout)).toEqual([1004]);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      otherListed,
      'warning: 2 listed orders showed another status than READY_TO_SHIP in their details, so b2bctl left them out (an order that changed after it was listed is emitted by a later run whose listing shows it with a status asked).',
      `orders poll: 1 new order version updated ${iso(since)} … ${iso(until)}; cursor ${iso(until)}.`,
    ]);
  });

  it('a first run whose orders listed ready to ship all show another status in their details: the spelling is not doubted', async () => {
    useListingIgnoringStatus();
    useDetails({ 1002: { status: 'CANCELED' }, 1004: { status: 'CANCELED' }, 1005: { status: 'AWAITING_PAYMENT' } });
    const result = await poll(freshConfigDir(), ['--status', 'READY_TO_SHIP', '--detail']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      otherListed,
      'warning: 3 listed orders showed another status than READY_TO_SHIP in their details, so b2bctl left them out (an order that changed after it was listed is emitted by a later run whose listing shows it with a status asked).',
      `orders poll: 0 new order versions updated ${iso(since)} … ${iso(until)}; cursor ${iso(until)}.`,
    ]);
  });

  it.each([
    ['its detail shows the status asked: emitted, no warning for it', { status: 'READY_TO_SHIP' }, []],
    [
      'its detail shows none either: emitted, and said',
      {},
      [
        'warning: 1 listed order showed no status (nor its detail), so --status could not be checked on it: it was emitted as the platform listed it for the status asked.',
      ],
    ],
  ])('an order listed without a status, %s', async (_, change, warnings) => {
    useListingIgnoringStatus();
    useDetails({ 1005: change });
    const result = await poll(freshConfigDir(), ['--status', 'READY_TO_SHIP', '--detail']);
    expect(result.code).toBe(0);
    expect(emittedIds(result.stdout)).toEqual([1002, 1004, 1005]);
    expect(result.stderr.trimEnd().split('\n')).toEqual([
      otherListed,
      ...warnings,
      `orders poll: 3 new order versions updated ${iso(since)} … ${iso(until)}; cursor ${iso(until)}.`,
    ]);
  });
});

describe('orders poll, statuses and names given otherwise than as capitals and text', () => {
  // Only `CANCELED` in capitals was read as canceled, and the table printed `[object Object]` (a user test).
  const spelled = [
    { id: 2001, status: 'cancelled', partnerCompanyName: 'Loja A', lastUpdated: iso(since + 60_000) },
    {
      id: 2002,
      status: { code: 'CANCELED', name: 'Cancelado' },
      partnerCompanyName: { nome: 'ACME' },
      lastUpdated: iso(since + 120_000),
    },
    { id: 2003, status: 'Canceled', partnerCompanyName: 'Loja C', lastUpdated: iso(since + 180_000) },
    { id: 2004, status: 'READY_TO_SHIP', partnerCompanyName: 'Loja D', lastUpdated: iso(since + 240_000) },
  ];

  function useSpelledListing(): void {
    platform.routes['GET /v1/orders'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '/', platform.url).searchParams.get('offset'));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(offset === 0 ? spelled : []));
    };
  }

  it.each(['CANCELED', 'CANCELLED', 'canceled'])(
    '--status %s keeps every canceled order, however written',
    async (asked) => {
      useSpelledListing();
      const result = await poll(freshConfigDir(), ['--status', asked]);
      expect(result.code).toBe(0);
      expect(emittedIds(result.stdout)).toEqual([2001, 2002, 2003]);
    },
  );

  it.each([
    ['ready_to_ship', 'READY_TO_SHIP'],
    ['Ready-To-Ship', 'READY_TO_SHIP'],
    ['cancelled', 'CANCELED'],
  ])('--status %s is asked of a listing that filters by the exact text as %s', async (given, sent) => {
    // The listing filtered by the text sent: `status=ready_to_ship` listed nothing and the cursor moved past
    // every order of that status, exit 0 (a user test).
    const asked: string[][] = [];
    platform.routes['GET /v1/orders'] = (request, _body, response) => {
      const query = new URL(request.url ?? '/', platform.url).searchParams;
      asked.push(query.getAll('status'));
      const offset = Number(query.get('offset'));
      const kept = orders.filter(
        (order) => order.status !== undefined && query.getAll('status').includes(order.status),
      );
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(kept.slice(offset, offset + Number(query.get('limit')))));
    };
    const configDir = freshConfigDir();
    const result = await poll(configDir, ['--status', given]);
    expect(result.code).toBe(0);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((statuses) => statuses.join() === sent)).toBe(true);
    const expected = orders.filter((order) => order.status === sent).map((order) => order.id);
    expect(emittedIds(result.stdout)).toEqual(expected);
    expect(result.stderr).not.toContain('warning');
    // One cursor for one filter, however it is spelled.
    expect(readdirSync(join(configDir, 'cursors')).filter((name) => name.endsWith('.json'))).toEqual([
      `default.orders-poll.status-${sent}.json`,
    ]);
  });

  it("the table shows a status object's code and an object name's JSON, never [object Object]", async () => {
    useSpelledListing();
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const args = ['orders', 'poll', '-o', 'table', '--since', iso(since), '--until', iso(until)];
    const result = await runCommandLine(args, { configDir: freshConfigDir(), env, columns: 200 });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('[object Object]');
    const row = result.stdout.split('\n').find((line) => line.startsWith('2002 '));
    expect(row).toMatch(/^2002\s+CANCELED\s+.*\{"nome":"ACME"\}\s*$/);
  });
});
