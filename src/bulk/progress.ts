import type { Clock } from '../base/clock.js';
import type { Context, IOStreams } from '../context.js';
import { restoreTerminal } from '../io/output/restore-terminal.js';

export interface ProgressCounts {
  done: number;
  failed: number;
  /**
   * Records whose outcome is not known (a create whose answer was lost), counted apart from `failed`: a cron log's
   * "71 failed" sent the operator to an errors file that holds none of them (a user test). Undefined or 0: not said.
   */
  unknown?: number;
}

export interface Progress {
  update(counts: ProgressCounts): void;
  stop(): void;
}

export interface ProgressOptions {
  io: IOStreams;
  clock: Clock;
  quiet: boolean;
  /** What is counted: "customers", "items", "records checked". */
  unit: string;
  /** How many there are; undefined while nobody knows (a file being read): then a count with no bar, no percentage. */
  total: number | undefined;
  /** What the failed ones are called: "failed" (the default), "invalid". */
  failedWord?: string;
  /** A count shown only once it has run a while: when it began (the rate is from then) and where it is now. */
  under?: { since: number; counts: ProgressCounts };
  log(message: string): void;
  /** Sends the log's lines to `write` while the bar is drawn (Logger.divert); the function returned ends it. */
  divertLog(write: (text: string) => void): () => void;
}

/**
 * The streams a run's progress is shown on, as `createProgress` takes them: stderr counts as a terminal for the bar
 * only when it is one that moves its cursor. JSON log lines are for a shipper, which wants the periodic lines; a
 * terminal that declares it cannot move the cursor (TERM=dumb: Emacs's shell, some CI consoles, `script` logs)
 * showed the bar's escapes as garbage, and gets the plain lines too.
 */
export function progressStreams(context: Pick<Context, 'io' | 'globals' | 'env'>): IOStreams {
  const drawable = context.globals.logFormat !== 'json' && context.env.TERM !== 'dumb';
  return drawable ? context.io : { ...context.io, isStderrTTY: false };
}

/** Minimum gap between progress lines when stderr is not a terminal (a cron log stays readable). */
export const progressLogIntervalMs = 10_000;

/**
 * A cli-progress bar when stderr is a terminal; otherwise a plain line at most every 10 seconds.
 * Nothing with --quiet.
 */
export async function createProgress(options: ProgressOptions): Promise<Progress> {
  if (options.quiet) return { update: () => {}, stop: () => {} };
  const started = options.under?.since ?? options.clock.now();
  // Per second since the start, unrounded: a slow run's time left needs the fraction.
  const rate = (done: number) => done / Math.max(0.001, (options.clock.now() - started) / 1000);
  if (options.io.isStderrTTY) return drawBar(options, rate);
  let lastLogAt = started;
  const { total } = options;
  return {
    update(counts) {
      const now = options.clock.now();
      if (now - lastLogAt < progressLogIntervalMs) return;
      lastLogAt = now;
      const of = total === undefined ? '' : ` of ${total}`;
      const percent = total ? ` (${Math.floor((counts.done / total) * 100)}%)` : '';
      const unknown = counts.unknown ? `, ${counts.unknown} unknown` : '';
      options.log(
        `progress: ${counts.done}${of} ${options.unit}${percent}, ${Math.round(rate(counts.done))}/s, ${counts.failed} ${options.failedWord ?? 'failed'}${unknown}`,
      );
    },
    stop: () => {},
  };
}

/**
 * The cli-progress bar, fitted to the terminal's width, cleared on stop, the cursor shown again on every exit, even
 * a second Ctrl-C. A line logged while it is drawn goes above it: the bar is stopped (which clears its line), the
 * line written, and the bar started again below it. Through the bar's public calls only, each line is printed at
 * once and in order, where MultiBar's buffered log() drops what is waiting when it stops.
 */
async function drawBar(options: ProgressOptions, rate: (done: number) => number): Promise<Progress> {
  // cli-progress is CommonJS: bundled, its exports sit on the default export.
  const loaded = await import('cli-progress');
  const { SingleBar, Presets, Format } = loaded.default ?? loaded;
  const stream = options.io.stderr as NodeJS.WriteStream;
  const { total } = options;
  const fitted = () => {
    const columns = stream.columns || 80;
    return total === undefined
      ? { format: fittedCount(options.unit, options.failedWord ?? 'failed', columns), barsize: 1 }
      : fittedBar(options.unit, total, columns);
  };
  const bar = new SingleBar(
    {
      stream,
      // Fitted to the width at each drawing, so a window narrowed mid-run gets a narrower bar, not wrapped ones.
      format: (barOptions, params, payload) => Format.Formatter({ ...barOptions, ...fitted() }, params, payload),
      // The bar's strings are made once, for the widest bar (fittedBar's 40 cells); each drawing takes its part.
      barsize: 40,
      // Wrapping stays on (a bar that fits needs no wrap, and a killed run cannot leave it off).
      hideCursor: true,
      linewrap: true,
      clearOnComplete: true,
      gracefulExit: false,
    },
    Presets.shades_classic,
  );
  let done = 0;
  // Rate and time left are ours: a restarted bar would start its own estimate again after every logged line.
  let payload = { rate: 0, failed: 0, remaining: timeLeft(0, total ?? 0, 0) };
  const draw = () => bar.start(total ?? 0, done, payload);
  const update = (counts: ProgressCounts) => {
    done = counts.done;
    const perSecond = rate(done);
    payload = { rate: Math.round(perSecond), failed: counts.failed, remaining: timeLeft(done, total ?? 0, perSecond) };
    bar.update(done, payload);
  };
  const giveBackLog = options.divertLog((text) => {
    bar.stop();
    stream.write(text);
    draw();
  });
  // The cursor waits at the start of the bar's line (hidden, it shows nowhere): a terminal narrowed mid-run that
  // rewraps the line into several rows keeps the cursor on the first, one that cuts it keeps it on the only one, so
  // erasing from there down takes the whole old bar either way before it is drawn again at the new width.
  bar.on('redraw-post', () => stream.write('\r'));
  const refit = () => {
    stream.write('\r\x1b[J');
    draw();
  };
  stream.on('resize', refit);
  const suspend = suspendWithTerminalBack(stream, bar, draw);
  process.on('SIGTSTP', suspend);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    stream.off('resize', refit);
    process.off('SIGTSTP', suspend);
    giveBackLog();
    bar.stop();
    stream.write(restoreTerminal);
    process.removeListener('exit', stop);
  };
  process.on('exit', stop);
  if (options.under) update(options.under.counts);
  draw();
  return { update, stop };
}

/**
 * Ctrl-Z: the shell gets its terminal back as it lent it (the bar's line cleared, the cursor shown), then the process
 * stops as Ctrl-Z asks. Once `fg` or `bg` continues it, the bar is drawn again where the shell left the cursor: drawn
 * from where it was, its cursor saved before the stop, the summary overwrote what the shell printed meanwhile.
 */
function suspendWithTerminalBack(stream: NodeJS.WriteStream, bar: { stop(): void }, draw: () => void): () => void {
  const suspend = () => {
    bar.stop();
    stream.write(restoreTerminal);
    // With no listener left the signal's default action applies: the process stops inside kill() and returns from
    // it once continued (at once when the kernel ignores the stop: a job no shell controls).
    process.off('SIGTSTP', suspend);
    process.kill(process.pid, 'SIGTSTP');
    process.on('SIGTSTP', suspend);
    draw();
  };
  return suspend;
}

/** The widest time left shown; a longer run shows this. */
const longestTimeLeft = '99h59m';

/**
 * The bar's format and size on a terminal `columns` wide: the most figures that leave the bar 10 cells, and a bar
 * that takes the rest, so the line ends before the last column (nothing wraps, nothing is cut).
 */
export function fittedBar(unit: string, total: number, columns: number): { format: string; barsize: number } {
  const counts = `{percentage}% | {value}/{total}`;
  const texts = [
    `${counts} ${unit} | {rate}/s | failed {failed} | eta {remaining}`,
    `${counts} ${unit} | failed {failed}`,
    counts,
    '{percentage}%',
  ];
  // The widest a text gets: every number at its largest.
  const widest = (text: string) =>
    text
      .replace('{percentage}', '100')
      .replaceAll(/\{(value|total|rate|failed)\}/g, String(Math.max(total, 99_999)))
      .replace('{remaining}', longestTimeLeft).length;
  const minimumBar = 10;
  const text = texts.find((candidate) => widest(candidate) + minimumBar + 2 <= columns) ?? '{percentage}%';
  const barsize = Math.max(1, Math.min(40, columns - widest(text) - 2));
  return { format: `{bar} ${text}`, barsize };
}

/** The widest a count's text gets: every figure at eight digits (a hundred million records checked). */
const widestCount = (text: string) => text.replaceAll(/\{(value|rate|failed)\}/g, '99999999').length;

/**
 * The line of a count with no known total (`412000 records checked | 85000/s | invalid 3`) on a terminal `columns` wide:
 * the most figures that fit before the last column.
 */
export function fittedCount(unit: string, failedWord: string, columns: number): string {
  const texts = [
    `{value} ${unit} | {rate}/s | ${failedWord} {failed}`,
    `{value} ${unit} | ${failedWord} {failed}`,
    `{value} ${unit}`,
  ];
  return texts.find((candidate) => widestCount(candidate) < columns) ?? '{value}';
}

const two = (value: number) => String(value).padStart(2, '0');

/** "45s", "12m05s", "3h20m": the time left at `perSecond`; "?" before anything is done. */
export function timeLeft(done: number, total: number, perSecond: number): string {
  if (perSecond <= 0 || done <= 0) return '?';
  const seconds = Math.ceil(Math.max(0, total - done) / perSecond);
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${two(seconds % 60)}s`;
  if (seconds >= 100 * 3600) return longestTimeLeft;
  return `${Math.floor(seconds / 3600)}h${two(Math.floor((seconds % 3600) / 60))}m`;
}
