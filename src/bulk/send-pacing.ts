import type { ShapingFlag } from './run-meta.js';

/** `--concurrency` when not given. */
export const defaultConcurrency = 8;

/** The requests a run keeps in flight: --concurrency, or the resumed run's, or the default. */
export function sendingConcurrency(flags: { concurrency?: number }): number {
  return flags.concurrency ?? defaultConcurrency;
}

/**
 * The sending flags every bulk run records beside its report, so its resume line (and a resume without them)
 * goes at the same pace: an interrupted `--rate 100` run must not resume at full speed. A resume may change them.
 * commander gives no default for them, so `--concurrency 8` given to a resume is a choice, not the default.
 */
export const sendPacing: readonly ShapingFlag[] = [
  { flag: '--rate', key: 'rate', pacing: true },
  { flag: '--concurrency', key: 'concurrency', pacing: true },
  { flag: '--retries', key: 'retries', pacing: true },
  { flag: '--timeout', key: 'timeoutMs', pacing: true },
];
