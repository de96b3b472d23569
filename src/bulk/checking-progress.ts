import type { Context } from '../context.js';
import { createProgress, type Progress, progressStreams } from './progress.js';
import type { ValidationSummary } from './validation-pass.js';

/** A check shorter than this shows nothing: a bar drawn and cleared within a second is only a flicker. */
export const checkingProgressAfterMs = 1_000;

export interface CheckingProgress {
  /** The pass's counts so far, after each batch of records. */
  update(summary: Pick<ValidationSummary, 'records' | 'invalid'>): void;
  /** Clears the line for good: at the end, or when problems are about to be printed on the same terminal. */
  stop(): void;
}

/**
 * How far the validation pass has read, while nobody knows how many records there are: a count on a terminal
 * (`412000 records checked | 85000/s | invalid 3`), redrawn in place and cleared at the end; elsewhere a progress line
 * at most every 10 seconds. Nothing for a pass that ends within a second, nothing with --quiet. A million-row
 * workbook takes seconds to check, and a terminal that shows nothing for them looks hung.
 */
export function checkingProgress(context: Context, unit: string): CheckingProgress {
  const started = context.clock.now();
  let progress: Progress | undefined;
  let starting = false;
  let stopped = false;
  let latest = { done: 0, failed: 0 };
  const start = async () => {
    const shown = await createProgress({
      io: progressStreams(context),
      clock: context.clock,
      quiet: context.globals.quiet,
      unit,
      total: undefined,
      failedWord: 'invalid',
      under: { since: started, counts: latest },
      log: (message) => context.log.info(message),
      divertLog: (write) => context.log.divert(write),
    });
    if (stopped) shown.stop();
    else {
      progress = shown;
      shown.update(latest);
    }
  };
  return {
    update(summary) {
      if (stopped) return;
      latest = { done: summary.records, failed: summary.invalid };
      if (progress) progress.update(latest);
      else if (!starting && context.clock.now() - started >= checkingProgressAfterMs) {
        starting = true;
        // cli-progress is loaded on first use; the records read meanwhile are counted by the next update. A bar
        // that cannot be drawn leaves the check to go on without it.
        start().catch(() => (stopped = true));
      }
    },
    stop() {
      stopped = true;
      progress?.stop();
    },
  };
}
