import { type Command, Option } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { fraction, httpUrl, port, signedNumber, waitDuration, wholeNumber } from '../../command-kit/parse.js';
import type { SandboxCommandOptions } from './run.js';

/** What commander parses: the verb's own options, the flags with a default always present. */
type SandboxFlags = SandboxCommandOptions &
  Required<Pick<SandboxCommandOptions, 'host' | 'port' | 'webhookStyle' | 'webhookTokenPath'>>;

/**
 * `--tax-timeout`: a bare number keeps its meaning (seconds); a checkout that waits a minute for its taxes is
 * already no checkout, and a wait past 24.8 days would fire at once.
 */
const taxTimeout = waitDuration({
  maxMs: 60_000,
  shown: '60s',
  examples: '3s or 500ms',
  why: 'a checkout waits no longer for its taxes',
  bareUnit: 's',
});

/** `b2bctl sandbox`: the local platform simulator. */
export function register(program: Command, dispatch: Dispatch): void {
  program
    .command('sandbox')
    .summary('run a local simulator of the platform; prints its base URL first on stdout')
    .description(
      "Runs a simulator of the platform on this machine, in memory: the same routes, rules and answers (login, customers, sales reps, stock, orders and their moves, listings, webhooks to a receiver, the tax callback), seeded from the samples shipped with b2bctl. Use it to try every job before touching a store, and as the target of the tests and benchmarks. Its first stdout line is its base URL; its banner ends with the lines to paste to log in (the settings a dialect's token route needs, then the login). Latency, faults, rate limits, clock skew and other platforms' dialects are set by flags (docs/sandbox.md). It forgets everything when it stops.",
    )
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port; 0 picks a free one', port, 8787)
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
    .option('--stock-schema <file>', "JSON mapping of the stock item fields to this store's names (default: identity)")
    .option('--order-routes <file>', 'where this store takes the order moves: an order routes file (default: ours)')
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
    .addOption(
      new Option(
        '--orders-webhook <variant>',
        'the orders webhook: the summary fields, or the whole order in the dialect’s shape',
      )
        .choices(['simplified', 'full'])
        .default('simplified'),
    )
    .option(
      '--tax-callback <url>',
      'a cart posted to /_sandbox/orders waits for its taxes from this URL (tax serve; a fixed token: B2BCTL_TAX_TOKEN)',
      httpUrl,
    )
    .option(
      '--tax-client-id <id>',
      "ask the tax callback's token endpoint first, as this client (secret: B2BCTL_TAX_CLIENT_SECRET)",
    )
    .addOption(
      new Option('--tax-style <style>', "token request style of the tax callback's token endpoint")
        .choices(['basic', 'body', 'headers'])
        .default('basic'),
    )
    .option('--tax-token-path <path>', "the tax callback's token route", '/oauth/token')
    .option(
      '--tax-timeout <time>',
      'how long a cart waits for the tax callback before it is refused, at most 60s (default 3s)',
      taxTimeout,
    )
    .addOption(
      new Option('--dialect <name>', 'how to answer what the platform document does not show').choices(sandboxDialects),
    )
    .option(
      '--clock-offset <seconds>',
      "seconds its clock (the Date header) is ahead of this machine's (negative: behind)",
      signedNumber,
    )
    // Each flag is named as its option (commander's camel case), so the parsed flags are the options.
    .action((_flags: unknown, command: Command) =>
      dispatch<SandboxCommandOptions>(
        command,
        async () => (await import('./run.js')).run,
        command.opts<SandboxFlags>(),
      ),
    );
}

/** The sandbox's dialects, by name (src/sandbox/dialects/; a test holds the two lists equal). */
export const sandboxDialects = ['default', 'spring', 'legacy', 'gateway'] as const;

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  sandbox: [
    'b2bctl sandbox --port 0',
    'b2bctl sandbox --port 8787 --latency 50 --fail-rate 0.05 --rate-limit 20',
    'b2bctl sandbox --webhook-url http://127.0.0.1:8080 --webhook-client-id erp --webhook-style body',
  ],
};
