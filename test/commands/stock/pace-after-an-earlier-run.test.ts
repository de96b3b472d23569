/**
 * A push started right after another run (a nightly script's commands, the same push again): the platform's
 * one-second window still held the last run's requests when the first 429 came, and the few of this run's it had
 * accepted were learned as the allowance (a user test: 1 to 3 of 5 a second, held for 30 s, raised 2% a second after).
 * That first second's count is now a floor, checked a request a second from the end of its pause. Waits are counted
 * on a fake clock, never slept; one request at a time, so the fake clock is the platform's too.
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
const startOfNight = Date.UTC(2026, 10, 30, 2, 0, 0);
const allowance = 5;

/**
 * A window sliding over the last second that admits `allowance` requests, holding three of the run before (sent in
 * the 300 ms before this one began); 429 with Retry-After 1 beyond. The clock's time of each admitted request.
 */
function slidingWindowAfterAnEarlierRun(clock: FakeClock): number[] {
  const admitted = [startOfNight - 300, startOfNight - 200, startOfNight - 100];
  const accepted: number[] = [];
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) => {
    const now = clock.now();
    while (admitted.length > 0 && (admitted[0] as number) <= now - 1000) admitted.shift();
    if (admitted.length >= allowance)
      return response
        .writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' })
        .end('{"message":"Too Many Requests"}');
    admitted.push(now);
    accepted.push(now - startOfNight);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  };
  return accepted;
}

describe('stock push started while the platform still counts the run before it', () => {
  it('settles at the allowance of 5 a second within seconds, not at the 2 of the first second', async () => {
    const clock = new FakeClock(startOfNight);
    const accepted = slidingWindowAfterAnEarlierRun(clock);
    const folder = freshWorkDir();
    const rows = Array.from({ length: 120 }, (_, index) => `A${index + 1},10,5.50`);
    writeFileSync(join(folder, 'stock.csv'), `sku,quantity,price\n${rows.join('\n')}\n`);
    const result = await runCommandLine(
      ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '1', '--concurrency', '1', '--verbose'],
      {
        configDir: freshConfigDir(),
        env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
        cwd: folder,
        clock,
      },
    );
    expect(result.code).toBe(0);
    const report = readReport(join(folder, onlyReport(folder, 'stock')));
    expect(report.filter((row) => row.outcome === 'accepted')).toHaveLength(120);
    expect(accepted).toHaveLength(120);
    // From the 10th second on, the platform accepts 98% of its allowance: 4.9 a second, not 1.96.
    const inSeconds = (from: number, to: number) =>
      accepted.filter((time) => time >= from * 1000 && time < to * 1000).length;
    expect(inSeconds(10, 20)).toBeGreaterThanOrEqual(48);
    expect(accepted.at(-1)).toBeLessThan(30_000);
    expect(result.stderr).toMatch(/pace: 1\.96 requests\/s after a 429 \(2 accepted in the 1000 ms before it/);
    expect(result.stderr).toMatch(/after a 429 \(5 accepted in the 1000 ms before it, the limit checked was 2;/);
  });
});
