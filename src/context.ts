import { type Clock, systemClock } from './clock.js';
import type { ProfileStore } from './config/profile-store.js';
import type { Session } from './config/session.js';
import { UsageError } from './errors.js';
import { createLogger, type LogFormat, type Logger } from './io/output/logger.js';
import type { HttpClient, RequestPace } from './platform/http-client.js';
import type { PlatformClient } from './platform/client.js';

export interface IOStreams {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  isStdoutTTY: boolean;
  isStderrTTY: boolean;
  isStdinTTY: boolean;
}

import type { OutputFormat } from './output-format.js';

export type { OutputFormat } from './output-format.js';

/** The options every command accepts (DESIGN.md §2). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  token?: string;
  output?: OutputFormat;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  /** False with --no-input: never prompt. */
  input: boolean;
  /**
   * `--log-format` (env B2BCTL_LOG_FORMAT): stderr lines as text (timestamped off a terminal), plain or JSON.
   * The CLI always sets it (default text); a context built without it writes plain lines.
   */
  logFormat?: LogFormat;
}

export interface Prompter {
  input(message: string, defaultValue?: string): Promise<string>;
  password(message: string): Promise<string>;
}

export type { Logger } from './io/output/logger.js';

/** What a command may use: its streams, the environment, the clock, and lazily built services. */
export interface Context {
  io: IOStreams;
  env: Readonly<Record<string, string | undefined>>;
  clock: Clock;
  globals: GlobalOptions;
  log: Logger;
  /** Aborted on SIGINT or SIGTERM: long-running commands finish in-flight work and stop. */
  interrupt: AbortSignal;
  /** Whether a person can be asked: stdin and stderr are terminals, no CI, no --no-input. */
  canPrompt(): boolean;
  prompter(): Promise<Prompter>;
  profiles(): Promise<ProfileStore>;
  session(options?: { allowNewProfile?: boolean }): Promise<Session>;
  /** A bare HTTP client for a base URL (login uses it before any token exists). */
  httpClient(baseUrl: string, options?: HttpClientTuning): Promise<HttpClient>;
  /** The authenticated platform client for the session's profile (built once; the first caller's tuning wins). */
  platform(options?: HttpClientTuning): Promise<PlatformClient>;
  /** -o when given, else table on a terminal and `fallback` when piped. */
  outputFormat(fallback: 'json' | 'ndjson'): OutputFormat;
  /** Releases connections; called once the command is done. */
  close(): Promise<void>;
}

/** What a bulk command adjusts on its client: connections, pacing, and its own retry and time-out flags. */
export interface HttpClientTuning {
  connections?: number;
  pace?: RequestPace;
  retries?: number;
  timeoutMs?: number;
}

export interface ContextOptions {
  io: IOStreams;
  env: Readonly<Record<string, string | undefined>>;
  globals: GlobalOptions;
  clock?: Clock;
  prompter?: Prompter;
  interrupt?: AbortSignal;
}

export function createContext(options: ContextOptions): Context {
  const { io, env, globals } = options;
  const clock = options.clock ?? systemClock;
  const log = createLogger({
    stderr: io.stderr,
    isStderrTTY: io.isStderrTTY,
    clock,
    format: globals.logFormat ?? 'plain',
    quiet: globals.quiet,
    verbose: globals.verbose,
  });
  // Kept for scripts that already pass it, but an argument is seen by every user of the machine (ps)
  // and kept in shell history: say so each time, with the ways that keep the token out of argv.
  if (globals.token !== undefined)
    log.warn(
      'warning: --token puts the token in the process list and shell history; set B2BCTL_TOKEN, or store it with b2bctl login --token-stdin.',
    );
  const closers: (() => Promise<void>)[] = [];
  let store: ProfileStore | undefined;
  let sessionPromise: Promise<Session> | undefined;
  let platformPromise: Promise<PlatformClient> | undefined;

  const context: Context = {
    io,
    env,
    clock,
    globals,
    log,
    interrupt: options.interrupt ?? new AbortController().signal,
    canPrompt: () => globals.input && io.isStdinTTY && io.isStderrTTY && !isTruthy(env.CI),
    async prompter() {
      if (options.prompter) return options.prompter;
      const { inquirerPrompter } = await import('./cli/prompter.js');
      return inquirerPrompter(io);
    },
    async profiles() {
      if (!store) {
        const [{ ProfileStore }, { configDirectory }] = await Promise.all([
          import('./config/profile-store.js'),
          import('./config/location.js'),
        ]);
        store = new ProfileStore(configDirectory(env));
      }
      return store;
    },
    session(sessionOptions) {
      sessionPromise ??= (async () => {
        const { openSession } = await import('./config/session.js');
        return openSession({
          store: await context.profiles(),
          profileFlag: globals.profile,
          flags: { baseUrl: globals.baseUrl, token: globals.token },
          env,
          allowNewProfile: sessionOptions?.allowNewProfile,
        });
      })();
      return sessionPromise;
    },
    async httpClient(baseUrl, clientOptions) {
      const { HttpClient } = await import('./platform/http-client.js');
      const session = await context.session();
      const client = new HttpClient({
        baseUrl,
        timeoutMs: clientOptions?.timeoutMs ?? wholeNumberSetting(session, 'http.timeout'),
        maxRetries: clientOptions?.retries ?? wholeNumberSetting(session, 'http.retries'),
        connections: clientOptions?.connections,
        pace: clientOptions?.pace,
        clock,
        signal: context.interrupt,
        trace: globals.verbose ? (line) => log.debug(line) : undefined,
      });
      closers.push(() => client.close());
      return client;
    },
    platform(clientOptions) {
      platformPromise ??= (async () => {
        const session = await context.session();
        const baseUrl = session.requireBaseUrl();
        const [{ PlatformClient }, { TokenSource }] = await Promise.all([
          import('./platform/client.js'),
          import('./platform/token-source.js'),
        ]);
        const http = await context.httpClient(baseUrl, clientOptions);
        return new PlatformClient(http, session, new TokenSource(session, http, env, clock, log.info));
      })();
      return platformPromise;
    },
    outputFormat(fallback) {
      return globals.output ?? (io.isStdoutTTY ? 'table' : fallback);
    },
    async close() {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
  return context;
}

function wholeNumberSetting(session: Session, key: string): number {
  const resolved = session.setting(key);
  const number = Number(resolved.value);
  if (!Number.isInteger(number) || number < 0) {
    throw new UsageError(`Setting ${key} must be a whole number, not "${resolved.value}" (from ${resolved.source}).`);
  }
  return number;
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
