/**
 * The clock of a thread's waits for a core: on Linux it reads the scheduler's run-queue delay, which grows only while
 * the thread is ready to run and no core is free. Two busy threads on one core (`taskset`) make such waits for sure.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { coreWaitClock } from '../../../src/lib/core-waits.js';
import { requireThat, requireTools } from '../../support/external-tools.js';

const linux = requireThat(existsSync('/proc/thread-self/schedstat'), 'the system has no /proc/thread-self/schedstat');
const taskset = requireTools('taskset');

describe('coreWaitClock', () => {
  it.skipIf(linux.missing)(`reads the same clock for the thread each time, and never goes back${linux.note}`, () => {
    const clock = coreWaitClock();
    expect(clock).toBeDefined();
    expect(coreWaitClock()).toBe(clock);
    const first = clock?.waitedMs() ?? Number.NaN;
    expect(Number.isFinite(first)).toBe(true);
    expect(clock?.waitedMs()).toBeGreaterThanOrEqual(first);
  });

  // Two processes pinned to one core, each busy for 300 ms of CPU: one of them must wait while the other runs.
  it.skipIf(linux.missing || taskset.missing)(
    `counts the time a thread waited while another held its only core${linux.note}${taskset.note}`,
    () => {
      const busy = `
      const { coreWaitClock } = await import(${JSON.stringify(new URL('../../../src/lib/core-waits.ts', import.meta.url).pathname)});
      const clock = coreWaitClock();
      const before = clock.waitedMs();
      const cpu = process.cpuUsage();
      while ((process.cpuUsage(cpu).user + process.cpuUsage(cpu).system) / 1000 < 300);
      console.log(clock.waitedMs() - before);`;
      const script = `
      const { spawn } = require('node:child_process');
      const runs = [0, 1].map(() => new Promise((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', ${JSON.stringify(busy)}]);
        let out = ''; child.stdout.on('data', (d) => (out += d)); child.on('close', () => resolve(Number(out)));
      }));
      Promise.all(runs).then((waits) => console.log(JSON.stringify(waits)));`;
      const waits = JSON.parse(
        execFileSync('taskset', ['-c', '0', process.execPath, '-e', script], { encoding: 'utf8' }),
      ) as number[];
      // Each ran 300 ms of CPU on the one core they shared: together they waited at least a good part of that.
      expect(waits.reduce((sum, wait) => sum + wait, 0)).toBeGreaterThan(100);
    },
  );
});
