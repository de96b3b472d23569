import { type Command, Option } from 'commander';
import type { Dispatch } from '../../cli/command-group.js';
import { addExamples } from '../../cli/examples.js';
import { fraction, httpUrl, wholeNumber } from '../../cli/parse.js';
import type { SandboxCommandOptions } from './run.js';

interface SandboxFlags {
  host: string;
  port: number;
  username?: string;
  tokenTtl?: number;
  latency?: number;
  failRate?: number;
  resetRate?: number;
  rateLimit?: number;
  seed?: string;
  settings?: string;
  generatedSkus?: number;
  stockSchema?: string;
  orderChurn?: number;
  orders?: number;
  webhookUrl?: string;
  webhookStyle: 'basic' | 'body' | 'headers';
  webhookClientId?: string;
  webhookTokenPath: string;
  dialect?: string;
  clockOffset?: number;
}

/** `b2bctl sandbox`: the local platform simulator. */
export function register(program: Command, dispatch: Dispatch): void {
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
    .option('--stock-schema <file>', "JSON mapping of the stock item fields to this store's names (default: identity)")
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
    .action((_flags: unknown, command: Command) => {
      const flags = command.opts<SandboxFlags>();
      return dispatch<SandboxCommandOptions>(command, async () => (await import('./run.js')).run, {
        host: flags.host,
        port: flags.port,
        username: flags.username,
        tokenTtl: flags.tokenTtl,
        latency: flags.latency,
        failRate: flags.failRate,
        resetRate: flags.resetRate,
        rateLimit: flags.rateLimit,
        seed: flags.seed,
        settings: flags.settings,
        generatedSkus: flags.generatedSkus,
        stockSchema: flags.stockSchema,
        orderChurn: flags.orderChurn,
        orders: flags.orders,
        webhookUrl: flags.webhookUrl,
        webhookStyle: flags.webhookStyle,
        webhookClientId: flags.webhookClientId,
        webhookTokenPath: flags.webhookTokenPath,
        dialect: flags.dialect,
        clockOffset: flags.clockOffset,
      });
    });

  addExamples(program, {
    sandbox: [
      'b2bctl sandbox --port 0',
      'b2bctl sandbox --port 8787 --latency 50 --fail-rate 0.05 --rate-limit 20',
      'b2bctl sandbox --webhook-url http://127.0.0.1:8080 --webhook-client-id erp --webhook-style body',
    ],
  });
}
