import type { Clock } from '../../clock.js';

/**
 * How stderr lines are written: `text` for people (an ISO-8601 time first when stderr is not a terminal), `plain`
 * never timestamped (for a journal or wrapper that adds its own times), `json` one object per line for log shippers.
 */
export const logFormats = ['text', 'plain', 'json'] as const;
export type LogFormat = (typeof logFormats)[number];

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

/**
 * The one writer of stderr's log lines. On a terminal a line is the message alone. Anywhere else (cron, systemd,
 * a file) each line starts with an ISO-8601 time, so a night's log stands alone; `json` writes one object per line
 * (time, level, message, fields) for log shippers. A message of several lines keeps the time on each of them.
 */
export function createLogger(options: LoggerOptions): Logger {
  const write = (level: Level, message: string, fields: LogFields | undefined) => {
    const time = new Date(options.clock.now()).toISOString();
    if (options.format === 'json') {
      // The level says what the prefix said; the message keeps the words.
      const words = message.replace(/^(?:error|warning): /, '');
      const line = { time, level, message: words, ...(fields && Object.keys(fields).length > 0 ? { fields } : {}) };
      options.stderr.write(`${JSON.stringify(line)}\n`);
      return;
    }
    if (options.isStderrTTY || options.format === 'plain') {
      options.stderr.write(`${message}\n`);
      return;
    }
    options.stderr.write(
      `${message
        .split('\n')
        .map((line) => `${time} ${line}`)
        .join('\n')}\n`,
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
  };
}
