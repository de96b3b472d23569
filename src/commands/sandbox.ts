import type { Context } from '../context.js';
import { sandboxDefaults, type SandboxOptions } from '../sandbox/options.js';
import { defaultSeedDirectory } from '../sandbox/package-root.js';
import { UsageError } from '../errors.js';
import { dialectNamed, dialectNames } from '../sandbox/dialects/index.js';
import { startSandbox } from '../sandbox/server.js';
import { loadStockSchema } from './stock/stock-input.js';

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
  const sandboxOptions: SandboxOptions = {
    host: options.host ?? sandboxDefaults.host,
    port: options.port ?? sandboxDefaults.port,
    username: options.username ?? sandboxDefaults.username,
    password: context.env.B2BCTL_SANDBOX_PASSWORD || sandboxDefaults.password,
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
        : loadStockSchema(options.stockSchema, `--stock-schema ${options.stockSchema}`),
    dialect,
    clockOffsetSeconds: options.clockOffset ?? 0,
    logRequest: context.globals.verbose ? (line) => context.log.debug(line) : undefined,
  };
  const sandbox = await startSandbox(sandboxOptions);
  context.io.stdout.write(`${sandbox.url}\n`);
  context.log.info(
    `Sandbox of the platform listening on ${sandbox.url} (user ${sandboxOptions.username}, ${sandbox.state.sellers.length} sales reps${dialect.name === 'default' ? '' : `, dialect ${dialect.name}`}). Press Ctrl-C to stop.`,
  );
  await new Promise((resolve) => {
    if (context.interrupt.aborted) resolve(undefined);
    context.interrupt.addEventListener('abort', resolve, { once: true });
  });
  await sandbox.close();
  context.log.info('Sandbox stopped.');
}
