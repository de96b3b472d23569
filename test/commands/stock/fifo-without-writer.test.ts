/**
 * A bulk input that is a FIFO no program writes to is waited on (a FIFO or `<(…)` is a real input: the writer may
 * start later), but a cron job's log said nothing of why the run hung. After 2 s without a byte the run now says
 * once, on stderr, that it waits for a writer on that FIFO; a pipe that sends in time is never named.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
import { pipeWaitNoticeMs } from '../../../src/io/input/byte-source.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { until } from '../../support/until.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const stock = 'sku;quantity\nA1;5\nA2;7\n';
const waiting = 'Waiting for a program to write to';

/**
 * A clock whose wait before the notice ends only when the test says (`release`), so no test hangs on the wall
 * clock; every other wait ends at once.
 */
class NoticeClock implements Clock {
  private pending: (() => void)[] = [];
  now = () => Date.parse('2026-11-30T12:00:00Z');
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms !== pipeWaitNoticeMs) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.pending.push(resolve);
      signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  }
  get waiting(): number {
    return this.pending.length;
  }
  release(): void {
    for (const resolve of this.pending.splice(0)) resolve();
  }
}

function fifo(): string {
  const path = join(temporaryFolder(), 'estoque.csv');
  execFileSync('mkfifo', [path]);
  return path;
}

/** Runs `args` on `clock`, handing over its test context as soon as it exists. */
function started(args: string[], clock: Clock) {
  let test: TestContext | undefined;
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const run = runCommandLine(args, { configDir: freshConfigDir(), env, clock, started: (t) => (test = t) });
  return { run, stderr: () => test?.stderr() ?? '' };
}

const notices = (stderr: string) => stderr.split('\n').filter((line) => line.includes(waiting));

describe('a bulk input that is a FIFO with no writer', () => {
  it('stock validate: says once, after the wait, that it waits for a writer; then reads what comes', async () => {
    const path = fifo();
    const clock = new NoticeClock();
    const running = started(['stock', 'validate', path], clock);
    await until(() => clock.waiting === 1);
    expect(running.stderr()).toBe('');
    clock.release();
    await until(() => running.stderr().includes(waiting));
    expect(notices(running.stderr())).toEqual([
      `${waiting} ${path}: it is a named pipe (FIFO), and nothing has come from it in 2 s. The run reads it once a program writes it and closes it; until then it waits, holding no lock (Ctrl-C or SIGTERM ends it, nothing sent).`,
    ]);
    await writeFile(path, stock);
    const result = await running.run;
    expect(result.code).toBe(0);
    expect(notices(result.stderr)).toHaveLength(1);
    expect(result.stderr).toMatch(/: 2 records, 2 valid, 0 invalid/);
  });

  it('stock push --quiet (a cron line): the notice is on stderr, and nothing is sent before the writer came', async () => {
    const path = fifo();
    const clock = new NoticeClock();
    const running = started(['stock', 'push', path, '--quiet', '--min-records', '1', '--route', 'batch'], clock);
    await until(() => clock.waiting === 1);
    clock.release();
    await until(() => running.stderr().includes(waiting));
    expect(platform.received).toEqual([]);
    platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"processed":2}');
    await writeFile(path, stock);
    const result = await running.run;
    expect(notices(result.stderr)).toHaveLength(1);
    expect(platform.received.filter((key) => key === 'PUT /v1/stock/batch')).toHaveLength(1);
    expect(result.code).toBe(0);
  });

  it('a FIFO whose writer sends and ends before the wait is over: no notice', async () => {
    const path = fifo();
    const clock = new NoticeClock();
    const running = started(['stock', 'validate', path], clock);
    await until(() => clock.waiting === 1);
    await writeFile(path, stock);
    const result = await running.run;
    // The pipe closed: its wait ended with it, and its end is never taken for silence.
    clock.release();
    expect(result.code).toBe(0);
    expect(notices(result.stderr)).toEqual([]);
  });
});
