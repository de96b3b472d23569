import { countOf } from '../../lib/plural.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import type { InputFlags } from '../../bulk/flags.js';
import {
  clientSecretOf,
  minimumClientSecretLength,
  profileSetting,
  requireLongClientSecret,
  requireLongSecret,
} from '../../command-kit/client-secret.js';
import { secretFromEnvironment } from '../../net/environment-secret.js';
import { exposedTrustWarning } from '../../command-kit/trust-proxy-exposure.js';
import { serveUntilInterrupted } from '../../http-server/serve.js';
import { erpAuthorizationFor } from '../../net/erp-credential.js';
import type { ProxyHeader, TrustedProxies } from '../../http-server/trust-proxy.js';
import { listensOnThisMachineOnly, reachableListenerWarning } from '../../net/plain-http.js';
import type { TaxAuth } from '../../tax/callback-auth.js';
import { startTaxServer } from '../../tax/server.js';
import { sandboxTaxShape, type TaxShape } from '../../tax/shape.js';
import { loadTaxShape } from '../../tax/shape-file.js';
import { readTaxTable } from '../../tax/table-file.js';
import { WatchedTaxTable } from '../../tax/watched-table.js';

export interface TaxServeOptions {
  /** The tax table; optional with `forwardTo`, where it is the fallback. */
  rules?: string;
  /** The ERP's own tax endpoint, asked first. */
  forwardTo?: string;
  /** How long the ERP may take, in milliseconds, before the table (or the failure answer) answers. */
  budget: number;
  shape?: string;
  host: string;
  port: number;
  path: string;
  auth: TaxAuth['kind'];
  /** `--auth token`: the client id the token endpoint accepts (else the tax.clientId setting). */
  clientId?: string;
  /** `--auth token`: the file holding the client secret (B2BCTL_TAX_CLIENT_SECRET wins; else tax.clientSecretFile). */
  clientSecretFile?: string;
  /** `--auth token`: the token endpoint's route and the lifetime of its tokens, in seconds. */
  tokenPath: string;
  tokenTtl: number;
  /** Reverse proxies whose X-Forwarded-For or Forwarded names the client (src/http-server/trust-proxy.ts). */
  trustProxy?: TrustedProxies;
  proxyHeader?: ProxyHeader;
  /** Milliseconds a client has to send a whole request (408 after). */
  requestTimeout: number;
  /** Connections open at once, in all and from one client address (a trusted proxy aside). */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  /** Lets the ERP's token travel over plain HTTP to another machine. */
  allowHttp: boolean;
  input: InputFlags;
}

/** `tax serve`: answers the platform's tax callback from the tax table, read again whenever it changes. */
export async function run(options: TaxServeOptions, context: Context): Promise<void> {
  if (options.proxyHeader !== undefined && options.trustProxy === undefined)
    throw new UsageError('--proxy-header is read only from trusted proxies: give them with --trust-proxy too.');
  if (options.auth === 'none' && !(await listensOnThisMachineOnly(options.host)))
    throw new UsageError(
      `--auth none answers anyone who reaches ${options.host}: use it on 127.0.0.1 only (a local test), or give --auth bearer or basic.`,
    );
  const auth = options.auth === 'token' ? await tokenAuth(options, context) : authFromEnvironment(options, context.env);
  const shape = await shapeOf(options.shape, context);
  const forward = forwardOf(options, context);
  const table = options.rules === undefined ? undefined : watchedTable(options.rules, options, context);
  await table?.start();
  try {
    const server = await startTaxServer({
      ...options,
      requestTimeoutMs: options.requestTimeout,
      shape,
      table,
      forward,
      auth,
      log: context.log,
    });
    const reachable = await reachableListenerWarning(
      'tax serve',
      options.host,
      "over plain HTTP, the platform's credential and its customers' carts cross the network in clear",
      'Give --host 127.0.0.1 behind a TLS proxy on this machine.',
    );
    if (reachable !== undefined) context.log.warn(reachable);
    const trustsClients = exposedTrustWarning('tax serve', options.host, options.trustProxy, options.proxyHeader);
    if (trustsClients !== undefined) context.log.warn(trustsClients);
    const from = [
      forward === undefined ? '' : `the ERP (${options.budget} ms budget)`,
      table === undefined
        ? ''
        : `${options.rules} (${countOf(table.tableStatus()?.rows ?? 0, 'rows')}, read again when it changes)`,
    ].filter((part) => part !== '');
    const token = auth.kind === 'token' ? ` (tokens from POST ${auth.tokenPath})` : '';
    await serveUntilInterrupted(server, context, {
      started: `tax serve: answering POST ${options.path}${token} from ${from.join(', then ')}; /healthz for checks; Ctrl-C to stop.`,
      stopped: 'tax serve: stopped.',
    });
  } finally {
    table?.close();
  }
}

/** The ERP to ask first, its credential from the environment; never a credential over plain HTTP to another machine. */
function forwardOf(options: TaxServeOptions, context: Context) {
  if (options.forwardTo === undefined) return undefined;
  const authorization = erpAuthorizationFor(options.forwardTo, {
    flag: '--forward-to',
    prefix: 'B2BCTL_TAX_FORWARD',
    allowHttp: options.allowHttp,
    env: context.env,
    warn: (line) => context.log.warn(line),
  });
  return { url: options.forwardTo, authorization, budgetMs: options.budget, env: context.env };
}

function watchedTable(rules: string, options: TaxServeOptions, context: Context): WatchedTaxTable {
  return new WatchedTaxTable(
    rules,
    // Its refusals go to the log, which others may read: a header is described there, never quoted (decision 0037).
    () => readTaxTable(context, rules, options.input, { quotesHeader: false }),
    { info: (line) => context.log.info(line), error: (line) => context.log.error(line) },
    () => context.clock.now(),
    // The --map is read again with the table: a change of it alone is a new table too.
    () => (options.input.map === undefined ? [] : [options.input.map]),
  );
}

/**
 * The receiver's token endpoint: the client id from --client-id or tax.clientId, the secret from the environment or
 * a file, as `webhook listen` takes them (never from argv), at least as long as the receiver asks.
 */
async function tokenAuth(options: TaxServeOptions, context: Context): Promise<TaxAuth> {
  const clientId = options.clientId ?? (await profileSetting(context, 'tax.clientId'));
  if (!clientId)
    throw new UsageError(
      '--auth token needs the client id the platform will use: --client-id ID (or the tax.clientId setting).',
    );
  const clientSecret = await clientSecretOf(context, {
    flagFile: options.clientSecretFile,
    environmentVariable: 'B2BCTL_TAX_CLIENT_SECRET',
    setting: 'tax.clientSecretFile',
    name: 'client secret for tax serve --auth token',
  });
  requireLongClientSecret(clientSecret, {
    secret: 'client secret of tax serve',
    server: 'its token endpoint',
    fileName: 'tax-secret',
  });
  return { kind: 'token', clientId, clientSecret, ttlSeconds: options.tokenTtl, tokenPath: options.tokenPath };
}

/** The shortest password `tax serve --auth basic` takes (docs/tax.md). */
const minimumTaxPasswordLength = 16;

/** A fixed credential the platform must send, from the environment: never from argv, where `ps` shows it. */
function authFromEnvironment(
  options: TaxServeOptions,
  env: Readonly<Record<string, string | undefined>>,
): Exclude<TaxAuth, { kind: 'token' }> {
  switch (options.auth) {
    case 'token':
      throw new Error('the token style is read by tokenAuth');
    case 'bearer': {
      // As sent in the platform's header: a CR-ended variable is the token the platform sends, not a 401 to each.
      const token = secretFromEnvironment(env, 'B2BCTL_TAX_TOKEN', { sentInHeader: true });
      if (token === undefined)
        throw new UsageError(
          `--auth bearer needs B2BCTL_TAX_TOKEN, at least ${minimumClientSecretLength} characters (make one with: openssl rand -hex 32), the token the platform is configured to send.`,
        );
      requireLongSecret(token, {
        secret: 'token in B2BCTL_TAX_TOKEN',
        server: 'tax serve --auth bearer',
        minimum: minimumClientSecretLength,
        makeOne:
          '(umask 077; openssl rand -hex 32 > tax-token), then B2BCTL_TAX_TOKEN="$(cat tax-token)", and give the platform the same token',
      });
      return { kind: 'bearer', token };
    }
    case 'basic': {
      const user = secretFromEnvironment(env, 'B2BCTL_TAX_USER');
      const password = secretFromEnvironment(env, 'B2BCTL_TAX_PASSWORD');
      if (user === undefined || password === undefined)
        throw new UsageError(
          `--auth basic needs B2BCTL_TAX_USER and B2BCTL_TAX_PASSWORD (at least ${minimumTaxPasswordLength} characters), the credential the platform is configured to send.`,
        );
      requireLongSecret(password, {
        secret: 'password in B2BCTL_TAX_PASSWORD',
        server: 'tax serve --auth basic',
        minimum: minimumTaxPasswordLength,
        makeOne:
          '(umask 077; openssl rand -hex 16 > tax-password), then B2BCTL_TAX_PASSWORD="$(cat tax-password)", and give the platform the same password',
      });
      // RFC 7617: the first colon of a Basic credential ends the user, so a user holding one can never be sent.
      if (user.includes(':'))
        throw new UsageError(
          "B2BCTL_TAX_USER holds a ':', which no client can send: in HTTP Basic the first ':' ends the user (RFC 7617). Choose a user without one.",
        );
      return { kind: 'basic', user, password };
    }
    case 'none':
      // Where it listens is checked in run(), through the resolver: `localhost` may name another machine's address.
      return { kind: 'none' };
  }
}

/** The shape in force: `--shape`, else the tax.shape setting (named in its errors), else the sandbox's. */
async function shapeOf(flag: string | undefined, context: Context): Promise<TaxShape> {
  if (flag !== undefined) return loadTaxShape(flag, { kind: 'flag', flag: '--shape', value: flag });
  const session = await context.session();
  const setting = session.get('tax.shape');
  return setting === undefined
    ? sandboxTaxShape
    : loadTaxShape(setting, { kind: 'setting', described: session.origin('tax.shape') });
}
