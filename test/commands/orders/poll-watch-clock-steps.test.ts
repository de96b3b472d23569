/**
 * `orders poll --watch` when this machine's clock steps back while it runs (NTP correcting it, a VM restored):
 * user tests. The watch keeps polling every --interval, measured on the monotonic clock, never waiting
 * for the wall clock to reach a time planned before the step; a cursor it wrote itself that is now "in the future"
 * further than orders.lookback is kept and polled from, said once, never a usage error. A SIGTERM in the wait
 * between two cycles is a clean stop, exit 0.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const token = 'a-pre-issued-token-0123456789';
const intervalMs = 2_000;
const minute = 60_000;

/**
 * A clock whose wall time steps by `stepMs` in the wait after the first cycle, and which stops the watch with SIGTERM
 * in the wait after cycle `cycles`. Every wait is recorded (FakeClock.waits), none slept.
 */
class SteppingClock extends FakeClock {
  run: TestContext | undefined;
  private watchWaits = 0;

  private readonly stepMs: number;
  private readonly cycles: number;
  constructor(stepMs: number, cycles: number) {
    super(Date.UTC(2026, 10, 30, 20, 35, 0));
    this.stepMs = stepMs;
    this.cycles = cycles;
  }

  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await super.sleep(ms, signal);
    // The watch's wait between two cycles is the only one of --interval exactly.
    if (ms !== intervalMs) return;
    this.watchWaits += 1;
    if (this.watchWaits === 1) this.stepWallClock(this.stepMs);
    if (this.watchWaits === this.cycles) this.run?.interrupt('SIGTERM');
    signal?.throwIfAborted();
  }
}

async function watchThroughAStep(stepMs: number, cycles: number) {
  platform.routes['GET /v1/orders'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  const clock = new SteppingClock(stepMs, cycles);
  const configDir = freshConfigDir();
  const result = await runCommandLine(
    ['orders', 'poll', '--watch', '--interval', String(intervalMs / 1000), '--since', '2h', '-o', 'ndjson'],
    {
      configDir,
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token },
      clock,
      started: (test) => (clock.run = test),
    },
  );
  const listings = platform.received.filter((request) => request === 'GET /v1/orders').length;
  return { ...result, listings, waits: clock.waits, configDir };
}

const stopped = 'orders poll: stopped between two runs; the next one continues from the cursor.';

describe('orders poll --watch: the clock steps back while it runs', () => {
  it('2 minutes back (within orders.lookback): a cycle every interval, no wait as long as the step, SIGTERM exit 0', async () => {
    const result = await watchThroughAStep(-2 * minute, 3);
    expect(result.code).toBe(0);
    expect(result.listings).toBe(3);
    // Only the interval is waited: no wait for the wall clock to reach a turn planned before the step.
    expect(result.waits).toEqual([intervalMs, intervalMs, intervalMs]);
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(stopped);
    expect(result.stderr).not.toContain('error');
    expect(result.stderr).not.toContain('interrupted');
  });

  it('10 minutes back (past orders.lookback): no usage error; the cursor kept and polled from, said once', async () => {
    const result = await watchThroughAStep(-10 * minute, 4);
    expect(result.code).toBe(0);
    // A cycle each interval, each reading the look-back's overlap up to the cursor, never past it.
    expect(result.listings).toBe(4);
    expect(
      JSON.parse(readFileSync(join(result.configDir, 'cursors', 'default.orders-poll.json'), 'utf8')),
    ).toMatchObject({
      cursor: '2026-11-30T20:34:58.000Z',
    });
    expect(result.waits).toEqual([intervalMs, intervalMs, intervalMs, intervalMs]);
    const held = result.stderr.split('\n').filter((line) => line.includes("is ahead of this machine's clock ("));
    expect(held).toHaveLength(1);
    expect(held[0]).toMatch(
      /^orders poll: the cursor in \S+ \(2026-11-30T20:34:58\.000Z\) is ahead of this machine's clock \(2026-11-30T20:25:02\.000Z\) by more than orders\.lookback: this clock was most likely set back \(an NTP step, a VM restored\)\. The watch keeps its cursor and polls from it, reading nothing past it, until the clock passes it\.$/,
    );
    expect(result.stderr).not.toContain('error');
    expect(result.stderr.trimEnd().split('\n').at(-1)).toBe(stopped);
  });
});

describe("orders poll --watch: the platform's clock ahead of this machine's", () => {
  it('is said once, not at every cycle', async () => {
    const clock = new SteppingClock(0, 3);
    // The platform's Date 10 minutes ahead of this machine's, at every answer.
    platform.routes['GET /v1/orders'] = (_request, _body, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json', date: new Date(clock.now() + 10 * minute).toUTCString() })
        .end('[]');
    const result = await runCommandLine(
      ['orders', 'poll', '--watch', '--interval', String(intervalMs / 1000), '--since', '2h', '-o', 'ndjson'],
      {
        configDir: freshConfigDir(),
        env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token },
        clock,
        started: (test) => (clock.run = test),
      },
    );
    expect(result.code).toBe(0);
    expect(platform.received.filter((request) => request === 'GET /v1/orders')).toHaveLength(3);
    const said = result.stderr.split('\n').filter((line) => line.includes("the platform's clock is"));
    expect(said).toEqual([
      "warning: the platform's clock is 600 s ahead of this machine's (its Date header): each update it stamps is emitted that much later, once this machine's clock reaches the stamp. Set the right time on whichever clock is wrong (b2bctl doctor compares them).",
    ]);
  });
});
