import { Command, Option } from 'commander';
import type { Context, GlobalOptions } from '../context.js';
import { type OutputFormat, outputFormats } from '../output-format.js';
import type { InputFlags, SendFlags } from '../bulk/flags.js';
import { delimiter, fraction, httpUrl, positiveNumber, wholeNumber } from './parse.js';
import { register as registerOrders } from '../commands/orders/cli.js';
import { register as registerWebhook } from '../commands/webhook/cli.js';
import { register as registerDoctor } from '../commands/doctor/cli.js';

/** A command's entry point, loaded only when that command runs. */
export type CommandRunner<T> = (options: T, context: Context) => Promise<void>;
export type Dispatch = <T>(load: () => Promise<CommandRunner<T>>, options: T, globals: GlobalOptions) => Promise<void>;

/**
 * The whole command surface of DESIGN.md §2. Commander only parses here: each action turns argv into
 * a command's options and hands them to `dispatch`, which imports the command module lazily.
 */
export function buildProgram(
  dispatch: Dispatch,
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
): Command {
  // Only the command group named on the command line is built (every group for root help or an
  // unknown word): defining ~80 options costs more start-up than the rest of the CLI.
  const named = commandGroupIn(argv);
  const wanted = (group: CommandGroup) => named === undefined || named === group;
  const program = new Command('b2bctl')
    .description(
      'Keep an ERP in step with the B2B commerce platform: customers, sales reps, stock, orders, webhooks, and a local sandbox.',
    )
    .version(B2BCTL_VERSION, '-V, --version', 'print the version')
    .option('--profile <name>', 'profile to use (env B2BCTL_PROFILE, default "default")')
    .option('--base-url <url>', 'platform API base URL (env B2BCTL_BASE_URL)')
    // Hidden: a secret in argv is against our own rule (B2BCTL_TOKEN is documented instead); still parsed, with a warning.
    .addOption(new Option('--token <token>', 'access token to use instead of the cached one').hideHelp())
    .addOption(
      new Option('-o, --output <format>', 'output format (default: table on a terminal, json when piped)').choices(
        outputFormats,
      ),
    )
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

  if (wanted('login')) {
    program
      .command('login')
      .description('log in with the integration user and cache the 12-hour token in the profile')
      .option('--username <email>', 'integration user (env B2BCTL_USERNAME); prompted for on a terminal')
      .option('--password-stdin', 'read the password from stdin (or set B2BCTL_PASSWORD); never pass it as an argument')
      .option('--token-stdin', 'store a pre-issued token piped on stdin')
      .option('--no-verify', 'store a pre-issued token without the one request that checks it')
      .action(
        (
          options: { username?: string; passwordStdin?: boolean; tokenStdin?: boolean; verify?: boolean },
          command: Command,
        ) =>
          dispatch(
            async () => (await import('../commands/login.js')).run,
            {
              username: options.username,
              passwordStdin: options.passwordStdin === true,
              tokenStdin: options.tokenStdin === true,
              verify: options.verify !== false,
            },
            globalsOf(command),
          ),
      );
  }

  if (wanted('logout')) {
    program
      .command('logout')
      .description("forget the profile's cached token")
      .action((_options: unknown, command: Command) =>
        dispatch(async () => (await import('../commands/logout.js')).run, {}, globalsOf(command)),
      );
  }

  if (wanted('whoami')) {
    program
      .command('whoami')
      .description('show the profile, base URL, user and token expiry (never the token)')
      .action((_options: unknown, command: Command) =>
        dispatch(async () => (await import('../commands/whoami.js')).run, {}, globalsOf(command)),
      );
  }

  if (wanted('config')) {
    const config = program
      .command('config')
      .description('read and change profile settings (b2bctl config list shows them all)');
    config
      .command('get')
      .description("print a setting's effective value")
      .argument('<key>', 'setting, such as baseUrl or paths.token')
      .action((key: string, _options: unknown, command: Command) =>
        dispatch(async () => (await import('../commands/config/index.js')).runGet, { key }, globalsOf(command)),
      );
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
      .action((_options: unknown, command: Command) =>
        dispatch(async () => (await import('../commands/config/index.js')).runList, {}, globalsOf(command)),
      );
  }

  if (wanted('sellers')) {
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
  }

  if (wanted('customer')) {
    const customer = program
      .command('customer')
      .description('customers: validate, create, update, activate, addresses');
    withInputOptions(
      customer
        .command('validate')
        .description('check every customer record locally, printing every problem; sends nothing')
        .argument('<file>', 'CSV, JSON array or object, NDJSON, or - for stdin')
        .option('--update', 'check the file as input to customer update (only the document is required)'),
    ).action((file: string, options: Record<string, unknown>, command: Command) =>
      dispatch(
        async () => (await import('../commands/customer/validate.js')).run,
        { file, mode: options.update === true ? ('update' as const) : ('create' as const), ...inputFlagsOf(options) },
        globalsOf(command),
      ),
    );
    withSendOptions(
      withInputOptions(
        customer
          .command('create')
          .description('create the customers of a file; nothing is sent while any record is invalid')
          .argument('<file>', 'CSV, JSON array or object, NDJSON, or - for stdin')
          .option('--upsert', 'update a customer whose document is already registered, instead of failing'),
      ),
    ).action((file: string, options: Record<string, unknown>, command: Command) =>
      dispatch(
        async () => (await import('../commands/customer/create.js')).run,
        { file, upsert: options.upsert === true, ...inputFlagsOf(options), ...sendFlagsOf(options) },
        globalsOf(command),
      ),
    );
    withSendOptions(
      withInputOptions(
        customer
          .command('update')
          .description('partial updates keyed by document: from a FILE, or one customer with --document and --set')
          .argument('[file]', 'CSV, JSON, NDJSON, or - for stdin; each record has a document and the fields to change')
          .option('--document <doc>', 'the customer to update (with --set)')
          .option(
            '--set <field=value>',
            'a field to change, such as active=false or customerGroupList=Atacado|Sul (repeatable)',
            (value: string, previous: string[]) => [...previous, value],
            [] as string[],
          ),
      ),
    ).action((file: string | undefined, options: Record<string, unknown>, command: Command) =>
      dispatch(
        async () => (await import('../commands/customer/update.js')).run,
        {
          file,
          document: options.document as string | undefined,
          set: options.set as string[],
          ...inputFlagsOf(options),
          ...sendFlagsOf(options),
        },
        globalsOf(command),
      ),
    );
    withSendOptions(
      withInputOptions(
        customer
          .command('status')
          .description('activate or deactivate: DOC active|inactive, or a FILE with document and active columns')
          .argument('<doc-or-file>', 'a CPF/CNPJ, or a file')
          .argument('[state]', 'active or inactive (with a document)'),
      ),
    ).action((target: string, state: string | undefined, options: Record<string, unknown>, command: Command) =>
      dispatch(
        async () => (await import('../commands/customer/status.js')).run,
        { target, state, ...inputFlagsOf(options), ...sendFlagsOf(options) },
        globalsOf(command),
      ),
    );
    customer
      .command('addresses')
      .description("list a customer's addresses")
      .argument('<doc>', 'the CPF or CNPJ')
      .action((document: string, _options: unknown, command: Command) =>
        dispatch(async () => (await import('../commands/customer/addresses.js')).run, { document }, globalsOf(command)),
      );
  }

  if (wanted('stock')) {
    const stock = program
      .command('stock')
      .description('stock and price: nightly files through the 50-item and 200-item routes');
    withInputOptions(
      stock
        .command('validate')
        .description('check every row of a stock file locally; sends nothing')
        .argument('<file>', 'CSV, JSON, NDJSON, or - for stdin'),
    ).action((file: string, options: Record<string, unknown>, command: Command) =>
      dispatch(
        async () => (await import('../commands/stock/validate.js')).run,
        { file, ...inputFlagsOf(options) },
        globalsOf(command),
      ),
    );
    withSendOptions(
      withInputOptions(
        stock
          .command('push')
          .description('push a stock and price file, paced, retried, reported and resumable')
          .argument('<file>', 'CSV, JSON, NDJSON, or - for stdin')
          .addOption(
            new Option(
              '--route <route>',
              'batch: PUT /v1/stock/batch (50 items, per-item results); queue: POST /api/v1/stocks/batch (200 items, asynchronous); auto: by file size (stock.autoThreshold)',
            )
              .choices(['auto', 'batch', 'queue'])
              .default('auto'),
          )
          .option('--batch-size <n>', 'items per request (default: the route maximum, 50 or 200)', wholeNumber(1))
          .option('--schema <file>', "the store's names for the item fields (JSON); default: the stock.schema setting"),
      ),
    ).action((file: string, options: Record<string, unknown>, command: Command) =>
      dispatch(
        async () => (await import('../commands/stock/push.js')).run,
        {
          file,
          route: options.route as 'auto' | 'batch' | 'queue',
          batchSize: options.batchSize as number | undefined,
          schema: options.schema as string | undefined,
          ...inputFlagsOf(options),
          ...sendFlagsOf(options),
        },
        globalsOf(command),
      ),
    );
  }

  if (wanted('sandbox')) {
    program
      .command('sandbox')
      .description('run a local simulator of the platform; prints its base URL first on stdout')
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option('--port <port>', 'port; 0 picks a free one', wholeNumber(0), 8787)
      .option(
        '--username <email>',
        'integration user it accepts (password: B2BCTL_SANDBOX_PASSWORD, default sandbox-secret)',
      )
      .option('--token-ttl <seconds>', 'lifetime of issued tokens', wholeNumber(1))
      .option('--latency <ms>', 'delay before every answer', wholeNumber(0))
      .option('--fail-rate <share>', 'share of requests answered 503', fraction)
      .option('--reset-rate <share>', 'share of connections reset without an answer', fraction)
      .option('--rate-limit <n>', 'requests per second before 429 with Retry-After (0: none)', wholeNumber(0))
      .option('--seed <folder>', 'folder with the seed files (default: the samples shipped with b2bctl)')
      .option(
        '--settings <file>',
        'store settings JSON merged over <seed>/store-settings.json (ZIP validation, lat/lng, SSO ids, price tags, customer types, groups)',
      )
      .option(
        '--generated-skus <n>',
        'SKUs GEN-0000001 … GEN-<n> known besides products.json (default 2000000)',
        wholeNumber(0),
      )
      .option(
        '--stock-schema <file>',
        "JSON mapping of the stock item fields to this store's names (default: identity)",
      )
      .option('--order-churn <share>', 'share of order listings that first update a few orders (0 to 1)', fraction)
      .option('--orders <n>', 'orders seeded over the last 30 days (default 300)', wholeNumber(0))
      .option('--webhook-url <base>', "send the customers and orders webhooks to this receiver's base URL", httpUrl)
      .addOption(
        new Option('--webhook-style <style>', 'token request style of the receiver')
          .choices(['basic', 'body', 'headers'])
          .default('basic'),
      )
      .option('--webhook-client-id <id>', 'client id for the receiver (secret: B2BCTL_WEBHOOK_CLIENT_SECRET)')
      .option('--webhook-token-path <path>', "receiver's token route", '/oauth/token')
      .option(
        '--dialect <name>',
        'how to answer what the platform document does not show: default, spring, legacy, gateway',
      )
      .option('--clock-offset <seconds>', "seconds its clock (the Date header) is ahead of this machine's", Number)
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
            settings: options.settings as string | undefined,
            generatedSkus: options.generatedSkus as number | undefined,
            stockSchema: options.stockSchema as string | undefined,
            orderChurn: options.orderChurn as number | undefined,
            orders: options.orders as number | undefined,
            webhookUrl: options.webhookUrl as string | undefined,
            webhookStyle: options.webhookStyle as 'basic' | 'body' | 'headers',
            webhookClientId: options.webhookClientId as string | undefined,
            webhookTokenPath: options.webhookTokenPath as string,
            dialect: options.dialect as string | undefined,
            clockOffset: options.clockOffset as number | undefined,
          },
          globalsOf(command),
        ),
      );
  }

  if (wanted('orders'))
    registerOrders(program, (command, load, options) => dispatch(load, options, globalsOf(command)));
  if (wanted('webhook'))
    registerWebhook(program, (command, load, options) => dispatch(load, options, globalsOf(command)));
  if (wanted('doctor'))
    registerDoctor(program, (command, load, options) => dispatch(load, options, globalsOf(command)));

  addUsageAfterErrors(program, 'b2bctl');
  return program;
}

const commandGroups = [
  'login',
  'logout',
  'whoami',
  'config',
  'sellers',
  'customer',
  'stock',
  'sandbox',
  'orders',
  'webhook',
  'doctor',
] as const;
type CommandGroup = (typeof commandGroups)[number];
const globalOptionsWithValue = new Set(['--profile', '--base-url', '--token', '-o', '--output']);

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
    return (commandGroups as readonly string[]).includes(word) ? (word as CommandGroup) : undefined;
  }
  return undefined;
}

/** The reading flags of DESIGN.md §5, shared by every command that takes a FILE. */
function withInputOptions(command: Command): Command {
  return command
    .option('--map <file>', 'JSON file renaming the ERP\'s headers to field names, such as {"CNPJ":"document"}')
    .option('--delimiter <char>', 'CSV delimiter (default: sniffed among , ; and tab)', delimiter)
    .addOption(
      new Option(
        '--encoding <name>',
        'text encoding: utf-8, windows-1252, cp850, macintosh, utf-16le… (default: UTF-8 when it decodes, else Windows-1252)',
      ),
    )
    .addOption(
      new Option(
        '--decimal <separator>',
        'decimal separator of numbers (default: , with ; as delimiter, else .)',
      ).choices(['.', ',']),
    )
    .option('--strict', 'an unknown column is an error, not a warning');
}

function inputFlagsOf(options: Record<string, unknown>): InputFlags {
  return {
    map: options.map as string | undefined,
    delimiter: options.delimiter as string | undefined,
    encoding: options.encoding as InputFlags['encoding'],
    decimal: options.decimal as InputFlags['decimal'],
    strict: options.strict === true,
  };
}

/** The sending flags of DESIGN.md §2 and §7, shared by every bulk command. */
function withSendOptions(command: Command): Command {
  return command
    .option('--concurrency <n>', 'requests in flight at once', wholeNumber(1), 8)
    .option('--rate <n>', 'requests per second at most (default: as fast as the platform answers)', positiveNumber)
    .option('--retries <n>', 'retries of a failed request (default: the http.retries setting, 3)', wholeNumber(0))
    .option('--timeout <ms>', 'per-request timeout (default: the http.timeout setting, 30000)', wholeNumber(1))
    .option('--report <path>', 'report file (default: beside the input, NAME.report-TIMESTAMP.csv, or in outputDir)')
    .option('--errors <path>', 'file of failed and invalid records to fix and feed back (default: beside the report)')
    .option('--resume <report>', "skip the records an earlier run's report shows done, and append to that report")
    .option(
      '--keep-reports <n>',
      'after the run, remove the report files of all but the N newest runs of this input',
      wholeNumber(1),
    )
    .option('--skip-invalid', 'send the valid records and report the invalid ones, instead of sending nothing')
    .option('--dry-run', 'validate and say what would be sent, without sending');
}

function sendFlagsOf(options: Record<string, unknown>): SendFlags {
  return {
    concurrency: options.concurrency as number,
    rate: options.rate as number | undefined,
    retries: options.retries as number | undefined,
    timeoutMs: options.timeout as number | undefined,
    report: options.report as string | undefined,
    errors: options.errors as string | undefined,
    resume: options.resume as string | undefined,
    keepReports: options.keepReports as number | undefined,
    skipInvalid: options.skipInvalid === true,
    dryRun: options.dryRun === true,
  };
}

/** After a usage error, each command prints its own usage line (clig.dev: show how to do it right). */
function addUsageAfterErrors(command: Command, path: string): void {
  command.showHelpAfterError(`Usage: ${path} ${command.usage()}\nRun "${path} --help" for details.`);
  for (const subcommand of command.commands) addUsageAfterErrors(subcommand, `${path} ${subcommand.name()}`);
}
