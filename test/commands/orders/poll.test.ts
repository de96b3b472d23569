/**
 * `orders poll` in process: memory streams, a fake clock moved in step with the sandbox's (fixed) clock, the
 * in-process sandbox over real HTTP. What only the arithmetic of time decides is checked here, without waiting:
 * the upper bound fixed at the start minus the lag, the look-back and its memory, the cursor between runs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, type OrdersPollOptions } from '../../../src/commands/orders/poll.js';
import { acquireProfileLock } from '../../../src/config/lock.js';
import { ProfileStore } from '../../../src/config/profile-store.js';
import type { Clock } from '../../../src/base/clock.js';
import { exitCodeOf, OutputClosedError, UsageError } from '../../../src/base/errors.js';
import { dialectNamed, type Dialect } from '../../../src/sandbox/dialects/index.js';
import { sandboxDefaults } from '../../../src/sandbox/options.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { scheduleFault } from '../../support/api-sandbox.js';
import { FakeClock } from '../../support/fake-clock.js';
import { testContext } from '../../support/test-context.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';
import { temporaryFolder } from '../../support/temporary.js';

const seedDirectory = join(import.meta.dirname, '..', '..', '..', 'samples');

let sandbox: RunningSandbox;
let clock: FakeClock;
let configDir: string;
let token: string;

async function setUp(options: { dialect?: Dialect; settings?: Record<string, string> } = {}): Promise<void> {
  sandbox = await startSandbox({
    ...sandboxDefaults,
    port: 0,
    seedDirectory,
    orderCount: 40,
    dialect: options.dialect,
  });
  // Both clocks stand still at one instant and move only together.
  const start = Math.floor(sandbox.state.clock.now() / 1000) * 1000;
  sandbox.state.clock.fixAt(start);
  clock = new FakeClock(start);
  configDir = temporaryFolder('b2bctl-orders-poll-');
  new ProfileStore(configDir).update('default', { 'orders.lag': '2', 'orders.lookback': '300', ...options.settings });
  const answer = await fetch(`${sandbox.url}${options.dialect?.tokenPath ?? '/v1/auth/token'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: sandboxDefaults.username,
      password: sandboxDefaults.password,
    }).toString(),
  });
  const body = (await answer.json()) as Record<string, unknown>;
  token = String(body.access_token ?? body.accessToken ?? body.token ?? (body.data as { token?: string })?.token);
}
afterEach(async () => sandbox?.close());

function advance(ms: number): void {
  clock.advance(ms);
  sandbox.state.clock.advance(ms);
}

/** `closeAfterLines`: a reader (`head -n N`) that closes its end of the pipe on the first line past N. */
async function poll(options: Partial<OrdersPollOptions> = {}, reader: { closeAfterLines?: number } = {}) {
  const memory = testContext({
    env: { B2BCTL_CONFIG_DIR: configDir, B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
    clock,
  });
  if (reader.closeAfterLines !== undefined) closePipeAfter(memory.context.io.stdout, reader.closeAfterLines);
  const listingsBefore = sandbox.state.requestCounts.get('GET /v1/orders') ?? 0;
  let error: unknown;
  try {
    await run(
      { statuses: [], detail: false, watch: false, intervalSeconds: 60, concurrency: 4, ...options },
      memory.context,
    );
  } catch (caught) {
    error = caught;
  }
  const lines = ndjsonOf<Record<string, unknown>>(memory.stdout());
  const listings = (sandbox.state.requestCounts.get('GET /v1/orders') ?? 0) - listingsBefore;
  return { error, lines, versions: lines.map(versionOf), stderr: memory.stderr(), listings };
}

function closePipeAfter(stream: NodeJS.WritableStream, lines: number): void {
  let seen = 0;
  stream.on('data', (chunk: Buffer) => {
    seen += chunk.toString('utf8').split('\n').length - 1;
    if (seen > lines)
      (stream as PassThrough).destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32 }));
  });
}

/**
 * A --watch run whose pauses move both clocks; `onPause(n)` runs after the nth pause, and the watch is stopped
 * (SIGTERM between two runs) after `pauses` of them.
 */
async function watchPoll(
  options: Partial<OrdersPollOptions>,
  watching: { pauses: number; onPause?: (count: number) => void; closeAfterLines?: number },
) {
  let paused = 0;
  const pauseClock: Clock = {
    now: () => clock.now(),
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      advance(ms);
      watching.onPause?.(++paused);
      if (paused >= watching.pauses) memory.interrupt();
      signal?.throwIfAborted();
    },
  };
  const memory = testContext({
    env: { B2BCTL_CONFIG_DIR: configDir, B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
    clock: pauseClock,
  });
  if (watching.closeAfterLines !== undefined) closePipeAfter(memory.context.io.stdout, watching.closeAfterLines);
  const listingsBefore = sandbox.state.requestCounts.get('GET /v1/orders') ?? 0;
  let error: unknown;
  try {
    await run(
      { statuses: [], detail: false, watch: true, intervalSeconds: 60, concurrency: 4, ...options },
      memory.context,
    );
  } catch (caught) {
    error = caught;
  }
  const lines = ndjsonOf<Record<string, unknown>>(memory.stdout());
  const listings = (sandbox.state.requestCounts.get('GET /v1/orders') ?? 0) - listingsBefore;
  return { error, versions: lines.map(versionOf), stderr: memory.stderr(), listings, paused };
}

const iso = (ms: number) => new Date(ms).toISOString();

function versionOf(order: Record<string, unknown>): string {
  return `${String(order.id)}@${String(order.lastUpdated ?? order.updatedAt)}`;
}

const storeVersions = () =>
  [...sandbox.state.orders.orders.values()].map((order) => `${order.id}@${order.lastUpdated}`).toSorted();

/** A run on a terminal (stdout and stderr TTYs): what it printed, as text. */
async function pollOnTerminal(options: Partial<OrdersPollOptions>, columns?: number) {
  const memory = testContext({
    env: { B2BCTL_CONFIG_DIR: configDir, B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token },
    clock,
    tty: { stdout: true, stderr: true },
    columns,
  });
  await run(
    { statuses: [], detail: false, watch: false, intervalSeconds: 60, concurrency: 4, ...options },
    memory.context,
  );
  return { stdout: memory.stdout(), stderr: memory.stderr() };
}

describe('orders poll in process, with a fake clock', () => {
  beforeEach(() => setUp());

  it("a filter's first run that lists nothing says so, and that statuses are written in capitals", async () => {
    const typed = await poll({ since: '31d', statuses: ['enviado'] });
    expect(typed.versions).toEqual([]);
    expect(typed.stderr).toContain(
      "warning: no order has the status enviado in this window. Check the spelling against what the platform lists (b2bctl orders get ID shows an order's status); the platform writes statuses in capitals, such as AWAITING_PAYMENT.",
    );
  });

  it('a status b2bctl knows, typed in small letters, is asked as the platform writes it and finds its orders', async () => {
    // `shipped` was sent as typed: the listing matched nothing and the cursor moved past every shipped order.
    const typed = await poll({ since: '31d', statuses: ['shipped'] });
    expect(typed.versions.map((version) => version.split('@')[0])).toEqual(['8', '12', '16']);
    expect(typed.stderr).not.toContain('warning');
  });

  it('the runs after the first do not reach behind its --since, though the look-back would', async () => {
    // Order 3 was updated a minute ago; the first run starts 30 s ago, after it.
    sandbox.state.orders.update(3, sandbox.state.clock.now() - 60_000);
    const since = new Date(sandbox.state.clock.now() - 30_000).toISOString();
    const first = await poll({ since });
    expect(first.versions.filter((version) => version.startsWith('3@'))).toEqual([]);
    advance(10_000);
    // The cursor less the 300 s look-back reaches back past order 3's update: the floor keeps it out.
    const second = await poll();
    expect(second.versions.filter((version) => version.startsWith('3@'))).toEqual([]);
  });

  it('the first run needs --since: a usage error, and no listing request', async () => {
    const result = await poll();
    expect(result.error).toBeInstanceOf(UsageError);
    expect((result.error as Error).message).toMatch(/the first run of this profile needs --since/);
    expect(result.listings).toBe(0);
    expect(result.lines).toEqual([]);
  });

  it('a first run without --since while another run holds the lock: the lock is said (exit 75), not --since', async () => {
    const lockPath = join(configDir, 'locks', 'default.orders-poll.lock');
    const release = acquireProfileLock(
      configDir,
      'default',
      'orders-poll',
      'b2bctl orders poll (profile default)',
      () => {},
    );
    try {
      const result = await poll();
      const pid = process.pid;
      expect((result.error as Error).message).toMatch(
        new RegExp(
          `^Another "b2bctl orders poll \\(profile default\\)" is running \\(PID ${pid}, since \\S+\\); this run stops so the two do not overlap\\. If PID ${pid} is not b2bctl, remove ${lockPath}\\.$`,
        ),
      );
      expect((result.error as { exitCode?: number }).exitCode).toBe(75);
      expect(result.listings).toBe(0);
    } finally {
      release();
    }
    // The lock released, the same run is refused for its missing --since, and leaves no lock behind.
    expect(((await poll()).error as Error).message).toMatch(/the first run of this profile needs --since/);
    expect(existsSync(lockPath)).toBe(false);
  });

  it('hands orders over by update instant, ties by id, though the listing pages them newest first by creation', async () => {
    const first = await poll({ since: '31d' });
    // A catch-up (40 orders, more than a page): read by offset, handed over in update order.
    expect(first.versions).toEqual(byUpdate(storeVersions()));
    advance(10_000);
    // One page, which the sandbox lists newest first by creation (30, 20, 12, 5); 20 and 12 updated in one instant.
    const now = sandbox.state.clock.now();
    const updated = [
      sandbox.state.orders.update(30, now - 8_000)!,
      sandbox.state.orders.update(5, now - 7_000)!,
      sandbox.state.orders.update(20, now - 6_000)!,
      sandbox.state.orders.update(12, now - 6_000)!,
    ];
    expect(new Set(updated.map((order) => order.lastUpdated)).size).toBe(3);
    const second = await poll();
    expect(second.versions).toEqual(
      [30, 5, 12, 20].map((id) => `${id}@${sandbox.state.orders.orders.get(id)!.lastUpdated}`),
    );
  });

  it('the upper bound is the start minus orders.lag: an order updated inside the lag waits for the next run', async () => {
    const first = await poll({ since: '31d' });
    expect(first.error).toBeUndefined();
    expect(first.versions.toSorted()).toEqual(storeVersions());
    advance(10_000);
    const order = sandbox.state.orders.update(3, sandbox.state.clock.now() - 1_000)!;
    const second = await poll();
    expect(second.versions).toEqual([]);
    expect(second.stderr).toMatch(/0 new order versions/);
    advance(1_500);
    const third = await poll();
    expect(third.versions).toEqual([`3@${order.lastUpdated}`]);
    // The cursor is the third run's upper bound: its start minus the 2 s lag.
    const cursor = JSON.parse(readFileSync(join(configDir, 'cursors', 'default.orders-poll.json'), 'utf8')) as {
      cursor: string;
    };
    expect(cursor.cursor).toBe(new Date(clock.now() - 2_000).toISOString());
  });

  it('a late commit stamped behind the cursor is emitted once by the look-back; versions inside it not again', async () => {
    await poll({ since: '31d' });
    advance(60_000);
    // Stamped two minutes back: behind the cursor (the first run's upper bound), inside the 5-minute look-back.
    sandbox.state.orders.lastUpdatedSkewMs = 120_000;
    const late = sandbox.state.orders.update(5, sandbox.state.clock.now())!;
    sandbox.state.orders.lastUpdatedSkewMs = 0;
    const fresh = sandbox.state.orders.update(6, sandbox.state.clock.now() - 30_000)!;
    const second = await poll();
    expect(second.versions.toSorted()).toEqual([`5@${late.lastUpdated}`, `6@${fresh.lastUpdated}`].toSorted());
    advance(60_000);
    const third = await poll();
    expect(third.versions).toEqual([]);
  });

  it('a platform clock ten minutes behind ours: the cursor is held at its time, so its next update is not missed', async () => {
    // This machine's clock runs 600 s ahead of the platform's, twice the look-back.
    clock.advance(600_000);
    const first = await poll({ since: '31d' });
    expect(first.error).toBeUndefined();
    expect(first.stderr).toMatch(/warning: the platform's clock is 600 s behind this machine's/);
    advance(60_000);
    // Stamped by the platform's clock 5 s before its now, behind the lag: the next run reads it (one stamped within the
    // lag is the run after's, on any clock; this run reads no further than the platform's now less the lag).
    const updated = sandbox.state.orders.update(7, sandbox.state.clock.now() - 5_000)!;
    const second = await poll();
    expect(second.versions).toEqual([`7@${updated.lastUpdated}`]);
    const cursor = JSON.parse(readFileSync(join(configDir, 'cursors', 'default.orders-poll.json'), 'utf8')) as {
      cursor: string;
    };
    // The platform's now less the 2 s lag, not this machine's.
    expect(cursor.cursor).toBe(new Date(sandbox.state.clock.now() - 2_000).toISOString());
    advance(60_000);
    expect((await poll()).versions).toEqual([]);
  });

  it('a platform clock ten minutes ahead of ours: nothing is missed, and the delay it causes is said', async () => {
    sandbox.state.clock.advance(600_000);
    const first = await poll({ since: '31d' });
    expect(first.stderr).toMatch(
      /warning: the platform's clock is 600 s ahead of this machine's \(its Date header\): each update it stamps is emitted that much later/,
    );
  });

  it('on a terminal, a run with orders prints its table; one with none only its line, no header alone', async () => {
    const first = await pollOnTerminal({ since: '31d' });
    expect(first.stdout.split('\n')[0]).toMatch(/^ID\s+ORDER\s+STATUS\s+CREATED\s+UPDATED\s+CUSTOMER$/);
    advance(10_000);
    const quiet = await pollOnTerminal({});
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toMatch(/^orders poll: 0 new order versions updated /);
  });

  it('a wide terminal shows the creation instant the docs promise, as the platform wrote it', async () => {
    const { stdout } = await pollOnTerminal({ since: '31d' }, 200);
    const screen = await renderedScreen(stdout, 200);
    expect(screen[0]).toMatch(/^ID\s+ORDER\s+STATUS\s+CREATED\s+UPDATED\s+CUSTOMER$/);
    const first = [...sandbox.state.orders.orders.values()].find((order) => screen[1]?.startsWith(`${order.id} `));
    expect(screen[1]).toContain(`  ${first?.dateCreated}  ${first?.lastUpdated}  `);
  });

  for (const [columns, header, hidden] of [
    // The widths docs/orders-poll.md gives: CREATED out below 104, ORDER too below 78, ORDER back in place of
    // STATUS from 60 to 67, both out below 60.
    [103, /^ID\s+ORDER\s+STATUS\s+UPDATED\s+CUSTOMER$/, 'CREATED hidden to fit 103 columns'],
    [80, /^ID\s+ORDER\s+STATUS\s+UPDATED\s+CUSTOMER$/, 'CREATED hidden to fit 80 columns'],
    [77, /^ID\s+STATUS\s+UPDATED\s+CUSTOMER$/, 'ORDER and CREATED hidden to fit 77 columns'],
    [68, /^ID\s+STATUS\s+UPDATED\s+CUSTOMER$/, 'ORDER and CREATED hidden to fit 68 columns'],
    [67, /^ID\s+ORDER\s+UPDATED\s+CUSTOMER$/, 'STATUS and CREATED hidden to fit 67 columns'],
    [60, /^ID\s+ORDER\s+UPDATED\s+CUSTOMER$/, 'STATUS and CREATED hidden to fit 60 columns'],
    [59, /^ID\s+UPDATED\s+CUSTOMER$/, 'ORDER, STATUS and CREATED hidden to fit 59 columns'],
    [50, /^ID\s+UPDATED\s+CUSTOMER$/, 'ORDER, STATUS and CREATED hidden to fit 50 columns'],
  ] as const) {
    it(`a ${columns}-column terminal: no row wraps, the columns left out are named after the count`, async () => {
      const { stdout, stderr } = await pollOnTerminal({ since: '31d' }, columns);
      expect(await wrappedLineCount(stdout, columns)).toBe(0);
      const screen = await renderedScreen(stdout, columns);
      expect(screen[0]).toMatch(header);
      expect(screen.length).toBe(stdout.split('\n').length - 1);
      const lines = stderr.trimEnd().split('\n');
      expect(lines.at(-2)).toMatch(/^orders poll: \d+ new order versions updated /);
      expect(lines.at(-1)).toBe(`orders poll: ${hidden}: widen the terminal, or -o csv or -o ndjson for every field.`);
    });
  }

  it('a 30-column terminal: the customer name goes before the id or the update instant is cut', async () => {
    const { stdout, stderr } = await pollOnTerminal({ since: '31d' }, 30);
    expect(await wrappedLineCount(stdout, 30)).toBe(0);
    const listed = [...sandbox.state.orders.orders.values()].toSorted(
      (a, b) => Date.parse(a.lastUpdated) - Date.parse(b.lastUpdated) || String(a.id).localeCompare(String(b.id)),
    );
    const idWidth = Math.max(2, ...listed.map((order) => String(order.id).length));
    const row = (id: string, updated: string) => `${id.padEnd(idWidth)}  ${updated}`;
    expect(await renderedScreen(stdout, 30)).toEqual([
      row('ID', 'UPDATED'),
      ...listed.map((order) => row(String(order.id), new Date(Date.parse(order.lastUpdated)).toISOString())),
    ]);
    expect(stderr.trimEnd().split('\n').at(-1)).toBe(
      'orders poll: ORDER, STATUS, CREATED and CUSTOMER hidden to fit 30 columns: widen the terminal, or -o csv or -o ndjson for every field.',
    );
  });

  it('--until before now bounds the run; the cursor stops there', async () => {
    const until = new Date(clock.now() - 10 * 86_400_000).toISOString();
    const result = await poll({ since: '31d', until });
    const expected = [...sandbox.state.orders.orders.values()]
      .filter((order) => Date.parse(order.lastUpdated) <= Date.parse(until))
      .map((order) => `${order.id}@${order.lastUpdated}`)
      .toSorted();
    expect(result.versions.toSorted()).toEqual(expected);
    const cursor = JSON.parse(readFileSync(join(configDir, 'cursors', 'default.orders-poll.json'), 'utf8')) as {
      cursor: string;
    };
    expect(cursor.cursor).toBe(until.replace(/\.\d{3}Z$/, '.000Z'));
  });
});

describe('orders poll into a pipe, whose reader gives no proof of what it read', () => {
  beforeEach(() => setUp());

  it('a reader that closes after the first chunk of 16: the run fails and no cursor is written', async () => {
    const instants = new Set([...sandbox.state.orders.orders.values()].map((order) => order.lastUpdated));
    // More instants than a chunk holds, and more orders than a page: the window is handed over chunk by chunk.
    expect(instants.size).toBeGreaterThan(16);
    expect(sandbox.state.orders.orders.size).toBeGreaterThan(25);
    const result = await poll({ since: '31d' }, { closeAfterLines: 16 });
    expect(result.error).toBeDefined();
    expect(result.lines.length).toBeGreaterThan(16);
    expect(result.lines.length).toBeLessThan(40);
    expect(existsSync(join(configDir, 'cursors', 'default.orders-poll.json'))).toBe(false);
  });
});

describe('orders poll --watch', () => {
  beforeEach(() => setUp({ settings: { 'http.retries': '0' } }));

  it('--since 30s is counted from the start: an order updated while the first cycles fail is emitted once the platform answers', async () => {
    const start = clock.now();
    // The first two cycles meet an outage (a 503 each, no retries); the third is answered.
    await scheduleFault(sandbox, '/v1/orders', 1, 503);
    await scheduleFault(sandbox, '/v1/orders', 1, 503);
    let touched = '';
    const result = await watchPoll(
      { since: '30s' },
      {
        pauses: 3,
        // Ten seconds after the start, inside the outage: 30 s before the third cycle would be after it.
        onPause: (count) => {
          if (count === 1) touched = `10@${sandbox.state.orders.update(10, start + 10_000)!.lastUpdated}`;
        },
      },
    );
    expect(result.error).toBeUndefined();
    expect(result.versions).toEqual([touched]);
    // Every cycle asks from the same instant, 30 s before the start (a millisecond wider: the listing's rule).
    const failed = (cycleAt: number, wait: string) =>
      `orders poll: cycle failed (GET ${sandbox.url}/v1/orders?updatedFrom=${encodeURIComponent(iso(start - 30_001))}&updatedTo=${encodeURIComponent(iso(cycleAt - 2_000 + 1))}&limit=25&offset=0 kept failing with HTTP 503 after 1 attempt; the platform is unavailable, try again later.); trying again in ${wait}, from the cursor.`;
    const thirdCycleTo = iso(start + 60_000 + 120_000 - 2_000);
    expect(result.stderr.split('\n')).toEqual([
      failed(start, '1 min'),
      failed(start + 60_000, '2 min'),
      `orders poll: 1 new order version updated ${iso(start - 30_000)} … ${thirdCycleTo}; cursor ${thirdCycleTo}.`,
      'orders poll: stopped between two runs; the next one continues from the cursor.',
      '',
    ]);
  });

  it('an output its reader closed ends the watch as it ends one run: exit 141, no second cycle', async () => {
    const start = clock.now();
    const result = await watchPoll({ since: '31d' }, { pauses: 2, closeAfterLines: 1 });
    expect(result.error).toBeInstanceOf(OutputClosedError);
    expect(exitCodeOf(result.error)).toBe(141);
    // The reader closes on the second line; the writer learns it at that write, as a pipe's writer does.
    expect((result.error as Error).message).toBe(
      `output closed after 2 orders; no cursor was saved (a first run), the next run starts from --since ${iso(start - 31 * 86_400_000)}.`,
    );
    expect(result.paused).toBe(0);
    expect(result.stderr).toBe('');
    expect(existsSync(join(configDir, 'cursors', 'default.orders-poll.json'))).toBe(false);
  });
});

describe('orders poll in process against answers the document does not show', () => {
  it('some entries unreadable: the readable ones are emitted once, the cursor waits for the others', async () => {
    const halfBroken: Dialect = {
      ...(dialectNamed('default') as Dialect),
      // No creation instant either: a null lastUpdated beside one is an order never updated, read as of it (a user test).
      orderSummary: (summary) =>
        summary.id % 2 === 0 ? { ...summary, lastUpdated: null, dateCreated: undefined } : summary,
    };
    await setUp({ dialect: halfBroken });
    const first = await poll({ since: '31d' });
    expect(first.lines).toHaveLength(20);
    expect(first.stderr).toMatch(/warning: 20 listed entries had no id or update instant/);
    advance(60_000);
    const second = await poll();
    // Read again from the kept cursor, and remembered: nothing emitted twice.
    expect(second.lines).toEqual([]);
    expect(second.stderr).toMatch(/warning: 20 listed entries had no id or update instant/);
  });

  it('the gateway dialect: updatedAt read as the update instant, the objects passed on unchanged', async () => {
    await setUp({ dialect: dialectNamed('gateway') });
    const result = await poll({ since: '31d' });
    expect(result.error).toBeUndefined();
    expect(result.lines[0]).toHaveProperty('updatedAt');
    expect(result.lines[0]).not.toHaveProperty('lastUpdated');
    expect(result.versions.toSorted()).toEqual(storeVersions());
  });

  it('an update instant under a name b2bctl does not know: nothing emitted, a warning naming the setting, exit 69, the cursor kept at the start', async () => {
    const renamed: Dialect = {
      ...(dialectNamed('default') as Dialect),
      orderSummary: ({ lastUpdated, ...rest }) => ({ ...rest, audit: { changedOn: lastUpdated } }),
    };
    await setUp({ dialect: renamed });
    const blind = await poll({ since: '31d' });
    // A run that could read none of the entries listed is no success: a cron job would stall silently (a user test).
    expect(exitCodeOf(blind.error)).toBe(69);
    expect(blind.lines).toEqual([]);
    expect(blind.stderr).toMatch(
      /warning: \d+ listed entries had no id or update instant .* the cursor was not moved .* answers\.orders\.lastUpdated/,
    );
    // The cursor stays at the run's start: the next run reads those entries again.
    const cursor = JSON.parse(readFileSync(join(configDir, 'cursors', 'default.orders-poll.json'), 'utf8')) as {
      cursor: string;
    };
    expect(cursor.cursor).toBe(new Date(clock.now() - 31 * 86_400_000).toISOString());
    // The setting named, the next run reads every order.
    new ProfileStore(configDir).update('default', { 'answers.orders.lastUpdated': 'audit.changedOn' });
    const seeing = await poll();
    expect(seeing.lines).toHaveLength(40);
    expect(seeing.stderr).not.toMatch(/warning/);
  });
});

describe('orders poll --detail when an order changes between its listing and its detail', () => {
  it('the file is named by the detail it holds, and the next run does not write that version again', async () => {
    const listed = '2026-11-29T07:09:04.685Z';
    const newer = '2026-11-29T07:10:45.667Z';
    // The first run's listing shows order 1009 at `listed`; by the time its detail is read it has moved on to
    // `newer`, which the second run's listing shows.
    let listedNow = listed;
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      response.setHeader('content-type', 'application/json');
      if (url.pathname === '/v1/orders') {
        const inWindow =
          Date.parse(listedNow) >= Date.parse(url.searchParams.get('updatedFrom') ?? '') &&
          Number(url.searchParams.get('offset') ?? 0) === 0;
        response.end(
          JSON.stringify(inWindow ? [{ id: 1009, orderId: 101009, status: 'PAID', lastUpdated: listedNow }] : []),
        );
      } else if (url.pathname === '/v1/orders/1009')
        response.end(JSON.stringify({ id: 1009, orderId: 101009, status: 'SHIPPED', lastUpdated: newer }));
      else response.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const folder = temporaryFolder('b2bctl-orders-detail-');
    const stubClock = new FakeClock(Date.parse('2026-11-29T07:12:00.000Z'));
    const once = async () => {
      const memory = testContext({
        env: { B2BCTL_CONFIG_DIR: folder, B2BCTL_BASE_URL: url, B2BCTL_TOKEN: 'stub-token' },
        clock: stubClock,
      });
      await run(
        {
          statuses: [],
          detail: true,
          watch: false,
          intervalSeconds: 60,
          concurrency: 1,
          since: '2026-11-29T07:00:00Z',
          outDir: join(folder, 'out'),
        },
        memory.context,
      );
    };
    await once();
    expect(readdirSync(join(folder, 'out'))).toEqual(['1009-101009-20261129T071045667Z.json']);
    listedNow = newer;
    stubClock.advance(60_000);
    await once();
    // The second run lists the newer version, already written: no second file of it.
    expect(readdirSync(join(folder, 'out'))).toEqual(['1009-101009-20261129T071045667Z.json']);
    await new Promise((resolve) => server.close(resolve));
  });

  it('a listed order whose detail answers 404 is written from its listing entry, said, and does not hold back the rest', async () => {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      response.setHeader('content-type', 'application/json');
      const orders = [
        { id: 4, orderId: 100004, status: 'PAID', lastUpdated: '2026-11-29T07:05:00.000Z' },
        { id: 5, orderId: 100005, status: 'PAID', lastUpdated: '2026-11-29T07:06:00.000Z' },
      ];
      if (url.pathname === '/v1/orders')
        response.end(JSON.stringify(Number(url.searchParams.get('offset') ?? 0) === 0 ? orders : []));
      else if (url.pathname === '/v1/orders/5') response.end(JSON.stringify({ ...orders[1], items: [] }));
      else response.writeHead(404).end('{"message":"nf"}');
    });
    const memory = await pollWithDetail(server);
    expect(ndjsonOf<Record<string, unknown>>(memory.stdout()).map((order) => [order.id, 'items' in order])).toEqual([
      [4, false],
      [5, true],
    ]);
    expect(memory.stderr()).toContain(
      'warning: order 4 (updated 2026-11-29T07:05:00.000Z) is listed but its detail answered 404: its listing entry was written in its place; b2bctl orders get 4 reads it later.',
    );
  });
});

/** One `orders poll --detail` from 07:00 at 07:12 against a stub platform `server`, which is closed after. */
async function pollWithDetail(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const folder = temporaryFolder('b2bctl-orders-detail-');
  const memory = testContext({
    env: {
      B2BCTL_CONFIG_DIR: folder,
      B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      B2BCTL_TOKEN: 'stub-token',
    },
    clock: new FakeClock(Date.parse('2026-11-29T07:12:00.000Z')),
  });
  await run(
    { statuses: [], detail: true, watch: false, intervalSeconds: 60, concurrency: 1, since: '2026-11-29T07:00:00Z' },
    memory.context,
  );
  await new Promise((resolve) => server.close(resolve));
  return memory;
}

/** An order listing entry whose id and number are written as given (past 2^53, as a JSON number). */
const longIdEntry = (id: string, minute: number) =>
  `{"id":${id},"orderId":${id}1,"status":"PAID","lastUpdated":"2026-11-29T07:0${minute}:00.000Z"}`;

describe('orders poll with ids past 2^53', () => {
  it('emits two orders whose ids differ in the last digit, each fetched by its own id and written with its digits', async () => {
    // A Java long or a snowflake id: JSON.parse reads both as 9007199254740992.
    const ids = ['9007199254740993', '9007199254740992'];
    const asked: string[] = [];
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      asked.push(url.pathname);
      response.setHeader('content-type', 'application/json');
      if (url.pathname === '/v1/orders')
        response.end(
          Number(url.searchParams.get('offset') ?? 0) === 0
            ? `[${longIdEntry(ids[0]!, 5)},${longIdEntry(ids[1]!, 6)}]`
            : '[]',
        );
      else {
        const id = ids.find((candidate) => url.pathname === `/v1/orders/${candidate}`);
        if (id === undefined) response.writeHead(404).end('{}');
        else
          response.end(longIdEntry(id, id === ids[0] ? 5 : 6).replace('"PAID"', '"PAID","total":123456789012345678'));
      }
    });
    const memory = await pollWithDetail(server);
    expect(asked.filter((path) => path !== '/v1/orders').toSorted()).toEqual(
      ids.map((id) => `/v1/orders/${id}`).toSorted(),
    );
    // Both orders, each line the platform's digits, the detail's large total too.
    expect(memory.stdout().trim().split('\n')).toEqual(
      ids.map((id, index) => longIdEntry(id, 5 + index).replace('"PAID"', '"PAID","total":123456789012345678')),
    );
  });
});

/** A platform of `orders` answering the listing with an exact comparison of its bounds to each order's instant. */
async function platform(orders: { id: number; lastUpdated: string; micros: number }[], exact: boolean, now: number) {
  const server = createServer((request, response) => {
    // Its clock is the test's: a Date header hours ahead would hold the orders back as a clock ahead does.
    response.setHeader('date', new Date(now).toUTCString());
    const url = new URL(request.url ?? '/', 'http://localhost');
    const from = Date.parse(url.searchParams.get('updatedFrom') ?? '') * 1000;
    const to = Date.parse(url.searchParams.get('updatedTo') ?? '') * 1000;
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 25);
    const inside = exact ? orders.filter((order) => order.micros >= from && order.micros <= to) : orders;
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify(
        inside
          .slice(offset, offset + limit)
          .map(({ id, lastUpdated }) => ({ id, orderId: 100_000 + id, status: 'PAID', lastUpdated })),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const folder = temporaryFolder('b2bctl-orders-instants-');
  return {
    env: {
      B2BCTL_CONFIG_DIR: folder,
      B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
      B2BCTL_TOKEN: 'stub-token',
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
describe('orders poll against platforms whose update instants are finer or vaguer than a millisecond in UTC', () => {
  const options = { statuses: [], detail: false, watch: false, intervalSeconds: 60, concurrency: 4 };

  it('instants in microseconds (a PostgreSQL timestamp): a window split by time loses none at its seams', async () => {
    const base = Date.parse('2026-11-29T07:00:00.000Z');
    // More than the 5,000 a window may hold read by offset: the scan splits it by time, piece against piece.
    const orders = Array.from({ length: 6_000 }, (_, index) => {
      const micros = (base + index) * 1000 + 500;
      const whole = new Date(Math.floor(micros / 1000)).toISOString();
      return { id: index + 1, micros, lastUpdated: `${whole.slice(0, 23)}500Z` };
    });
    const store = await platform(orders, true, base + 600_000);
    const memory = testContext({ env: store.env, clock: new FakeClock(base + 600_000) });
    await run({ ...options, since: '2026-11-29T06:59:00Z' }, memory.context);
    await store.close();
    const ids = new Set(ndjsonOf<{ id: number }>(memory.stdout()).map((order) => order.id));
    expect(orders.filter((order) => !ids.has(order.id)).map((order) => order.id)).toEqual([]);
    expect(ids.size).toBe(6_000);
  });

  it('instants without a zone (Spring LocalDateTime): the orders the platform lists are kept, and it is said', async () => {
    // 04:05 with no zone: 07:05 in Brasília, outside the window if this machine reads it in UTC.
    const orders = [1, 2, 3].map((id) => ({ id, micros: 0, lastUpdated: `2026-11-29T04:0${id}:00.000` }));
    const now = Date.parse('2026-11-29T07:12:00.000Z');
    const store = await platform(orders, false, now);
    const memory = testContext({ env: store.env, clock: new FakeClock(now) });
    await run({ ...options, since: '2026-11-29T07:00:00Z' }, memory.context);
    await store.close();
    expect(ndjsonOf<{ id: number }>(memory.stdout()).map((order) => order.id)).toEqual([1, 2, 3]);
    // What the warning says of the zone depends on this machine's: poll-zoneless-instants.test.ts has its words.
    expect(memory.stderr()).toContain('warning: the platform writes update instants without a time zone');
  });
});

/** `id@instant` versions by update instant, ties by id: the order a poll hands them over in. */
function byUpdate(versions: string[]): string[] {
  return versions.toSorted((left, right) => {
    const [leftId, leftAt] = left.split('@') as [string, string];
    const [rightId, rightAt] = right.split('@') as [string, string];
    return Date.parse(leftAt) - Date.parse(rightAt) || Number(leftId) - Number(rightId);
  });
}
