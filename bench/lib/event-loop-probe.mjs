// Preloaded into a receiver (`NODE_OPTIONS=--import`) by bench:webhooks --only healthz: what held its event loop.
// Each gap of more than 5 ms between two turns is split into the thread's CPU time, its time waiting for a core
// (the kernel's run queue, /proc schedstat) and the rest (asleep: a lock, SQLite's busy handler, GC helpers);
// node:sqlite calls on the main thread over 1 ms and GC pauses over 1 ms are kept with their time (epoch ms). At exit the
// findings go as JSON to B2BCTL_BENCH_PROBE_FILE. Measuring only: nothing here changes what the receiver does.
import { readFileSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const output = process.env.B2BCTL_BENCH_PROBE_FILE;
if (isMainThread && output && process.argv.includes('listen')) await probe(output);

/** Microseconds of CPU this thread used (the process's where Node cannot say the thread's). */
function cpuUs() {
  const usage = process.threadCpuUsage?.() ?? process.cpuUsage();
  return usage.user + usage.system;
}

async function probe(file) {
  const { DatabaseSync, StatementSync } = await import('node:sqlite');
  const stalls = [];
  const slowSql = [];
  const pauses = [];
  const timed = (prototype, name, sqlOf) => {
    const original = prototype[name];
    prototype[name] = function (...values) {
      const began = performance.now();
      try {
        return original.apply(this, values);
      } finally {
        const ms = performance.now() - began;
        if (ms > 1)
          slowSql.push({
            at: performance.timeOrigin + began,
            ms,
            sql: String(sqlOf(this, values)).replace(/\s+/g, ' ').slice(0, 80),
          });
      }
    };
  };
  for (const name of ['all', 'get', 'run']) timed(StatementSync.prototype, name, (statement) => statement.sourceSQL);
  timed(DatabaseSync.prototype, 'exec', (_database, values) => values[0]);

  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  // Nanoseconds the thread waited for a core; 0 where the kernel does not say.
  const queuedNs = () => {
    try {
      return Number(readFileSync(schedstat, 'utf8').split(' ')[1]);
    } catch {
      return 0;
    }
  };
  let last = { at: performance.now(), cpu: cpuUs(), queued: queuedNs() };
  setInterval(() => {
    const now = { at: performance.now(), cpu: cpuUs(), queued: queuedNs() };
    const ms = now.at - last.at;
    if (ms > 5) {
      const cpu = (now.cpu - last.cpu) / 1000;
      const queued = (now.queued - last.queued) / 1e6;
      stalls.push({ at: performance.timeOrigin + last.at, ms, cpu, queued, asleep: Math.max(0, ms - cpu - queued) });
    }
    last = now;
  }, 1).unref();
  // Every 50 ms: the CPU of the whole process and of this thread, and this thread's wait for a core, cumulated.
  const samples = [];
  setInterval(() => {
    const usage = process.cpuUsage();
    samples.push({
      at: performance.timeOrigin + performance.now(),
      processCpu: (usage.user + usage.system) / 1000,
      threadCpu: cpuUs() / 1000,
      queued: queuedNs() / 1e6,
    });
  }, 50).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.duration > 1)
        pauses.push({ at: performance.timeOrigin + entry.startTime, ms: entry.duration, kind: entry.detail?.kind });
  }).observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  process.on('exit', () => {
    const findings = {
      delayMaxMs: delay.max / 1e6,
      delayP99Ms: delay.percentile(99) / 1e6,
      stalls,
      samples,
      slowSql,
      pauses,
    };
    writeFileSync(file, JSON.stringify(findings));
  });
}
