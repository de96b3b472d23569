/**
 * A platform that goes away for a few seconds mid-night (a restart, a load balancer failing over): with the default
 * 3 retries a push gave up after ~1.6 s of waits (exit 69, the night's stock not sent; a fresh user test). A bulk
 * run's back-off waits 1–2 s, 2–4 s, 4–8 s (up to 20 s each), so a 5-second outage is ridden out. The run's clock is
 * a fake one: the waits are counted, never slept, and the platform is down until the clock says it is back.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

/** Pushes two items through the batch route while the platform answers 503 for `outageMs` of the run's clock. */
async function pushThroughOutage(outageMs: number, flags: string[] = []) {
  const clock = new FakeClock(Date.UTC(2026, 10, 30, 2, 0, 0));
  const backAt = clock.now() + outageMs;
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) => {
    if (clock.now() < backAt)
      response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"restarting"}');
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  };
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\nB2,3,1.00\n');
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', ...flags], {
    configDir: freshConfigDir(),
    env,
    cwd: folder,
    clock,
  });
  const rows = readReport(join(folder, onlyReport(folder, 'stock')));
  return { result, outcomes: rows.map((row) => `${row.key} ${row.outcome}`), waits: clock.waits };
}

describe('stock push: a platform down for a few seconds', () => {
  it('a 5-second outage is ridden out with the default retries: waits of 1–2 s, then 2–4 s…, applied, exit 0', async () => {
    const { result, outcomes, waits } = await pushThroughOutage(5000);
    expect([result.code, outcomes]).toEqual([0, ['A1 accepted', 'B2 accepted']]);
    expect(waits.length).toBeGreaterThanOrEqual(2);
    const [first, second] = waits as [number, number];
    expect(first).toBeGreaterThanOrEqual(1000);
    expect(first).toBeLessThanOrEqual(2000);
    expect(second).toBeGreaterThanOrEqual(2000);
    expect(second).toBeLessThanOrEqual(4000);
    expect(platform.received.at(-1)).toBe('PUT /v1/stock/batch');
  });

  it('an outage longer than every wait still ends the run: exit 69 after --retries 6, each wait at most 20 s', async () => {
    const { result, outcomes, waits } = await pushThroughOutage(10 * 60_000, ['--retries', '6']);
    expect([result.code, outcomes]).toEqual([69, ['A1 unknown', 'B2 unknown']]);
    expect(platform.received).toHaveLength(7);
    expect(waits).toHaveLength(6);
    expect(Math.max(...waits)).toBeLessThanOrEqual(20_000);
    expect(waits.at(-1)).toBeGreaterThanOrEqual(10_000);
  });
});
