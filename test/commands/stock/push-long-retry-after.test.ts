/**
 * A platform that answers 429 with a Retry-After of minutes: the wait is said in the log (a cron log would
 * otherwise show nothing for minutes), and a stop during it sends nothing more: the refused request was applied by
 * no one, so it is `not sent`, the run exits 75 with its resume line, and the platform sees no request after the stop.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Clock, systemClock } from '../../../src/base/clock.js';
import { runCommandLine } from '../../support/command-line.js';
import type { TestContext } from '../../support/test-context.js';
import { writeGeneratedStock } from '../../support/stock.js';
import { temporaryFolder } from '../../support/temporary.js';

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** A platform that refuses every request with 429 and a `Retry-After` (120 s), counting them. */
async function refusingPlatform(retryAfter = '120'): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer((request, answer) => {
    requests++;
    request.resume();
    answer.writeHead(429, { 'retry-after': retryAfter, 'content-type': 'application/json' });
    answer.end('{"message":"Too Many Requests"}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
}

/**
 * The system clock, but a wait of a minute or more is where the test stops the run (SIGTERM, as systemd's stop):
 * the wait then ends only as the stop aborts it, never by the minutes passing.
 */
function clockStoppingLongWaits(stop: () => void): Clock {
  return {
    now: () => systemClock.now(),
    sleep: (ms, signal) => {
      if (ms < 60_000) return systemClock.sleep(ms, signal);
      stop();
      return new Promise((_resolve, reject) => {
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    },
  };
}

describe('stock push meeting a Retry-After of two minutes', () => {
  it('says the wait, and a stop during it sends nothing more: not sent, exit 75, the resume line', async () => {
    const platform = await refusingPlatform();
    const folder = temporaryFolder('b2bctl-long-retry-after-');
    writeGeneratedStock(join(folder, 'stock.csv'), 5);
    let test: TestContext | undefined;
    const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch'], {
      configDir: join(folder, 'config'),
      cwd: folder,
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-token' },
      clock: clockStoppingLongWaits(() => test?.interrupt('SIGTERM')),
      started: (started) => (test = started),
    });
    expect(result.stderr).toMatch(
      /stock push: the platform asked to wait 120 s \(HTTP 429, Retry-After\); nothing is sent until \d{4}-\d\d-\d\dT[\d:.]+Z\./,
    );
    expect(result.stderr).toContain('stock push: interrupted; finishing the requests already sent');
    expect(result.stderr).toMatch(/stock push: 5 not sent; 1 requests?, 0 retries, 1 throttled \(429\)/);
    expect(result.stderr).toMatch(/--resume stock\.report-\d{8}-\d{6}\.csv/);
    expect(result.code).toBe(75);
    expect(platform.requests()).toBe(1);
  });
});

describe('stock push meeting a Retry-After longer than b2bctl waits', () => {
  it('says the platform asked a day, more than b2bctl waits, and when to try again: no wait announced, exit 69', async () => {
    const platform = await refusingPlatform('86400');
    const folder = temporaryFolder('b2bctl-long-retry-after-');
    writeGeneratedStock(join(folder, 'stock.csv'), 5);
    const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch'], {
      configDir: join(folder, 'config'),
      cwd: folder,
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-token' },
    });
    const lines = result.stderr.split('\n');
    const answered = `PUT ${platform.url}/v1/stock/batch answered HTTP 429 asking to wait 86400 s (Retry-After), longer than the 5 minutes b2bctl waits; try again after`;
    const why = lines.find((line) => line.startsWith('stock push: why,'));
    const [, until] = /try again after (\S+)\.$/.exec(why ?? '') ?? [];
    expect(Math.abs(Date.parse(until ?? '') - (Date.now() + 86_400_000))).toBeLessThan(60_000);
    expect(why).toBe(`stock push: why, 5 items (first at line 2): ${answered} ${until}.`);
    const error = lines.find((line) => line.startsWith('error:')) ?? '';
    expect(error.slice(0, error.indexOf(' run: ') + ' run: '.length)).toBe(
      `error: ${answered} ${until}. The platform was unavailable for every request of this run (5 items not sent); when it is back, run: `,
    );
    expect(error).toMatch(/ --route batch --resume stock\.report-\d{8}-\d{6}\.csv$/);
    expect(result.stderr).not.toContain('asked to wait');
    expect(result.code).toBe(69);
    expect(platform.requests()).toBe(1);
  });
});
