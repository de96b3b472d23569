import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress, progressLogIntervalMs } from '../../../src/bulk/progress.js';
import type { IOStreams } from '../../../src/context.js';
import { FakeClock } from '../../support/fake-clock.js';

function streams(isStderrTTY: boolean): { io: IOStreams; stderrText: () => string } {
  const stderr = new PassThrough();
  const chunks: Buffer[] = [];
  stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const io: IOStreams = {
    stdout: new PassThrough(),
    stderr,
    stdin: new PassThrough(),
    isStdoutTTY: false,
    isStderrTTY,
    isStdinTTY: false,
  };
  return { io, stderrText: () => Buffer.concat(chunks).toString('utf8') };
}

describe('createProgress without a terminal', () => {
  it('logs at most once every 10 s of the clock, with counts, percentage, rate and failures', async () => {
    const clock = new FakeClock(50_000);
    const { io, stderrText } = streams(false);
    const logged: [number, string][] = [];
    const progress = await createProgress({
      io,
      clock,
      quiet: false,
      unit: 'customers',
      total: 1000,
      log: (message) => logged.push([clock.now() - 50_000, message]),
      divertLog: () => () => {},
    });
    // An update every 500 ms for 35 s, 10 customers each time.
    for (let step = 1; step <= 70; step++) {
      clock.advance(500);
      progress.update({ done: step * 10, failed: Math.floor(step / 20) });
    }
    progress.stop();
    expect(progressLogIntervalMs).toBe(10_000);
    expect(logged).toEqual([
      [10_000, 'progress: 200 of 1000 customers (20%), 20/s, 1 failed'],
      [20_000, 'progress: 400 of 1000 customers (40%), 20/s, 2 failed'],
      [30_000, 'progress: 600 of 1000 customers (60%), 20/s, 3 failed'],
    ]);
    expect(stderrText()).toBe('');
  });

  it.each<[string, number[], number[]]>([
    ['updates only in the first 10 s log nothing', [1, 5_000, 9_999], []],
    ['the first line comes 10 s after the start', [9_999, 10_000, 10_001], [10_000]],
    [
      'the gap is counted from the last line, not a fixed grid',
      [12_000, 21_999, 22_000, 31_000, 32_000],
      [12_000, 22_000, 32_000],
    ],
    ['a long silence gives one line, not a catch-up burst', [60_000, 60_001, 60_002, 69_999, 70_000], [60_000, 70_000]],
  ])('%s', async (_name, updateTimes, expectedLogTimes) => {
    const clock = new FakeClock();
    const logTimes: number[] = [];
    const progress = await createProgress({
      io: streams(false).io,
      clock,
      quiet: false,
      unit: 'items',
      total: 10,
      log: () => logTimes.push(clock.now()),
      divertLog: () => () => {},
    });
    for (const time of updateTimes) {
      clock.advance(time - clock.now());
      progress.update({ done: 1, failed: 0 });
    }
    expect(logTimes).toEqual(expectedLogTimes);
  });

  it('without a known total it leaves the percentage out', async () => {
    const clock = new FakeClock();
    const logged: string[] = [];
    const progress = await createProgress({
      io: streams(false).io,
      clock,
      quiet: false,
      unit: 'items',
      total: 0,
      log: (message) => logged.push(message),
      divertLog: () => () => {},
    });
    clock.advance(10_000);
    progress.update({ done: 5, failed: 0 });
    expect(logged).toEqual(['progress: 5 of 0 items, 1/s, 0 failed']);
  });
});

describe('createProgress counting records whose outcome is unknown', () => {
  it.each<[number, string]>([
    [71, 'progress: 301 of 301 customers (100%), 30/s, 0 failed, 71 unknown'],
    [0, 'progress: 301 of 301 customers (100%), 30/s, 0 failed'],
  ])('%i unknown: said apart from the failed', async (unknown, line) => {
    const clock = new FakeClock();
    const logged: string[] = [];
    const progress = await createProgress({
      io: streams(false).io,
      clock,
      quiet: false,
      unit: 'customers',
      total: 301,
      log: (message) => logged.push(message),
      divertLog: () => () => {},
    });
    clock.advance(10_000);
    progress.update({ done: 301, failed: 0, unknown });
    expect(logged).toEqual([line]);
  });
});

describe('createProgress with --quiet', () => {
  it.each([false, true])('logs and draws nothing (stderr a terminal: %s)', async (isStderrTTY) => {
    const clock = new FakeClock();
    const { io, stderrText } = streams(isStderrTTY);
    const logged: string[] = [];
    const progress = await createProgress({
      io,
      clock,
      quiet: true,
      unit: 'customers',
      total: 100,
      log: (message) => logged.push(message),
      divertLog: () => () => {},
    });
    for (let step = 1; step <= 100; step++) {
      clock.advance(1000);
      progress.update({ done: step, failed: 0 });
    }
    progress.stop();
    expect(logged).toEqual([]);
    expect(stderrText()).toBe('');
  });
});
