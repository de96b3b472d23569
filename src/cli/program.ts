import { Command, Option } from 'commander';
import { outputFormats, type GlobalOptions, type OutputFormat } from '../context.js';
import type { Context } from '../context.js';
import { fraction, wholeNumber } from './parse.js';

/** A command's entry point, loaded only when that command runs. */
export type CommandRunner<T> = (options: T, context: Context) => Promise<void>;
export type Dispatch = <T>(load: () => Promise<CommandRunner<T>>, options: T, globals: GlobalOptions) => Promise<void>;

/**
 * The whole command surface of DESIGN.md §2. Commander only parses here: each action turns argv into
 * a command's options and hands them to `dispatch`, which imports the command module lazily.
 */
export function buildProgram(dispatch: Dispatch, env: Readonly<Record<string, string | undefined>>): Command {
  const program = new Command('b2bctl')
    .description('Keep an ERP in step with the B2B commerce platform: customers, sales reps, stock, orders, webhooks, and a local sandbox.')
    .version(B2BCTL_VERSION, '-V, --version', 'print the version')
    .option('--profile <name>', 'profile to use (env B2BCTL_PROFILE, default "default")')
    .option('--base-url <url>', 'platform API base URL (env B2BCTL_BASE_URL)')
    .option('--token <token>', 'access token to use instead of the cached one (env B2BCTL_TOKEN)')
    .addOption(new Option('-o, --output <format>', 'output format (default: table on a terminal, json when piped)').choices(outputFormats))
    .option('-q, --quiet', 'print only data and errors')
    .option('--verbose', 'trace HTTP requests (secrets redacted) and show stack traces')
    .option('--no-color', 'no colours (also NO_COLOR)')
    .option('--no-input', 'never prompt; fail with the flag to use instead')
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true });

  const globalsOf = (command: Command): GlobalOptions => {
    const options = command.optsWithGlobals<Record<string, unknown>>();
    return {
      profile: options.profile as string | undefined,
      baseUrl: options.baseUrl as string | undefined,
      token: options.token as string | undefined,
      output: options.output as OutputFormat | undefined,
      quiet: options.quiet === true,
      verbose: options.verbose === true,
      color: options.color !== false && !env.NO_COLOR,
      input: options.input !== false,
    };
  };

  program
    .command('login')
    .description('log in with the integration user and cache the 12-hour token in the profile')
    .option('--username <email>', 'integration user (env B2BCTL_USERNAME); prompted for on a terminal')
    .option('--password-stdin', 'read the password from stdin (or set B2BCTL_PASSWORD); never pass it as an argument')
    .option('--token-stdin', 'store a pre-issued token read from stdin (or pass the global --token TOKEN)')
    .action((options: { username?: string; passwordStdin?: boolean; tokenStdin?: boolean }, command: Command) =>
      dispatch(
        async () => (await import('../commands/login.js')).run,
        { username: options.username, passwordStdin: options.passwordStdin === true, tokenStdin: options.tokenStdin === true },
        globalsOf(command),
      ),
    );

  program
    .command('logout')
    .description("forget the profile's cached token")
    .action((_options: unknown, command: Command) => dispatch(async () => (await import('../commands/logout.js')).run, {}, globalsOf(command)));

  program
    .command('whoami')
    .description('show the profile, base URL, user and token expiry (never the token)')
    .action((_options: unknown, command: Command) => dispatch(async () => (await import('../commands/whoami.js')).run, {}, globalsOf(command)));

  const config = program.command('config').description('read and change profile settings (b2bctl config list shows them all)');
  config
    .command('get')
    .description("print a setting's effective value")
    .argument('<key>', 'setting, such as baseUrl or paths.token')
    .action((key: string, _options: unknown, command: Command) => dispatch(async () => (await import('../commands/config/index.js')).runGet, { key }, globalsOf(command)));
  config
    .command('set')
    .description('store a setting in the profile (an empty value removes it)')
    .argument('<key>', 'setting, such as baseUrl or paths.token')
    .argument('<value>', 'new value')
    .action((key: string, value: string, _options: unknown, command: Command) =>
      dispatch(async () => (await import('../commands/config/index.js')).runSet, { key, value }, globalsOf(command)),
    );
  config
    .command('list')
    .description('every setting with its value and source (flag, env, profile, default)')
    .action((_options: unknown, command: Command) => dispatch(async () => (await import('../commands/config/index.js')).runList, {}, globalsOf(command)));

  const sellers = program.command('sellers').description('sales reps of the store');
  sellers
    .command('list')
    .description('list sales reps with their permissions')
    .option('--email <part>', 'only e-mails containing this text (case-insensitive)')
    .option('--limit <n>', 'sales reps per page (platform default 20; with --all, the page size)', wholeNumber(1))
    .option('--offset <n>', 'sales reps to skip', wholeNumber(0))
    .option('--all', 'every page, until the platform answers []')
    .action((options: { email?: string; limit?: number; offset?: number; all?: boolean }, command: Command) =>
      dispatch(
        async () => (await import('../commands/sellers/list.js')).run,
        { email: options.email, limit: options.limit, offset: options.offset, all: options.all === true },
        globalsOf(command),
      ),
    );

  program
    .command('sandbox')
    .description('run a local simulator of the platform; prints its base URL first on stdout')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port; 0 picks a free one', wholeNumber(0), 8787)
    .option('--username <email>', 'integration user it accepts (password: B2BCTL_SANDBOX_PASSWORD, default sandbox-secret)')
    .option('--token-ttl <seconds>', 'lifetime of issued tokens', wholeNumber(1))
    .option('--latency <ms>', 'delay before every answer', wholeNumber(0))
    .option('--fail-rate <share>', 'share of requests answered 503', fraction)
    .option('--reset-rate <share>', 'share of connections reset without an answer', fraction)
    .option('--rate-limit <n>', 'requests per second before 429 with Retry-After (0: none)', wholeNumber(0))
    .option('--seed <folder>', 'folder with the seed files (default: the samples shipped with b2bctl)')
    .action((options: Record<string, unknown>, command: Command) =>
      dispatch(
        async () => (await import('../commands/sandbox.js')).run,
        {
          host: options.host as string,
          port: options.port as number,
          username: options.username as string | undefined,
          tokenTtl: options.tokenTtl as number | undefined,
          latency: options.latency as number | undefined,
          failRate: options.failRate as number | undefined,
          resetRate: options.resetRate as number | undefined,
          rateLimit: options.rateLimit as number | undefined,
          seed: options.seed as string | undefined,
        },
        globalsOf(command),
      ),
    );

  addUsageAfterErrors(program, 'b2bctl');
  return program;
}

/** After a usage error, each command prints its own usage line (clig.dev: show how to do it right). */
function addUsageAfterErrors(command: Command, path: string): void {
  command.showHelpAfterError(`Usage: ${path} ${command.usage()}\nRun "${path} --help" for details.`);
  for (const subcommand of command.commands) addUsageAfterErrors(subcommand, `${path} ${subcommand.name()}`);
}
