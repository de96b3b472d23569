import type { Context } from '../../context.js';
import { existsSync } from 'node:fs';
import { InputError, UsageError } from '../../base/errors.js';
import { serveUntilInterrupted } from '../../http-server/serve.js';
import { sandboxDefaults, type SandboxOptions } from '../../sandbox/options.js';
import { defaultSeedDirectory } from '../../base/package-root.js';
import { type Dialect, dialectNamed, dialectNames } from '../../sandbox/dialects/index.js';
import { settingDefinition } from '../../config/settings.js';
import { routePath } from '../../config/setting-parsers.js';
import { printable } from '../../lib/printable.js';
import { startSandbox } from '../../sandbox/server.js';
import { loadStockSchema } from '../../io/stock-schema.js';
import { loadOrderRoutes } from '../../io/order-routes-file.js';
import { reachableListenerWarning, refusePlainHttp } from '../../net/plain-http.js';
import { secretFromEnvironment } from '../../net/environment-secret.js';

export interface SandboxCommandOptions {
  host?: string;
  port?: number;
  username?: string;
  tokenTtl?: number;
  latency?: number;
  failRate?: number;
  resetRate?: number;
  rateLimit?: number;
  seed?: string;
  /** Store settings file, merged over the seed folder's store-settings.json. */
  settings?: string;
  generatedSkus?: number;
  /** JSON file mapping the stock item fields to the names this simulated store uses. */
  stockSchema?: string;
  orderRoutes?: string;
  /** Share of order listing requests that first change a few orders. */
  orderChurn?: number;
  /** Orders seeded over the last 30 days. */
  orders?: number;
  /** Receiver of the sandbox's webhooks; its secret comes from B2BCTL_WEBHOOK_CLIENT_SECRET. */
  webhookUrl?: string;
  webhookStyle?: 'basic' | 'body' | 'headers';
  webhookClientId?: string;
  webhookTokenPath?: string;
  /** The orders webhook's variant: summary fields, or the whole order. */
  ordersWebhook?: 'simplified' | 'full';
  /** Where a cart asks for its taxes before it becomes an order (`tax serve`); its token from B2BCTL_TAX_TOKEN. */
  taxCallback?: string;
  /** How long a cart waits for the tax callback, in milliseconds. */
  taxTimeout?: number;
  /** Asks the tax callback's token endpoint first, as this client; its secret from B2BCTL_TAX_CLIENT_SECRET. */
  taxClientId?: string;
  taxStyle?: 'basic' | 'body' | 'headers';
  taxTokenPath?: string;
  /** How it answers what the platform document does not show (src/sandbox/dialects/). */
  dialect?: string;
  /** Seconds its clock (the `Date` header) is ahead of this machine's; negative for behind. */
  clockOffset?: number;
}

/** Runs the platform simulator until SIGINT or SIGTERM; the first line on stdout is its base URL. */
export async function run(options: SandboxCommandOptions, context: Context): Promise<void> {
  const dialect = dialectNamed(options.dialect);
  if (!dialect)
    throw new UsageError(`--dialect ${options.dialect}: no such dialect; choose one of ${dialectNames.join(', ')}.`);
  // The receiver's client id names who the sandbox is to --webhook-url: without it, taken and doing nothing.
  if (options.webhookClientId !== undefined && options.webhookUrl === undefined)
    throw new UsageError(
      '--webhook-client-id is the client the sandbox logs in as at --webhook-url, which is not given: add --webhook-url URL, or leave --webhook-client-id out.',
    );
  if (options.seed !== undefined && !existsSync(options.seed))
    throw new InputError(
      `--seed ${options.seed}: no such folder; give a folder shaped as the samples (docs/sandbox.md).`,
      {
        file: options.seed,
        missing: true,
      },
    );
  const sandboxOptions: SandboxOptions = {
    host: options.host ?? sandboxDefaults.host,
    port: options.port ?? sandboxDefaults.port,
    username: options.username ?? sandboxDefaults.username,
    password: secretFromEnvironment(context.env, 'B2BCTL_SANDBOX_PASSWORD') ?? sandboxDefaults.password,
    tokenTtlSeconds: options.tokenTtl ?? sandboxDefaults.tokenTtlSeconds,
    latencyMs: options.latency ?? sandboxDefaults.latencyMs,
    failRate: options.failRate ?? sandboxDefaults.failRate,
    resetRate: options.resetRate ?? sandboxDefaults.resetRate,
    rateLimit: options.rateLimit ?? sandboxDefaults.rateLimit,
    seedDirectory: options.seed ?? defaultSeedDirectory(),
    settingsFile: options.settings,
    generatedSkus: options.generatedSkus ?? sandboxDefaults.generatedSkus,
    // The same reader as stock push's --schema, so the sandbox can play a store whose stock fields have other names.
    stockSchema:
      options.stockSchema === undefined
        ? undefined
        : loadStockSchema(options.stockSchema, { kind: 'flag', flag: '--stock-schema', value: options.stockSchema }),
    orderRoutes:
      options.orderRoutes === undefined
        ? undefined
        : loadOrderRoutes(options.orderRoutes, { kind: 'flag', flag: '--order-routes', value: options.orderRoutes }),
    orderChurn: options.orderChurn,
    orderCount: options.orders,
    webhook: webhookTarget(options, context),
    ordersWebhook: options.ordersWebhook,
    taxCallback: taxCallbackOf(options, context),
    dialect,
    clockOffsetSeconds: options.clockOffset ?? 0,
    logRequest: context.globals.verbose ? (line) => context.log.debug(line) : undefined,
    logWebhookFailure: (line) => context.log.warn(line),
  };
  const sandbox = await startSandbox(sandboxOptions);
  // Past this machine anyone may log in with the sandbox's known password and reach its token-free /_sandbox/*
  // controls: said, not refused (a test network may want it).
  const reachable = await reachableListenerWarning(
    'the sandbox',
    sandboxOptions.host,
    'its user, password and /_sandbox/* controls are open to them',
    '--host 127.0.0.1 keeps it to this machine.',
  );
  if (reachable !== undefined) context.log.warn(reachable);
  const dialectNote = dialect.name === 'default' ? '' : `, dialect ${dialect.name}`;
  await serveUntilInterrupted(sandbox, context, {
    started: [
      `Sandbox of the platform listening on ${sandbox.url} (user ${sandboxOptions.username}, ${sandbox.state.sellers.length} sales reps${dialectNote}). Press Ctrl-C to stop.`,
      sandboxLoginBanner(
        dialect,
        sandboxLoginLine(
          reachableUrl(sandbox.url),
          sandboxOptions.username,
          context.env.B2BCTL_SANDBOX_PASSWORD ? undefined : sandboxOptions.password,
        ),
      ),
    ].join('\n'),
    stopped: 'Sandbox stopped.',
  });
}

/** A base URL to connect to: one listening on every address (0.0.0.0, ::) is reached on this machine at loopback. */
function reachableUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  else if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.href.replace(/\/$/, '');
}

/**
 * How to log in to this sandbox, to paste: the login line alone, or, for a dialect whose token route is not where
 * b2bctl looks by default or takes another body (the gateway's /oauth/token, form only), the `config set` lines
 * that point b2bctl at it first: without them the login line fails (404).
 */
export function sandboxLoginBanner(dialect: Pick<Dialect, 'name' | 'tokenPath' | 'tokenStyles'>, loginLine: string) {
  const settings: string[] = [];
  if (dialect.tokenPath !== settingDefinition('paths.token')?.defaultValue)
    settings.push(`b2bctl config set paths.token ${dialect.tokenPath}`);
  if (dialect.tokenStyles === 'form' && settingDefinition('auth.style')?.defaultValue !== 'form')
    settings.push('b2bctl config set auth.style form');
  if (settings.length === 0) return `Log in from another terminal: ${loginLine}`;
  return [
    `Log in from another terminal (the ${dialect.name} dialect's token route needs these settings first):`,
    ...[...settings, loginLine].map((line) => `  ${line}`),
  ].join('\n');
}

/**
 * A login command to copy. The default password is public (the sandbox is a simulator); one chosen through
 * B2BCTL_SANDBOX_PASSWORD is never printed, the line reads it from that variable instead.
 */
export function sandboxLoginLine(url: string, username: string, publicPassword: string | undefined): string {
  const password = publicPassword === undefined ? '"$B2BCTL_SANDBOX_PASSWORD"' : publicPassword;
  return `printf '%s\\n' ${password} | b2bctl login --base-url ${url} --username ${username} --password-stdin`;
}

function taxCallbackOf(options: SandboxCommandOptions, context: Context): SandboxOptions['taxCallback'] {
  if (options.taxCallback === undefined) {
    if (options.taxClientId !== undefined) throw new UsageError('--tax-client-id needs --tax-callback URL.');
    return undefined;
  }
  const callback = {
    url: options.taxCallback,
    token: secretFromEnvironment(context.env, 'B2BCTL_TAX_TOKEN', { sentInHeader: true }),
    timeoutMs: options.taxTimeout ?? 3000,
  };
  // The platform's credentials for the callback go over plain HTTP to this machine only, as every credential does.
  const target = new URL(options.taxCallback);
  if (callback.token !== undefined)
    refusePlainHttp(target, 'the tax token (B2BCTL_TAX_TOKEN)', false, false, context.env);
  if (options.taxClientId === undefined) return callback;
  const clientSecret = secretFromEnvironment(context.env, 'B2BCTL_TAX_CLIENT_SECRET');
  if (!clientSecret)
    throw new UsageError(
      '--tax-client-id needs the secret in B2BCTL_TAX_CLIENT_SECRET (never on the command line), the one tax serve was given.',
    );
  refusePlainHttp(target, 'the tax client secret', false, false, context.env);
  checkedPath(options.taxTokenPath, '--tax-token-path');
  const client = {
    style: options.taxStyle ?? 'basic',
    clientId: options.taxClientId,
    clientSecret,
    tokenPath: options.taxTokenPath ?? '/oauth/token',
  };
  return { ...callback, client };
}

/**
 * A path on the callback's own host, by the one rule of routes (the `paths.*` settings' parser): a whole URL,
 * `//other/…` or `/\other/…` would send the secret elsewhere.
 */
function checkedPath(path: string | undefined, flag: string): void {
  if (path === undefined) return;
  const parsed = routePath.parse(path);
  if (!parsed.ok)
    throw new UsageError(
      `${flag} ${printable(path)}: ${parsed.problem}; give a path on the same host, such as /oauth/token.`,
    );
}

function webhookTarget(options: SandboxCommandOptions, context: Context): SandboxOptions['webhook'] {
  if (options.webhookUrl === undefined) return undefined;
  const clientSecret = secretFromEnvironment(context.env, 'B2BCTL_WEBHOOK_CLIENT_SECRET');
  if (!options.webhookClientId || !clientSecret) {
    throw new UsageError(
      '--webhook-url needs --webhook-client-id ID and the secret in B2BCTL_WEBHOOK_CLIENT_SECRET (never on the command line).',
    );
  }
  refusePlainHttp(new URL(options.webhookUrl), 'the webhook client secret', false, false, context.env);
  checkedPath(options.webhookTokenPath, '--webhook-token-path');
  return {
    url: options.webhookUrl,
    style: options.webhookStyle ?? 'basic',
    clientId: options.webhookClientId,
    clientSecret,
    tokenPath: options.webhookTokenPath ?? '/oauth/token',
    customersPath: '/webhooks/customers',
    ordersPath: '/webhooks/orders',
  };
}
