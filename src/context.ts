import { type Clock, systemClock } from './base/clock.js';
import type { ProfileStore } from './config/profile-store.js';
import type { Session } from './config/session.js';
import type { LogFormat } from './io/output/log-formats.js';
import { createLogger, type Logger } from './io/output/logger.js';
import type { HttpClient, RequestPace } from './platform/http-client.js';
import type { BackoffSettings } from './lib/backoff.js';
import type { PlatformClient } from './platform/client.js';
import type { TokenSource } from './platform/token-source.js';

export type { IOStreams, Prompter } from './io/streams.js';
import type { IOStreams, Prompter } from './io/streams.js';
import { shellWord } from './lib/shell-word.js';

import type { OutputFormat } from './base/output-format.js';

export type { OutputFormat } from './base/output-format.js';

/** The options every command accepts (docs/output.md, "Conventions"). */
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
  /** `--excel`: CSV on stdout as a pt-BR Excel opens it (BOM, `;`, decimal comma). */
  excel?: boolean;
  /**
   * `--log-format` (env B2BCTL_LOG_FORMAT): stderr lines as text (timestamped off a terminal), plain or JSON.
   * The CLI always sets it (default text); a context built without it writes plain lines.
   */
  logFormat?: LogFormat;
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
  /**
   * Calls `listener` with the exit code when a second stop signal ends the process at once (src/cli/main.ts), before
   * it ends: what is said then must be written at once, synchronously. Returns the listener's removal.
   */
  onStoppedAtOnce(listener: (exitCode: number) => void): () => void;
  /** Whether a person can be asked: stdin and stderr are terminals, no CI, no --no-input. */
  canPrompt(): boolean;
  prompter(): Promise<Prompter>;
  profiles(): Promise<ProfileStore>;
  /**
   * The profile this run uses. `allowNewProfile`: a profile not there yet is made (login, config set);
   * `removingKey`: the key a `config unset` removes, not warned about as no setting.
   */
  session(options?: { allowNewProfile?: boolean; removingKey?: string }): Promise<Session>;
  /** A bare HTTP client for a base URL (login uses it before any token exists). */
  httpClient(baseUrl: string, options?: HttpClientTuning): Promise<HttpClient>;
  /**
   * The authenticated platform client for the session's profile. Without tuning: the command's one client for
   * plain reads, built once. With tuning (a bulk run's pace, connections, retries, time-out): a client built for
   * exactly that tuning, whoever asked first. Every client shares one token source, so the token is fetched once.
   */
  platform(tuning?: HttpClientTuning): Promise<PlatformClient>;
  /** -o when given, else table on a terminal and `fallback` when piped. */
  outputFormat(fallback: 'json' | 'ndjson'): OutputFormat;
  /** Releases connections; called once the command is done. */
  close(): Promise<void>;
}

/** Colour on stdout: only on a terminal, and never with --no-color or NO_COLOR; every command asks here. */
export function colorOnStdout(context: Pick<Context, 'io' | 'globals'>): boolean {
  return context.io.isStdoutTTY && context.globals.color;
}

/** How a listing decorates stdout: colour on a terminal, and the CSV dialect `--excel` asks for. */
export function stdoutStyle(context: Pick<Context, 'io' | 'globals'>): { color: boolean; excel: boolean } {
  return { color: colorOnStdout(context), excel: context.globals.excel === true };
}

/** What a bulk command adjusts on its client: connections, pacing, and its own retry and time-out flags. */
export interface HttpClientTuning {
  connections?: number;
  pace?: RequestPace;
  retries?: number;
  timeoutMs?: number;
  /** The waits between retries (a bulk run's are longer: retry-policy.ts, bulkRunBackoff). */
  backoff?: BackoffSettings;
  /**
   * A bulk run's client: once interrupted, or once this is aborted (the run stopped), a request not yet started is
   * not sent (NothingSentError).
   */
  startNothingAfter?: AbortSignal;
  /** The command takes `--timeout`: a time-out's advice names it (HttpClientOptions.timeoutFlag). */
  timeoutFlag?: boolean;
}

/** When a bulk run's client starts no more requests: once interrupted, or once the run stops (HttpClientTuning). */
function stopStartingOf(interrupt: AbortSignal, tuning: HttpClientTuning | undefined): AbortSignal | undefined {
  return tuning?.startNothingAfter ? AbortSignal.any([interrupt, tuning.startNothingAfter]) : undefined;
}

export interface ContextOptions {
  io: IOStreams;
  env: Readonly<Record<string, string | undefined>>;
  globals: GlobalOptions;
  clock?: Clock;
  /** A ready prompter (tests script one). */
  prompter?: Prompter;
  /**
   * Builds the prompter on first use; main.ts passes one that imports @inquirer/prompts only then, so start-up
   * never pays for it and this module needs nothing from the command-line wiring.
   */
  loadPrompter?: (io: IOStreams) => Promise<Prompter>;
  interrupt?: AbortSignal;
  /** Context.onStoppedAtOnce (tests stop a run at once without ending their process); the process's 'exit' else. */
  onStoppedAtOnce?: Context['onStoppedAtOnce'];
}

/** The dependencies of a command, each built on first use. */
export function createContext(options: ContextOptions): Context {
  const { io, env, globals } = options;
  const clock = options.clock ?? systemClock;
  const log = contextLogger(io, globals, clock);
  const closers: (() => Promise<void>)[] = [];
  let sessionPromise: Promise<Session> | undefined;
  let untunedPlatform: Promise<PlatformClient> | undefined;
  let tokenSource: TokenSource | undefined;

  const context: Context = {
    io,
    env,
    clock,
    globals,
    log,
    interrupt: options.interrupt ?? new AbortController().signal,
    onStoppedAtOnce: options.onStoppedAtOnce ?? ((listener) => onExitAfterInterrupt(context.interrupt, listener)),
    canPrompt: () => globals.input && io.isStdinTTY && io.isStderrTTY && !isTruthy(env.CI),
    prompter: prompterOnce(options),
    profiles: profileStoreOnce(env),
    session(sessionOptions) {
      sessionPromise ??= openContextSession(context, sessionOptions);
      return sessionPromise;
    },
    async httpClient(baseUrl, clientOptions) {
      const { HttpClient } = await import('./platform/http-client.js');
      const session = await context.session();
      const client = new HttpClient({
        baseUrl,
        timeoutMs: clientOptions?.timeoutMs ?? session.get('http.timeout'),
        maxRetries: clientOptions?.retries ?? session.get('http.retries'),
        backoff: clientOptions?.backoff,
        undeclaredCharset: session.get('answers.charset'),
        connections: clientOptions?.connections,
        pace: clientOptions?.pace,
        timeoutFlag: clientOptions?.timeoutFlag,
        clock,
        env,
        signal: context.interrupt,
        stopStarting: stopStartingOf(context.interrupt, clientOptions),
        trace: globals.verbose ? (line) => log.debug(line) : undefined,
      });
      closers.push(() => client.close());
      return client;
    },
    platform(tuning) {
      const build = async () => {
        const session = await context.session();
        const baseUrl = session.requireBaseUrl();
        const [{ PlatformClient }, { TokenSource }] = await Promise.all([
          import('./platform/client.js'),
          import('./platform/token-source.js'),
        ]);
        tokenSource ??= new TokenSource(session, env, clock, log.info, log.warn, { signal: context.interrupt });
        return new PlatformClient(await context.httpClient(baseUrl, tuning), session, tokenSource);
      };
      if (tuning) return build();
      untunedPlatform ??= build();
      return untunedPlatform;
    },
    outputFormat(fallback) {
      // --excel alone means its CSV.
      return globals.output ?? (globals.excel ? 'csv' : io.isStdoutTTY ? 'table' : fallback);
    },
    async close() {
      await Promise.allSettled(closers.map((close) => close()));
    },
  };
  return context;
}

/**
 * The process ends at once on a second stop signal through its 'exit' listeners (src/cli/main.ts, endAtOnce): an exit
 * after the first signal is that one.
 */
function onExitAfterInterrupt(interrupt: AbortSignal, listener: (exitCode: number) => void): () => void {
  const onExit = (exitCode: number) => {
    if (interrupt.aborted) listener(exitCode);
  };
  process.once('exit', onExit);
  return () => process.off('exit', onExit);
}

/** The run's session: the profile the global flags and the environment name, its unknown keys warned of. */
async function openContextSession(context: Context, options: Parameters<Context['session']>[0]): Promise<Session> {
  const { openSession } = await import('./config/session.js');
  const { globals } = context;
  const session = openSession({
    store: await context.profiles(),
    profileFlag: globals.profile,
    flags: { baseUrl: globals.baseUrl, token: globals.token },
    env: context.env,
    allowNewProfile: options?.allowNewProfile,
  });
  await warnOfUnknownKeys(session, context.log, options?.removingKey);
  return session;
}

/**
 * One warning for each key of the profile that is no setting (a typo made editing config.json by hand), once a run:
 * no command reads it, so the value meant is not applied, and nothing else would say so (a user test). Not for the
 * key a `config unset` is removing.
 */
async function warnOfUnknownKeys(session: Session, log: Logger, removingKey: string | undefined): Promise<void> {
  const { didYouMean, unknownProfileKeys } = await import('./config/settings.js');
  for (const { key, suggestion } of unknownProfileKeys(session.profile)) {
    if (key === removingKey) continue;
    log.warn(
      `warning: profile "${session.profileName}" holds ${JSON.stringify(key)}, which is no setting${didYouMean(suggestion)}: it is ignored. Remove it with b2bctl config unset ${shellWord(key)}${session.profileFlag()}.`,
    );
  }
}

/** The logger of the global flags; warns once when the token came as a flag. */
function contextLogger(io: IOStreams, globals: GlobalOptions, clock: Clock): Logger {
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
  return log;
}

/** The profile store of the configuration folder, loaded on first use. */
function profileStoreOnce(env: ContextOptions['env']): () => Promise<ProfileStore> {
  let store: ProfileStore | undefined;
  return async () => {
    if (!store) {
      const [{ ProfileStore }, { configDirectory }] = await Promise.all([
        import('./config/profile-store.js'),
        import('./config/location.js'),
      ]);
      store = new ProfileStore(configDirectory(env));
    }
    return store;
  };
}

/** The prompter given, or the one loadPrompter builds on first use. */
function prompterOnce(options: ContextOptions): () => Promise<Prompter> {
  let prompterPromise: Promise<Prompter> | undefined;
  return () => {
    prompterPromise ??= options.prompter
      ? Promise.resolve(options.prompter)
      : options.loadPrompter
        ? options.loadPrompter(options.io)
        : Promise.reject(new Error('No prompter was given to createContext (prompter or loadPrompter).'));
    return prompterPromise;
  };
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
