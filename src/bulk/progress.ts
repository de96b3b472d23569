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
  if (options.io.isStderrTTY) return drawBar(options, rate);
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

/** Shows the cursor and turns line wrapping back on: what a shell needs after a bar, however the run ends. */
export const restoreTerminal = '\x1b[?25h\x1b[?7h';

/**
 * The cli-progress bar, fitted to the terminal's width (wrapping stays on, so nothing is cut off), with
 * every other line written to stderr while it is drawn printed above it (the bar line is cleared first
 * and drawn again after), cleared on stop, and the cursor shown again on every exit, even a second Ctrl-C.
 */
async function drawBar(options: ProgressOptions, rate: (done: number) => number): Promise<Progress> {
  // cli-progress is CommonJS: bundled, its exports sit on the default export.
  const loaded = await import('cli-progress');
  const { SingleBar, Presets } = loaded.default ?? loaded;
  const stream = options.io.stderr as NodeJS.WriteStream;
  const countText = `{value}/{total} ${options.unit}`;
  const long = `{percentage}% | ${countText} | {rate}/s | failed {failed} | eta {eta_formatted}`;
  const short = `{percentage}% | ${countText} | failed {failed}`;
  // The widest the text gets: every number at its largest.
  const widest = (format: string) =>
    format
      .replace('{percentage}', '100')
      .replaceAll(/\{(value|total|rate|failed)\}/g, String(Math.max(options.total, 99_999)))
      .replace('{eta_formatted}', '99h59m').length;
  const columns = stream.columns || 80;
  const minimumBar = 10;
  const text = widest(long) + minimumBar + 2 <= columns ? long : short;
  const barsize = Math.max(minimumBar, Math.min(40, columns - widest(text) - 2));
  const bar = new SingleBar(
    {
      stream,
      format: `{bar} ${text}`,
      barsize,
      hideCursor: true,
      // Wrapping is never turned off: a bar that fits needs no wrap, and a killed run cannot leave it off.
      linewrap: true,
      clearOnComplete: true,
      gracefulExit: false,
      etaBuffer: 50,
    },
    Presets.shades_classic,
  );
  // cli-progress saves the cursor at start and jumps back to it on stop, over every line logged since.
  const terminal = (bar as unknown as { terminal: { cursorSave(): void; cursorRestore(): void } }).terminal;
  terminal.cursorSave = () => {};
  terminal.cursorRestore = () => {};

  const write = stream.write;
  let drawing = false;
  const render = bar.render.bind(bar);
  bar.render = (...rest: unknown[]) => {
    drawing = true;
    try {
      (render as (...args: unknown[]) => void)(...rest);
    } finally {
      drawing = false;
    }
  };
  // A line logged while the bar is up: clear the bar's line, print the line, draw the bar below it.
  stream.write = function (this: NodeJS.WriteStream, ...args: Parameters<NodeJS.WriteStream['write']>) {
    if (drawing) return write.apply(stream, args);
    write.call(stream, '\r\x1b[K');
    const written = write.apply(stream, args);
    (bar.render as (force: boolean) => void)(true);
    return written;
  } as NodeJS.WriteStream['write'];
  const onExit = () => write.call(stream, `\r\x1b[K${restoreTerminal}`);
  process.on('exit', onExit);

  bar.start(options.total, 0, { rate: 0, failed: 0 });
  let stopped = false;
  return {
    update: (counts) => bar.update(counts.done, { rate: rate(counts.done), failed: counts.failed }),
    stop: () => {
      if (stopped) return;
      stopped = true;
      stream.write = write;
      bar.stop();
      write.call(stream, restoreTerminal);
      process.removeListener('exit', onExit);
    },
  };
}
