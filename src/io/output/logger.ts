import type { Clock } from '../../base/clock.js';
import { type BatchedWriter, batchedWriter } from './batched-writer.js';
import type { LogFormat } from './log-formats.js';
import { printableLines } from './printable.js';

/** Extra facts of a log line, kept apart from its wording in `--log-format json` (counts, file and line). */
export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  /** Progress and outcomes for a person; silenced by --quiet. */
  info(message: string, fields?: LogFields): void;
  /** Shown even with --quiet, at level info: the one summary line a cron log should always have. */
  notice(message: string, fields?: LogFields): void;
  /** Always shown. */
  warn(message: string, fields?: LogFields): void;
  /** The error that ends the command; always shown. */
  error(message: string, fields?: LogFields): void;
  /** Only with --verbose. */
  debug(message: string, fields?: LogFields): void;
  /**
   * Runs `work` with the lines it logs written in batches (a line per problem of a large file), each at most one
   * turn of the event loop late; all of them are written when it ends, however it ends.
   */
  batched<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Sends every line to `write` instead of stderr (a progress bar prints it above itself) until the returned
   * function is called.
   */
  divert(write: (text: string) => void): () => void;
}

export interface LoggerOptions {
  stderr: NodeJS.WritableStream;
  isStderrTTY: boolean;
  clock: Clock;
  format: LogFormat;
  quiet: boolean;
  verbose: boolean;
}

type Level = 'debug' | 'info' | 'warn' | 'error';

/** The streams a logger has taken the failed writes of (one listener each, however many loggers write to it). */
const givenUpOnFailure = new WeakSet<object>();

/**
 * A log that cannot be written (cron's log file on a full disk, `2>/dev/full`) is given up silently: its 'error'
 * event, with no listener, ended the run mid-request with exit 1. The run goes on and its exit code and report
 * still tell how it went (docs/cron.md).
 */
function giveUpOnFailedWrites(stream: NodeJS.WritableStream): void {
  if (givenUpOnFailure.has(stream)) return;
  givenUpOnFailure.add(stream);
  stream.on('error', () => {});
}

/**
 * The one writer of stderr's log lines. On a terminal a line is the message alone. Anywhere else (cron, systemd,
 * a file) each line starts with an ISO-8601 time, so a night's log stands alone; `json` writes one object per line
 * (time, level, message, fields) for log shippers. A message of several lines keeps the time on each of them.
 */
export function createLogger(options: LoggerOptions): Logger {
  giveUpOnFailedWrites(options.stderr);
  let batch: BatchedWriter | undefined;
  let diverted: ((text: string) => void) | undefined;
  const put = (text: string) => {
    if (diverted) diverted(text);
    else if (batch) void batch.write(text);
    else options.stderr.write(text);
  };
  // A problem line per record of a large file: the time is formatted once per millisecond, not once per line.
  let formattedAt = Number.NaN;
  let formattedTime = '';
  const timeNow = () => {
    const now = options.clock.now();
    if (now !== formattedAt) {
      formattedAt = now;
      formattedTime = new Date(now).toISOString();
    }
    return formattedTime;
  };
  const write = (level: Level, said: string, fields: LogFields | undefined) => {
    // JSON escapes control characters itself; text lines show them as `\u{1B}`.
    const message = options.format === 'json' ? said : printableLines(said);
    if (options.format === 'json') {
      const time = timeNow();
      // The level says what the prefix said; the message keeps the words.
      const words = message.replace(/^(?:error|warning): /, '');
      const line = { time, level, message: words, ...(fields && Object.keys(fields).length > 0 ? { fields } : {}) };
      put(`${JSON.stringify(line)}\n`);
      return;
    }
    if (options.isStderrTTY || options.format === 'plain') {
      put(`${message}\n`);
      return;
    }
    const time = timeNow();
    put(
      message.includes('\n')
        ? `${message
            .split('\n')
            .map((line) => `${time} ${line}`)
            .join('\n')}\n`
        : `${time} ${message}\n`,
    );
  };
  return {
    info: (message, fields) => {
      if (!options.quiet) write('info', message, fields);
    },
    notice: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    debug: (message, fields) => {
      if (options.verbose) write('debug', message, fields);
    },
    async batched(work) {
      if (batch) return work();
      batch = batchedWriter(options.stderr);
      try {
        return await work();
      } finally {
        const written = batch;
        batch = undefined;
        // Written now; never waiting for stderr to drain, as a single line never does.
        written.flush().catch(() => {});
      }
    },
    divert(sink) {
      // Lines still waiting in a batch go out first, in their order.
      batch?.flush().catch(() => {});
      diverted = sink;
      return () => {
        if (diverted === sink) diverted = undefined;
      };
    },
  };
}
