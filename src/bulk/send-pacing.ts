import type { ShapingFlag } from './run-meta.js';

/** `--concurrency` when not given; declared here so the resume record can tell "not given" from a choice. */
export const defaultConcurrency = 8;

/**
 * The sending flags every bulk run records beside its report, so its resume line (and a resume without them)
 * goes at the same pace: an interrupted `--rate 100` run must not resume at full speed. A resume may change them.
 * `--concurrency 8` reads as not given (commander fills in the default), so a resume keeps the recorded one.
 */
export const sendPacing: readonly ShapingFlag[] = [
  { flag: '--rate', key: 'rate', pacing: true },
  { flag: '--concurrency', key: 'concurrency', unset: defaultConcurrency, pacing: true },
  { flag: '--retries', key: 'retries', pacing: true },
  { flag: '--timeout', key: 'timeoutMs', pacing: true },
];
