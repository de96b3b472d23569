import type { Clock } from '../clock.js';
import type { IOStreams } from '../context.js';

export interface ProgressCounts {
  done: number;
  failed: number;
}

export interface Progress {
  update(counts: ProgressCounts): void;
  stop(): void;
}

export interface ProgressOptions {
  io: IOStreams;
  clock: Clock;
  quiet: boolean;
  /** What is counted: "customers", "items". */
  unit: string;
  total: number;
  log(message: string): void;
}

/** Minimum gap between progress lines when stderr is not a terminal (a cron log stays readable). */
export const progressLogIntervalMs = 10_000;

/**
 * A cli-progress bar when stderr is a terminal; otherwise a plain line at most every 10 seconds.
 * Nothing with --quiet.
 */
export async function createProgress(options: ProgressOptions): Promise<Progress> {
  if (options.quiet) return { update: () => {}, stop: () => {} };
  const started = options.clock.now();
  const rate = (done: number) => Math.round(done / Math.max(0.001, (options.clock.now() - started) / 1000));
  if (options.io.isStderrTTY) {
    // cli-progress is CommonJS: bundled, its exports sit on the default export.
    const loaded = await import('cli-progress');
    const { SingleBar, Presets } = loaded.default ?? loaded;
    const bar = new SingleBar(
      {
        stream: options.io.stderr as NodeJS.WriteStream,
        format: `{bar} {percentage}% | {value}/{total} ${options.unit} | {rate}/s | failed {failed} | eta {eta_formatted}`,
        hideCursor: true,
        etaBuffer: 50,
      },
      Presets.shades_classic,
    );
    bar.start(options.total, 0, { rate: 0, failed: 0 });
    return {
      update: (counts) => bar.update(counts.done, { rate: rate(counts.done), failed: counts.failed }),
      stop: () => bar.stop(),
    };
  }
  let lastLogAt = started;
  return {
    update(counts) {
      const now = options.clock.now();
      if (now - lastLogAt < progressLogIntervalMs) return;
      lastLogAt = now;
      const percent = options.total > 0 ? ` (${Math.floor((counts.done / options.total) * 100)}%)` : '';
      options.log(
        `progress: ${counts.done} of ${options.total} ${options.unit}${percent}, ${rate(counts.done)}/s, ${counts.failed} failed`,
      );
    },
    stop: () => {},
  };
}
