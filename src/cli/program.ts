import { Command, type CommanderError, Option } from 'commander';
import type { ExitCode } from '../base/errors.js';
import type { GlobalOptions } from '../context.js';
import { type LogFormat, logFormatOf, logFormats } from '../io/output/log-formats.js';
import { type OutputFormat, outputFormats } from '../base/output-format.js';
import type { CommandGroupModule, Dispatch } from '../command-kit/command-group.js';
import { addExamples } from './examples.js';
import { helpLayout } from './help-layout.js';
import { givenOnce, nonEmpty } from '../command-kit/parse.js';

/** The global options (docs/output.md, "Conventions") as commander parses them. */
interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  token?: string;
  output?: OutputFormat;
  quiet?: true;
  verbose?: true;
  color: boolean;
  input: boolean;
  logFormat?: LogFormat;
  excel?: true;
}

/**
 * The root of the command surface (docs/commands/): the global options, and the command groups of
 * `src/commands/<group>/cli.ts`, which parse their own flags and hand typed options to `dispatch`.
 */
export async function buildProgram(dispatch: Dispatch, argv: readonly string[] = []): Promise<Command> {
  // Only the command group named on the command line is built (every group for root help or an
  // unknown word): defining ~80 options costs more start-up than the rest of the CLI.
  const named = commandGroupIn(argv);
  const program = new Command('b2bctl')
    .summary('keep an ERP in step with a B2B commerce platform')
    .description(
      "Keeps an ERP in step with a B2B commerce platform from the command line: customers from the CSV, JSON and workbooks that ERPs and Excel export, the nightly stock and price file, sales reps, orders polled without missing one and moved on (ready, invoiced, shipped, canceled), the platform's webhooks received into a durable inbox, taxes per item from the ERP's table, and any other route through b2bctl api. It logs in with the store's integration user and caches the token per profile. Every bulk run checks the whole file before it sends anything, paces itself, retries what may be retried, writes a report and prints the command that resumes it. b2bctl sandbox is a local simulator of the platform to try all of it without a store.",
    )
    .version(B2BCTL_VERSION_LINE, '-V, --version', 'print the version')
    .option(
      '--profile <name>',
      'profile to use (env B2BCTL_PROFILE, default "default")',
      givenOnce(nonEmpty('a profile name', '--profile', 'B2BCTL_PROFILE or "default"'), '--profile'),
    )
    .option(
      '--base-url <url>',
      'platform API base URL (env B2BCTL_BASE_URL)',
      givenOnce(nonEmpty('a URL', '--base-url', "B2BCTL_BASE_URL or the profile's"), '--base-url'),
    )
    // Hidden: a secret in argv is against our own rule (B2BCTL_TOKEN is documented instead); still parsed, with a warning.
    .addOption(
      new Option('--token <token>', 'access token to use instead of the cached one')
        .argParser(nonEmpty('a token', '--token', 'B2BCTL_TOKEN or the cached one'))
        .hideHelp(),
    )
    .addOption(new Option('-o, --output <format>', outputHelp).choices(outputFormats))
    .option('-q, --quiet', 'print only data and errors')
    .option('--verbose', 'trace HTTP requests (secrets redacted) and show stack traces')
    .option('--no-color', 'no colours (also NO_COLOR)')
    .option('--no-input', 'never prompt; fail with the flag to use instead')
    .option(
      '--excel',
      "a CSV that a pt-BR Excel opens as is (BOM, ';' between cells, decimal comma): -o csv for Excel, and alone the same; a bulk run's report too, not its errors file, which keeps the input's delimiter to be fed back",
    )
    .addOption(
      new Option(
        '--log-format <format>',
        'stderr lines: text (ISO-8601 time first when not a terminal), plain (never a time), or json, one object per line (env B2BCTL_LOG_FORMAT)',
      ).choices(logFormats),
    )
    .showSuggestionAfterError(true)
    .configureHelp(helpLayout);

  // `--version` alone needs no command at all: loading every group for it would cost its start-up.
  const words = argv.slice(2);
  const versionOnly =
    words.every((word) => word.startsWith('-')) && words.some((word) => word === '-V' || word === '--version');
  const modules = versionOnly
    ? []
    : named === undefined
      ? Object.values(commandGroups)
      : named === '__complete'
        ? groupsToComplete(argv)
        : [commandGroups[named]];
  // Several words share one room (login, logout and whoami): each room registers once.
  for (const group of new Set(await Promise.all(modules.map((load) => load())))) {
    group.register(program, dispatch);
    addExamples(program, group.examples);
  }

  // The root's own examples.
  program.addHelpText(
    'after',
    [
      '',
      'Examples:',
      '  $ b2bctl login --base-url https://api.mystore.com.br --username erp@mystore.com.br',
      '  $ b2bctl customer create clientes.csv --dry-run',
      '  $ b2bctl stock push estoque.csv --quiet',
      '  $ b2bctl sandbox --port 0',
      '',
    ].join('\n'),
  );
  addUsageAfterErrors(program, 'b2bctl');
  return program;
}

/** `-o`: what most commands default to, and the bulk runs' exception (docs/output.md). */
const outputHelp =
  'output format (default: table on a terminal, json when piped); a bulk run (stock push, customer create…) prints data, its summary, only with json or ndjson';

/**
 * The global options in effect for `command` (the command whose action fired). A B2BCTL_LOG_FORMAT that is not a
 * format counts as unset here; `refuseUnknownLogFormat` makes it the error before a command runs.
 */
export function globalsOf(command: Command, env: Readonly<Record<string, string | undefined>>): GlobalOptions {
  const flags = command.optsWithGlobals<GlobalFlags>();
  return {
    profile: flags.profile,
    baseUrl: flags.baseUrl,
    token: flags.token,
    output: flags.output,
    quiet: flags.quiet === true,
    verbose: flags.verbose === true,
    // A terminal that declares it shows no attributes (TERM=dumb: Emacs shells, some CI logs) gets none either.
    color: flags.color !== false && !env.NO_COLOR && env.TERM !== 'dumb',
    input: flags.input !== false,
    excel: flags.excel === true,
    // B2BCTL_LOG_FORMAT when it names a format; empty or unset stays undefined (the default is run-program.ts's).
    logFormat: flags.logFormat ?? logFormatOf(env.B2BCTL_LOG_FORMAT),
  };
}

/** A usage error when no --log-format was given and B2BCTL_LOG_FORMAT names no format (an empty one is unset). */
export async function refuseUnknownLogFormat(
  globals: GlobalOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const value = env.B2BCTL_LOG_FORMAT;
  if (globals.logFormat !== undefined || value === undefined || value === '') return;
  // Loaded only for this mistake: help and every good command line never load the error classes.
  const { UsageError } = await import('../base/errors.js');
  throw new UsageError(`B2BCTL_LOG_FORMAT must be one of ${logFormats.join(', ')}, not "${value}".`);
}

/**
 * A usage error for `--excel` beside `-o json`, `ndjson` or `table`: --excel is a CSV for Excel, so the two ask for
 * different outputs, and taking either silently writes what the other did not ask for. Not for a bulk run
 * (`writesReport`): there --excel is the report's (a file) and -o its summary, as the report.excel setting beside
 * -o json always did; refused, the advice `-o csv --excel` was refused in turn (a user test).
 */
export async function refuseExcelWithOtherFormat(globals: GlobalOptions, writesReport = false): Promise<void> {
  if (!globals.excel || globals.output === undefined || globals.output === 'csv' || writesReport) return;
  const { UsageError } = await import('../base/errors.js');
  throw new UsageError(
    `--excel writes a CSV for a pt-BR Excel; it does not go with -o ${globals.output}. Give -o csv --excel (or --excel alone), or -o ${globals.output} alone.`,
  );
}

/** Each word of the command line and the room that registers it, imported only when named (or for root help). */
const commandGroups = {
  login: () => import('../commands/auth/cli.js'),
  logout: () => import('../commands/auth/cli.js'),
  whoami: () => import('../commands/auth/cli.js'),
  config: () => import('../commands/config/cli.js'),
  sellers: () => import('../commands/sellers/cli.js'),
  customer: () => import('../commands/customer/cli.js'),
  stock: () => import('../commands/stock/cli.js'),
  sandbox: () => import('../commands/sandbox/cli.js'),
  orders: () => import('../commands/orders/cli.js'),
  webhook: () => import('../commands/webhook/cli.js'),
  doctor: () => import('../commands/doctor/cli.js'),
  api: () => import('../commands/api/cli.js'),
  tax: () => import('../commands/tax/cli.js'),
  completion: () => import('../commands/completion/cli.js'),
  docs: () => import('../commands/docs/cli.js'),
  __complete: () => import('../commands/completion/cli.js'),
} satisfies Record<string, () => Promise<CommandGroupModule>>;
type CommandGroup = keyof typeof commandGroups;
const globalOptionsWithValue = new Set(['--profile', '--base-url', '--token', '-o', '--output', '--log-format']);

/**
 * `b2bctl __complete -- WORDS...` completes against the tree the words name: the group of the first whole word
 * (a TAB inside `customer cre` needs only the customer group), or every group while that word is being typed.
 */
function groupsToComplete(argv: readonly string[]): (() => Promise<CommandGroupModule>)[] {
  const separator = argv.indexOf('--');
  const words = separator < 0 ? [] : argv.slice(separator + 1);
  const group = commandGroupIn(['node', 'b2bctl', ...words.slice(0, -1)]);
  return group === undefined ? Object.values(commandGroups) : [commandGroups.completion, commandGroups[group]];
}

/** The command group an argv names (`b2bctl --profile prod sellers list` → sellers), if it is one of ours. */
export function commandGroupIn(argv: readonly string[]): CommandGroup | undefined {
  const words = argv.slice(2);
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    if (globalOptionsWithValue.has(word)) {
      index++;
      continue;
    }
    if (word.startsWith('-')) continue;
    return Object.hasOwn(commandGroups, word) ? (word as CommandGroup) : undefined;
  }
  return undefined;
}

/**
 * Makes commander throw instead of exiting (so main.ts decides every exit code) and write help and
 * errors to the given streams. Subcommands copied the root's settings when they were created, so each
 * one needs these too: without the override a usage error in `sellers list` would exit 1 through process.exit.
 */
export function endParsesWithErrors(
  command: Command,
  write: { out: (text: string) => void; err: (text: string) => void },
): void {
  command.exitOverride();
  command.configureOutput({ writeOut: write.out, writeErr: write.err });
  for (const subcommand of command.commands) endParsesWithErrors(subcommand, write);
}

/**
 * The exit code when commander ends the parse itself: 0 for help and the version a person asked for
 * (`--help`, `help`, `help customer`, `help --help`), 2 for a usage error and for the help shown because a
 * command was missing (`b2bctl customer` alone), which commander marks with a non-zero exit code of its own.
 */
export function parseEndExitCode(error: CommanderError): ExitCode {
  const askedFor =
    error.code === 'commander.helpDisplayed' ||
    error.code === 'commander.version' ||
    (error.code === 'commander.help' && error.exitCode === 0);
  return askedFor ? 0 : 2;
}

/**
 * `b2bctl nosuch --help` and `b2bctl help nosuch` (`argv` as written, before helpOfCommandPath): commander showed the nearest command's whole help,
 * with no word of the unknown one (exit 0, or 2 for `help`); a usage error instead, as `b2bctl nosuch` gets and as gh
 * answers, with the nearest name offered.
 */
export async function refuseHelpOfUnknownCommand(program: Command, argv: readonly string[]): Promise<void> {
  const operands: string[] = [];
  for (let index = 2; index < argv.length && argv[index] !== '--'; index++) {
    const word = argv[index] as string;
    if (globalOptionsWithValue.has(word)) index++;
    else operands.push(word);
  }
  const viaHelp = operands[0] === 'help';
  const asked = viaHelp ? operands.slice(1) : operands;
  if (!viaHelp && !operands.includes('--help') && !operands.includes('-h')) return;
  let command = program;
  for (const word of asked) {
    if (word === '--help' || word === '-h') return;
    if (word.startsWith('-')) continue;
    // A verb's further words are its arguments (`stock push file.csv --help`); after `help`, a topic it lacks.
    if (command.commands.length === 0 && !viaHelp) return;
    const next = command.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
    if (next === undefined)
      return (await import('../command-kit/unknown-command.js')).refuseUnknownCommand(command, word);
    command = next;
  }
}

/** After a usage error, each command prints its own usage line (clig.dev: show how to do it right). */
function addUsageAfterErrors(command: Command, path: string): void {
  command.showHelpAfterError(`Usage: ${path} ${command.usage()}\nRun "${path} --help" for details.`);
  for (const subcommand of command.commands) addUsageAfterErrors(subcommand, `${path} ${subcommand.name()}`);
}
