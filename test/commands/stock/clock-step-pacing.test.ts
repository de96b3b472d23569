/**
 * A bulk run's pauses when this machine's clock steps back while it runs (a user test): a 429's `Retry-After` and
 * the `--rate` pace are lengths of time, measured on the monotonic clock, so an NTP step back of a minute does not
 * hold the run a minute (it did: 63 s for a Retry-After of 3 s, 60 s of nothing at --rate 5). The waits are those the
 * run asks of a fake clock, recorded and never slept: no test here measures time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const minute = 60_000;

/** A clock whose wall time steps back a minute at its `stepAt`-th wait; no wait is slept, each is recorded. */
class SteppingBack extends FakeClock {
  private sleeps = 0;

  private readonly stepAt: number;
  constructor(stepAt: number) {
    super(Date.UTC(2026, 10, 30, 2, 0, 0));
    this.stepAt = stepAt;
  }

  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps += 1;
    if (this.sleeps === this.stepAt) this.stepWallClock(-minute);
    await super.sleep(ms, signal);
  }
}

async function push(clock: FakeClock, items: number, flags: string[]) {
  const folder = freshWorkDir();
  const rows = Array.from({ length: items }, (_, index) => `SKU${index},${index},1.00`);
  writeFileSync(join(folder, 'stock.csv'), ['sku,quantity,price', ...rows, ''].join('\n'));
  return runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '1', ...flags], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    cwd: folder,
    clock,
  });
}

const applies = () => {
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
};

describe('stock push: the clock steps back a minute during a pause', () => {
  it('--rate 5: every pause stays a fifth of a second, none a minute', async () => {
    applies();
    const clock = new SteppingBack(3);
    const result = await push(clock, 10, ['--rate', '5', '--concurrency', '1']);
    expect(result.code).toBe(0);
    expect(platform.received).toHaveLength(10);
    // The waits the run asked of the fake clock (none slept, none measured): one pace between each two requests,
    // the one after the step too; measured on the wall clock, that one was the step's minute. From the sixth request
    // on, a turn is held a little later (20 ms), so that no second holds 6 starts at --rate 5.
    expect(clock.waits.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => 200));
    expect(Math.max(...clock.waits)).toBe(200);
    const waited = clock.waits.reduce((total, wait) => total + wait, 0);
    expect(waited).toBeGreaterThan(9 * 200);
    expect(waited).toBeLessThan(9 * 200 + 100);
  });

  it("a 429's Retry-After of 3 s: waited 3 s, not 3 s and the minute", async () => {
    let answered = 0;
    platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) => {
      answered += 1;
      if (answered === 1)
        return response
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' })
          .end('{"message":"Too Many Requests"}');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
    const clock = new SteppingBack(1);
    const result = await push(clock, 2, ['--concurrency', '1']);
    expect(result.code).toBe(0);
    expect(platform.received).toHaveLength(3);
    // The waits asked of the fake clock: the Retry-After as given, then the pace after a 429 (98% of the one request
    // a second the platform took); measured on the wall clock, the step added its minute to the first.
    expect(clock.waits).toHaveLength(2);
    expect(clock.waits[0]).toBe(3000);
    expect(clock.waits[1]).toBeCloseTo(1000 / 0.98, 3);
    expect(result.stderr).not.toContain('nothing is sent until');
  });
});
