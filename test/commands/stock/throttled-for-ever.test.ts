/**
 * A store that answers 429 to every request, for ever: each request waited out 50 of them before it spent its
 * retries, and the requests in flight took turns, so a nightly run went on for hours sending nothing (a user test:
 * 17.7 min with Retry-After 1, ~9 h with 60). Once the platform has accepted nothing for 10 minutes, the run stops:
 * exit 69, the refused batches failed with the why, the others not sent, the resume command and the closing line.
 * Waits are counted on a fake clock, never slept.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { longestRefusalMs } from '../../../src/platform/pacer.js';
import { FakeClock } from '../../support/fake-clock.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const startOfNight = Date.UTC(2026, 10, 30, 2, 0, 0);

/**
 * Answers every stock batch 429 with `retryAfter` (none when undefined); the clock's time of each request, counted from
 * the night's start.
 */
function refuseEverything(clock: FakeClock, retryAfter: string | undefined): number[] {
  const times: number[] = [];
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) => {
    times.push(clock.now() - startOfNight);
    const asked = retryAfter === undefined ? {} : { 'retry-after': retryAfter };
    response.writeHead(429, { ...asked, 'content-type': 'application/json' }).end('{"message":"Too Many Requests"}');
  };
  return times;
}

async function push(items: number, flags: string[], clock: FakeClock) {
  const folder = freshWorkDir();
  const rows = Array.from({ length: items }, (_, index) => `A${index + 1},10,5.50`);
  writeFileSync(join(folder, 'stock.csv'), `sku,quantity,price\n${rows.join('\n')}\n`);
  const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', ...flags], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    cwd: folder,
    clock,
  });
  const report = readReport(join(folder, onlyReport(folder, 'stock')));
  const lines = result.stderr.split('\n');
  return { result, report, error: lines.find((line) => line.startsWith('error:')) ?? '', lines };
}

const gaveUp =
  /The platform answered HTTP 429 \(Too Many Requests\) to every request since 2026-11-30T02:00:00\.\d{3}Z \((\d+) times in (\d+) s\) and asked to wait (\d+) s more: past the 10 minutes b2bctl waits for a platform that accepts nothing\. None of those requests was applied\./;

describe('stock push against a store that answers 429 to every request', () => {
  it('Retry-After 60, one request: stops after 10 minutes of 429s (11 requests, not 54), exit 69, the resume line', async () => {
    const clock = new FakeClock(startOfNight);
    const times = refuseEverything(clock, '60');
    const { result, report, error, lines } = await push(5, [], clock);
    expect(result.code).toBe(69);
    // A 429 at 0, 60, … 600 s: waiting out the one at 600 s would end past 10 minutes of nothing accepted.
    expect(times).toEqual(Array.from({ length: 11 }, (_, index) => index * 60_000));
    expect(clock.now() - startOfNight).toBe(600_000);
    expect(gaveUp.exec(error)?.slice(1)).toEqual(['11', '600', '60']);
    expect(error).not.toContain('in a row');
    expect(error).toMatch(
      /None of those requests was applied\. Stopped; when the platform is back, run: .* --route batch --resume stock\.report-\d{8}-\d{6}\.csv$/,
    );
    expect(report.map((row) => `${row.key} ${row.outcome}`)).toEqual([
      'A1 failed',
      'A2 failed',
      'A3 failed',
      'A4 failed',
      'A5 failed',
    ]);
    expect(report[0]?.message).toMatch(gaveUp);
    expect(lines).toContainEqual(
      expect.stringMatching(/^stock push: 5 failed; 11 requests, 0 retries, 11 throttled \(429\)/),
    );
    expect(result.closingLine).toMatch(/^stock push: stock\.csv to profile "default" \(\S+\): 5 failed; exit 69$/);
  });

  it('Retry-After 1, 20 requests 8 at a time: none after ~10 minutes; the refused failed, the rest not sent', async () => {
    const clock = new FakeClock(startOfNight);
    const times = refuseEverything(clock, '1');
    const { result, report, error, lines } = await push(200, ['--batch-size', '10'], clock);
    expect(result.code).toBe(69);
    // The rule, on the fake clock (instants the run reached, never time it took): the run gives up once a wait would
    // end past 10 minutes of 429s from the first; the last wait granted ends by then plus its Retry-After (1 s), and
    // nothing is sent after it (the run went on for 17.7 minutes before). Nor does it give up before.
    const lastGrantedWaitEnds = Math.min(...times) + longestRefusalMs + 1_000;
    expect(Math.max(...times)).toBeLessThanOrEqual(lastGrantedWaitEnds);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(lastGrantedWaitEnds - 2_000);
    expect(clock.now() - startOfNight).toBeLessThanOrEqual(lastGrantedWaitEnds);
    expect(error).toMatch(gaveUp);
    expect(error).toMatch(/ --batch-size 10 --resume stock\.report-\d{8}-\d{6}\.csv$/);
    // The batches refused when it gave up failed with the why; the ones never sent have no row, for the resume.
    const failed = report.filter((row) => row.outcome === 'failed');
    expect(report.length).toBe(failed.length);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.length).toBeLessThan(200);
    expect(failed.every((row) => gaveUp.test(row.message))).toBe(true);
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^stock push: ${failed.length} failed, ${200 - failed.length} not sent;`)),
    );
    expect(result.closingLine).toMatch(/: \d+ failed, \d+ not sent; exit 69$/);
  });

  it('no Retry-After at all: the stop line says no wait was asked, never "asked to wait 0 s more", exit 69', async () => {
    const clock = new FakeClock(startOfNight);
    refuseEverything(clock, undefined);
    // Enough requests taking turns that the 10 minutes come before any one request's 50 429s.
    const { result, error, report } = await push(2000, ['--batch-size', '10'], clock);
    expect(result.code).toBe(69);
    expect(error).toMatch(
      /The platform answered HTTP 429 \(Too Many Requests\) to every request since 2026-11-30T02:00:00\.\d{3}Z \(\d+ times in \d+ s\) without saying how long to wait; that is the 10 minutes b2bctl waits for a platform that accepts nothing\. None of those requests was applied\. Stopped; /,
    );
    expect(error).not.toContain('asked to wait');
    expect(report.every((row) => row.outcome === 'failed')).toBe(true);
  });

  it('a platform that accepts one request in each 9 minutes of 429s is waited out: every item applied, exit 0', async () => {
    const clock = new FakeClock(startOfNight);
    let requests = 0;
    platform.routes['PUT /v1/stock/batch'] = (_request, body, response) => {
      // Nine 429s (Retry-After 60), then one accepted, and so on: never 10 minutes of nothing accepted.
      if (++requests % 10 !== 0) {
        response.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' }).end('{}');
        return;
      }
      const { items } = JSON.parse(body) as { items: { sku: string }[] };
      const results = items.map((item, index) => ({ index, sku: item.sku, status: 'APPLIED' }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    };
    const { result, report } = await push(3, ['--batch-size', '1', '--concurrency', '1'], clock);
    expect(report.map((row) => `${row.key} ${row.outcome}`)).toEqual(['A1 applied', 'A2 applied', 'A3 applied']);
    expect(result.code).toBe(0);
    expect(requests).toBe(30);
  });
});
