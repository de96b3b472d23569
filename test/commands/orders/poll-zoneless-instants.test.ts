/**
 * orders poll against a platform that writes its update instants without a zone (Java's LocalDateTime), in its own
 * wall clock, which may be hours from this machine's (Brasília's on a UTC server): the platform lists an order by its
 * true instant, while b2bctl can only read the text in this machine's zone. Each version is emitted once across
 * normal runs whatever the difference, remembered while the platform lists it, and forgotten once it no longer does;
 * one warning a run says what the difference changes and what to set. A real HTTP platform, a fake clock that moves
 * only between runs, as cron's minutes do.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const start = Date.parse('2026-11-30T11:35:00.000Z');
const hour = 3_600_000;
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * `ms` as a wall clock `shiftMs` from this machine's, with no zone: this machine reads it `shiftMs` from the true
 * instant (a platform writing Brasília's time is read three hours early on a UTC machine), whatever its TZ.
 */
function writtenWithoutZone(ms: number, shiftMs: number): string {
  const wall = new Date(ms + shiftMs);
  return `${wall.getFullYear()}-${pad(wall.getMonth() + 1)}-${pad(wall.getDate())}T${pad(wall.getHours())}:${pad(wall.getMinutes())}:${pad(wall.getSeconds())}.${pad(wall.getMilliseconds(), 3)}`;
}

interface StoredOrder {
  id: number;
  /** The true update instant, by which the platform filters its listing. */
  updated: number;
}

/**
 * The listing of a platform writing its instants `shiftMs` off this machine's reading and filtering by the true ones
 * (both bounds inclusive, newest first by creation, paged by offset); its Date header is the test's clock. Counts, per
 * order, the listings that answered it.
 */
function useZonelessListing(orders: StoredOrder[], shiftMs: number, clock: FakeClock): Map<number, number> {
  const listedTimes = new Map<number, number>();
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const query = new URL(request.url ?? '/', platform.url).searchParams;
    const [from, to] = [Date.parse(query.get('updatedFrom') ?? ''), Date.parse(query.get('updatedTo') ?? '')];
    const offset = Number(query.get('offset'));
    const inside = orders
      .filter((order) => order.updated >= from && order.updated <= to)
      .toSorted((left, right) => right.id - left.id)
      .slice(offset, offset + Number(query.get('limit')));
    for (const order of inside) listedTimes.set(order.id, (listedTimes.get(order.id) ?? 0) + 1);
    response.writeHead(200, { 'content-type': 'application/json', date: new Date(clock.now()).toUTCString() });
    response.end(JSON.stringify(inside.map((order) => entry(order, shiftMs))));
  };
  return listedTimes;
}

const entry = (order: StoredOrder, shiftMs: number) => ({
  id: order.id,
  orderId: 500_000 + order.id,
  status: 'AWAITING_PAYMENT',
  lastUpdated: writtenWithoutZone(order.updated, shiftMs),
});

function poll(configDir: string, clock: FakeClock, args: string[] = []) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['orders', 'poll', '-o', 'ndjson', '--since', '10m', ...args], { configDir, env, clock });
}

function rememberedVersions(configDir: string): string[] {
  const file = join(configDir, 'cursors', 'default.orders-poll.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { emitted: string[] }).emitted;
}

describe('orders poll, update instants written without a zone in the platform’s wall clock', () => {
  it.each([
    ['three hours behind this machine’s (Brasília’s on a UTC server)', -3 * hour],
    ['five and a half hours ahead of it (India’s)', 5.5 * hour],
    ['this machine’s own', 0],
  ])(
    'a clock %s: 40 versions listed again by the next runs are emitted once, and forgotten once no longer listed',
    async (_zone, shiftMs) => {
      const clock = new FakeClock(start);
      // More than a page: the first run reads the window by offset and hands it over in steps of 16.
      const orders = Array.from({ length: 40 }, (_, index) => ({ id: index + 1, updated: start - 60_000 + index }));
      const listedTimes = useZonelessListing(orders, shiftMs, clock);
      const configDir = freshConfigDir();
      const emitted: number[] = [];
      // A run a minute: until the versions leave the look-back (300 s), every run lists them again.
      for (let minute = 0; minute < 7; minute++) {
        const result = await poll(configDir, clock);
        expect(result.code).toBe(0);
        emitted.push(ndjsonOf(result.stdout).length);
        clock.advance(60_000);
      }
      expect(emitted).toEqual([40, 0, 0, 0, 0, 0, 0]);
      // Each order listed by the first six runs (the first twice: its pages overlap), by the seventh no longer.
      expect(new Set([...listedTimes.values()].map((times) => times >= 6))).toEqual(new Set([true]));
      expect(listedTimes.size).toBe(40);
      // Listed no more, so remembered no more: the cursor file stays the size of the look-back. Read ahead of the
      // platform's, an instant is remembered until this machine's reading of it leaves the look-back, as before.
      const ahead = orders.map((order) => `${order.id}@${new Date(order.updated + shiftMs).toISOString()}`);
      // (Order 1's stamp falls on a whole second, `.000`, which a platform padding whole seconds writes: it is also
      // remembered by the digest of its entry, after the key a release before this one reads.)
      const remembered = rememberedVersions(configDir);
      expect(remembered.filter((key) => !key.includes('#'))).toEqual(shiftMs > 0 ? ahead.toSorted() : []);
      expect(remembered.filter((key) => key.includes('#')).map((key) => key.split('#')[0])).toEqual(
        shiftMs > 0 ? [ahead[0]] : [],
      );
    },
  );

  it('the versions remembered are id@instant keys, as the previous release writes and reads them', async () => {
    const clock = new FakeClock(start);
    useZonelessListing([{ id: 7, updated: start - 60_000 }], -3 * hour, clock);
    const configDir = freshConfigDir();
    expect((await poll(configDir, clock)).code).toBe(0);
    // This machine's reading of the instant, three hours early: kept because the platform lists it in the window.
    const key = `7@${new Date(start - 60_000 - 3 * hour).toISOString()}`;
    // Its stamp on a whole second (`.000`) is also kept with the digest of its entry, after the key a release before
    // this one reads (which passes over the other).
    expect(rememberedVersions(configDir)).toEqual([key, expect.stringMatching(new RegExp(`^${key}#[\\w-]{16}$`))]);
  });

  it('--detail: the newer version the detail shows is not emitted again when the next run lists it', async () => {
    const clock = new FakeClock(start);
    const order = { id: 9, updated: start - 60_000 };
    useZonelessListing([order], -3 * hour, clock);
    const details: string[] = [];
    platform.routes['GET /v1/orders/9'] = (_request, _body, response) => {
      // Updated between the listing and its detail: the detail is the newer version.
      if (details.length === 0) order.updated = start - 30_000;
      details.push(writtenWithoutZone(order.updated, -3 * hour));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ...entry(order, -3 * hour), items: [] }));
    };
    const configDir = freshConfigDir();
    const first = await poll(configDir, clock, ['--detail']);
    expect(first.code).toBe(0);
    expect(ndjsonOf<{ lastUpdated: string }>(first.stdout).map((line) => line.lastUpdated)).toEqual([
      writtenWithoutZone(start - 30_000, -3 * hour),
    ]);
    clock.advance(60_000);
    const second = await poll(configDir, clock, ['--detail']);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('');
    // The second run listed the newer version and fetched no detail: it had nothing new to write.
    expect(details).toHaveLength(1);
  });

  it('warns once a run that the platform’s zone is another, what it changes and what to set', async () => {
    const clock = new FakeClock(start);
    const written = writtenWithoutZone(start - 60_000, -3 * hour);
    useZonelessListing([{ id: 7, updated: start - 60_000 }], -3 * hour, clock);
    const result = await poll(freshConfigDir(), clock);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning'))).toEqual([
      `warning: the platform writes update instants without a time zone, and in a zone other than this machine's (${zone}): it listed "${written}" among the orders updated ${new Date(start - 600_000).toISOString()} … ${new Date(start - 2_000).toISOString()}. Each version is still emitted once: b2bctl keeps such an order in the window the platform lists it in, and remembers it while the platform lists it. Only the instant in --out-dir's file names is read in this machine's zone (${zone}); run b2bctl with TZ set to the platform's zone (TZ=America/Sao_Paulo for Brasília) to have it read in the platform's.`,
    ]);
  });

  it('a platform whose zone may be this machine’s: the warning says nothing needs setting for each version to be once', async () => {
    const clock = new FakeClock(start);
    const written = writtenWithoutZone(start - 60_000, 0);
    useZonelessListing([{ id: 7, updated: start - 60_000 }], 0, clock);
    const result = await poll(freshConfigDir(), clock);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning'))).toEqual([
      `warning: the platform writes update instants without a time zone ("${written}"): b2bctl keeps such an order in the window the platform lists it in, and remembers it while the platform lists it, so each version is emitted once whatever the platform's zone. Only the instant in --out-dir's file names is read in this machine's zone (${zone}); if the platform's zone is another, run b2bctl with TZ set to the platform's zone (TZ=America/Sao_Paulo for Brasília) to have it read in the platform's.`,
    ]);
  });
});
