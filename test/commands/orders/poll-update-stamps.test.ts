/**
 * orders poll and the update stamps a listing writes, from a real HTTP server: a stamp in a form b2bctl does not read
 * (`30/11/2026 14:22:18`), a `lastUpdated` of `null` on an order never updated since created (a user test), the ISO
 * forms it reads at last (a decimal comma, an offset in hours), and a detail older than the version listed (a user test).
 */
import { readdirSync, readFileSync } from 'node:fs';
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

/** What the listing answers (the whole window, page by page); the details by id. */
let listed: unknown[] = [];
let details: Record<string, unknown> = {};

beforeEach(() => {
  listed = [];
  details = {};
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const page = listingPage(listed, listingAsk(request), { updatedAt: platformInstant });
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  };
  for (const id of ['7', '8'])
    platform.routes[`GET /v1/orders/${id}`] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(details[id]));
});

/**
 * The instant the platform files an entry under, as a platform filters by its own column: the stamp it lists, the
 * creation instant when that is unset (as the tester's platform did), and for a stamp in another form, one inside the
 * window (what it wrote is its own rendering of an instant it knows).
 */
function platformInstant(entry: unknown): number {
  const { lastUpdated, dateCreated } = entry as { lastUpdated?: unknown; dateCreated?: unknown };
  const updated = Date.parse(
    String(lastUpdated ?? '')
      .replace(',', '.')
      .replace(/\+00$/, 'Z'),
  );
  if (updated > 0) return updated;
  const created = Date.parse(String(dateCreated ?? ''));
  return Number.isNaN(created) ? since + 30_000 : created;
}

/** One `orders poll` of the window with a cursor of its own; more flags after. */
async function poll(cursor: string, ...flags: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const window = ['--since', iso(since), '--until', iso(until)];
  return await runCommandLine(['orders', 'poll', '-o', 'ndjson', '--cursor', cursor, ...window, ...flags], {
    configDir: freshConfigDir(),
    env,
  });
}

/** An instant of the window as a date and time with no zone and no fraction, for a test to write its own. */
const at = (offset: number) => new Date(since + offset).toISOString().slice(0, 19);
const listedAt = () => iso(since + 60_000);

const cursorOf = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { cursor: string }).cursor;

describe('orders poll: an update stamp in a form b2bctl does not read (a user test)', () => {
  it('quotes the field and its value, names no setting, and a run that could read no entry exits 69', async () => {
    listed = [
      { id: 7, orderId: 1007, status: 'NEW', lastUpdated: '30/11/2026 14:22:18' },
      { id: 8, orderId: 1008, status: 'NEW', lastUpdated: '30/11/2026 14:23:00' },
    ];
    const cursor = join(temporaryFolder('b2bctl-stamps-'), 'cursor.json');
    const result = await poll(cursor);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `warning: 2 listed entries had an update stamp b2bctl cannot read: order 7's lastUpdated holds "30/11/2026 14:22:18", which is no instant b2bctl reads (ISO-8601 text such as 2026-11-30T14:22:18-03:00, or epoch seconds or milliseconds); they were not emitted and the cursor was not moved past them. No setting reads such a stamp`,
    );
    expect(result.stderr).not.toContain('Set answers.orders');
    expect(result.stderr).toContain(
      `error: orders poll: none of the 2 entries the platform listed could be read (see the warning): nothing was emitted, and the cursor stays at ${iso(since)}.`,
    );
    expect(cursorOf(cursor)).toBe(iso(since));
  });

  it('beside a readable order: that one is emitted, the other quoted, exit 0 (the cursor held before it)', async () => {
    listed = [
      { id: 7, orderId: 1007, status: 'NEW', lastUpdated: iso(since + 60_000) },
      { id: 8, orderId: 1008, status: 'NEW', lastUpdated: '0000-00-00 00:00:00' },
    ];
    const cursor = join(temporaryFolder('b2bctl-stamps-'), 'cursor.json');
    const result = await poll(cursor);
    expect(result.code).toBe(0);
    expect(ndjsonOf<{ id: number }>(result.stdout).map((order) => order.id)).toEqual([7]);
    expect(result.stderr).toContain(
      `warning: 1 listed entry had an update stamp b2bctl cannot read: order 8's lastUpdated holds "0000-00-00 00:00:00"`,
    );
    expect(cursorOf(cursor)).toBe(iso(since));
  });

  // The warning quotes the value as JSON, at most 60 characters of it: 60 whole, 61 cut to 59 and `…`.
  it.each([
    ['y'.repeat(58), `"${'y'.repeat(58)}"`],
    ['y'.repeat(59), `"${'y'.repeat(58)}…`],
  ])('quotes an unread stamp at most 60 characters long (%s)', async (stamp, shown) => {
    listed = [{ id: 9, orderId: 1009, status: 'NEW', lastUpdated: stamp }];
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'));
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      `warning: 1 listed entry had an update stamp b2bctl cannot read: order 9's lastUpdated holds ${shown}, which is no instant b2bctl reads`,
    );
  });

  it('reads the ISO forms it did not: a decimal comma, an offset in hours after T, a space', async () => {
    listed = [
      { id: 7, orderId: 1007, status: 'NEW', lastUpdated: `${at(60_000)},123Z` },
      { id: 8, orderId: 1008, status: 'NEW', lastUpdated: `${at(120_000)}.5+00` },
      { id: 9, orderId: 1009, status: 'NEW', lastUpdated: `${at(180_000).replace('T', ' ')}.780308+00` },
    ];
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'));
    expect(result.code).toBe(0);
    expect(ndjsonOf<{ id: number }>(result.stdout).map((order) => order.id)).toEqual([7, 8, 9]);
    expect(result.stderr).not.toContain('warning');
  });
});

describe('orders poll: an order never updated since created, listed with lastUpdated null (a user test)', () => {
  it.each([null, '', '0000-00-00 00:00:00', 'null', '0001-01-01T00:00:00'])(
    'is emitted as of its creation instant, said in a note; the cursor moves on, the next run emits nothing again (%j)',
    async (unset) => {
      listed = [
        { id: 7, orderId: 1007, status: 'NEW', lastUpdated: iso(since + 60_000), dateCreated: iso(since) },
        { id: 8, orderId: 1008, status: 'NEW', lastUpdated: unset, dateCreated: iso(since + 120_000) },
      ];
      const cursor = join(temporaryFolder('b2bctl-stamps-'), 'cursor.json');
      const first = await poll(cursor);
      expect(first.code).toBe(0);
      expect(ndjsonOf<{ id: number }>(first.stdout).map((order) => order.id)).toEqual([7, 8]);
      expect(first.stderr).toContain(
        "orders poll: 1 order version listed with lastUpdated unset (never updated since created), emitted as of the creation instant (dateCreated); each order's first update is a new version.",
      );
      expect(first.stderr).not.toContain('warning');
      expect(cursorOf(cursor)).toBe(iso(until));
      const again = await poll(cursor);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe('');
    },
  );

  it('without a creation instant it is still an entry b2bctl cannot read, with the advice about the fields', async () => {
    listed = [{ id: 8, orderId: 1008, status: 'NEW', lastUpdated: null }];
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'));
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      'warning: 1 listed entries had no id or update instant b2bctl recognises; they were not emitted and the cursor was not moved past them. Set answers.orders.id or answers.orders.lastUpdated',
    );
  });
});

/** The listing's stamp to the millisecond; the detail's the same version, serialised otherwise (a user test). */
const listedMs = () => iso(since + 60_786);
const minuteOf = (ms: number) => iso(Math.floor(ms / 60_000) * 60_000).replace(':00.000Z', 'Z');

describe('orders poll --detail: a detail older than the version listed (a user test)', () => {
  beforeEach(() => {
    listed = [{ id: 7, orderId: 1007, status: 'INVOICED', lastUpdated: listedAt() }];
    details['7'] = {
      id: 7,
      orderId: 1007,
      status: 'AWAITING_PAYMENT',
      lastUpdated: '2026-11-28T10:00:00.000Z',
      items: [{ sku: 'A', quantity: 1 }],
    };
  });

  it('writes the listing entry in its place, with a warning', async () => {
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(result.code).toBe(0);
    expect(ndjsonOf<{ status: string }>(result.stdout)).toEqual([listed[0]]);
    expect(result.stderr).toContain(
      `warning: order 7 is listed updated ${listedAt()}, but its detail is an older version (updated 2026-11-28T10:00:00.000Z: a platform replica lagging behind): its listing entry was written in its place; b2bctl orders get 7 reads it later.`,
    );
  });

  it('--out-dir: the file named by the listed version holds that version', async () => {
    const folder = temporaryFolder('b2bctl-stamps-');
    const result = await poll(join(folder, 'cursor.json'), '--detail', '--out-dir', join(folder, 'out'));
    expect(result.code).toBe(0);
    const [file] = readdirSync(join(folder, 'out'));
    expect(file).toBe(`7-1007-${listedAt().replace(/[-:.]/g, '')}.json`);
    expect(JSON.parse(readFileSync(join(folder, 'out', file!), 'utf8'))).toMatchObject({ status: 'INVOICED' });
  });

  it('a detail as new as the listing, or newer, is written as before', async () => {
    details['7'] = { ...(details['7'] as object), status: 'SHIPPED', lastUpdated: listedAt() };
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(ndjsonOf<{ status: string }>(result.stdout).map((order) => order.status)).toEqual(['SHIPPED']);
    expect(result.stderr).not.toContain('older version');
  });

  it.each([
    ['to the minute', () => minuteOf(since + 60_786)],
    ['to the second', () => iso(since + 60_000).replace('.000Z', 'Z')],
    [
      'without a zone (the platform’s wall clock, three hours behind UTC)',
      () => iso(since + 60_786 - 3 * 3_600_000).slice(0, -1),
    ],
  ])('a detail stamped %s, the version listed to the millisecond, is written with its lines', async (_name, stamp) => {
    listed = [{ id: 7, orderId: 1007, status: 'INVOICED', lastUpdated: listedMs() }];
    details['7'] = { ...(details['7'] as object), status: 'INVOICED', lastUpdated: stamp() };
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(result.code).toBe(0);
    expect(ndjsonOf(result.stdout)).toEqual([details['7']]);
    expect(result.stderr).not.toContain('older version');
  });

  it('a detail whose whole minute ends before the listed instant is still older: the listing entry is written', async () => {
    listed = [
      { id: 7, orderId: 1007, status: 'INVOICED', lastUpdated: iso(Math.ceil((since + 60_786) / 60_000) * 60_000 + 5) },
    ];
    details['7'] = { ...(details['7'] as object), lastUpdated: minuteOf(since + 60_786) };
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(ndjsonOf(result.stdout)).toEqual([listed[0]]);
    expect(result.stderr).toContain('but its detail is an older version');
  });
});

describe('orders poll --detail: a detail in an envelope of the store’s own ({"pedido":{…}})', () => {
  it('is written as it came, with one warning a run naming answers.order.detail', async () => {
    listed = [
      { id: 7, orderId: 1007, status: 'NEW', lastUpdated: listedAt() },
      { id: 8, orderId: 1008, status: 'NEW', lastUpdated: listedAt() },
    ];
    details['7'] = { pedido: { id: 7, orderId: 1007, status: 'NEW', lastUpdated: listedAt() } };
    details['8'] = { pedido: { id: 8, orderId: 1008, status: 'NEW', lastUpdated: listedAt() } };
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(result.code).toBe(0);
    expect(ndjsonOf(result.stdout)).toEqual([details['7'], details['8']]);
    const warnings = result.stderr.split('\n').filter((line) => line.includes('shows neither an id nor a number'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/set answers\.order\.detail to it \(b2bctl orders get [78] shows the answer\)\.$/);
  });

  it('a detail wrapped twice ({"order":{"data":{…}}}) is unwrapped to the order by poll --detail and orders get', async () => {
    listed = [{ id: 7, orderId: 1007, status: 'NEW', lastUpdated: listedAt() }];
    const order = { id: 7, orderId: 1007, status: 'NEW', lastUpdated: listedAt(), items: [{ sku: 'X', quantity: 2 }] };
    details['7'] = { order: { data: order } };
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(result.code).toBe(0);
    expect(ndjsonOf(result.stdout)).toEqual([order]);
    expect(result.stderr).not.toContain('shows neither an id nor a number');
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const got = await runCommandLine(['orders', 'get', '7', '-o', 'json'], { configDir: freshConfigDir(), env });
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual(order);
  });

  it('a detail that shows its id says nothing of the kind', async () => {
    listed = [{ id: 7, orderId: 1007, status: 'NEW', lastUpdated: listedAt() }];
    details['7'] = { data: { id: 7, orderId: 1007, status: 'NEW', lastUpdated: listedAt() } };
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('shows neither an id nor a number');
  });
});

/** A user test: both details as listed, status OLD, with `stamp` in place of their lastUpdated (absent: left out). */
function detailsWith(stamp: Record<string, unknown>) {
  for (const id of [7, 8]) details[String(id)] = { id, orderId: 1000 + id, status: 'OLD', ...stamp };
}

const unreadWarning = (id: number, shown: string) =>
  `warning: order ${id} is listed updated ${listedAt()}, but its detail shows no update instant b2bctl reads (${shown}), so b2bctl cannot tell whether it is that version or an older one (a platform replica lagging behind): it was written as it came, as every such detail of this run. b2bctl orders get ${id} shows the answer; if the detail keeps its update instant under a field of its own, set answers.orders.lastUpdated to it.`;

describe('orders poll --detail: a detail whose update stamp b2bctl cannot read (a user test)', () => {
  beforeEach(() => {
    listed = [
      { id: 7, orderId: 1007, status: 'INVOICED', lastUpdated: listedAt() },
      { id: 8, orderId: 1008, status: 'INVOICED', lastUpdated: listedAt() },
    ];
  });

  it.each([
    ['null', { lastUpdated: null }, 'its update stamp unset or absent'],
    ['""', { lastUpdated: '' }, 'its update stamp unset or absent'],
    ['absent', {}, 'its update stamp unset or absent'],
    ['not ISO', { lastUpdated: '28/11/2026 10:00:00' }, 'lastUpdated "28/11/2026 10:00:00"'],
    ['null with the creation instant', { lastUpdated: null, dateCreated: listedAt() }, 'lastUpdated unset'],
    // A creation instant before the update listed says nothing of the version either (a route that leaves it null).
    [
      'null with an older creation instant',
      { lastUpdated: null, dateCreated: '2026-11-01T00:00:00.000Z' },
      'lastUpdated unset',
    ],
  ])(
    'lastUpdated %s: the details are written as they came, exit 0, one warning a run naming the order and the stamp',
    async (_name, stamp, shown) => {
      detailsWith(stamp);
      const cursor = join(temporaryFolder('b2bctl-stamps-'), 'cursor.json');
      const result = await poll(cursor, '--detail');
      expect(result.code).toBe(0);
      expect(ndjsonOf(result.stdout)).toEqual([details['7'], details['8']]);
      const warnings = result.stderr.split('\n').filter((line) => line.includes('shows no update instant'));
      expect(warnings).toEqual([unreadWarning(7, shown)]);
      expect(result.stderr).not.toContain('older version');
      expect(cursorOf(cursor)).toBe(iso(until));
    },
  );

  it('--out-dir: the files, named by the listed version, hold the details as they came, with the warning', async () => {
    detailsWith({ lastUpdated: null });
    const folder = temporaryFolder('b2bctl-stamps-');
    const result = await poll(join(folder, 'cursor.json'), '--detail', '--out-dir', join(folder, 'out'));
    expect(result.code).toBe(0);
    const files = readdirSync(join(folder, 'out')).toSorted();
    expect(files).toEqual([7, 8].map((id) => `${id}-${1000 + id}-${listedAt().replace(/[-:.]/g, '')}.json`));
    expect(JSON.parse(readFileSync(join(folder, 'out', files[0]!), 'utf8'))).toMatchObject({ status: 'OLD' });
    expect(result.stderr).toContain(unreadWarning(7, 'its update stamp unset or absent'));
  });

  it('a detail whose stamp is read, and a listing and detail both never updated, say nothing of the kind', async () => {
    detailsWith({ lastUpdated: listedAt() });
    const result = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('shows no update instant');
    const created = iso(since + 30_000);
    listed = [{ id: 7, orderId: 1007, status: 'NEW', lastUpdated: null, dateCreated: created }];
    details['7'] = { ...(listed[0] as object) };
    const never = await poll(join(temporaryFolder('b2bctl-stamps-'), 'cursor.json'), '--detail');
    expect(never.code).toBe(0);
    expect(ndjsonOf(never.stdout)).toEqual([details['7']]);
    expect(never.stderr).not.toContain('shows no update instant');
  });
});
