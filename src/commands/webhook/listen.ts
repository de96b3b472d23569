import { readRegularFile } from '../../lib/named-file.js';
import type { Context } from '../../context.js';
import { checkInboxFolderLink, inboxFolderWarning } from '../../config/folder-safety.js';
import { B2bctlError, InputError, InterruptedError, UsageError } from '../../base/errors.js';
import { exposedTrustWarning } from '../../command-kit/trust-proxy-exposure.js';
import { serveUntilInterrupted, stopDeadlineMs, withinDeadline } from '../../http-server/serve.js';
import { reachableListenerWarning } from '../../net/plain-http.js';
import type { ProxyHeader, TrustedProxies } from '../../http-server/trust-proxy.js';
import { HandOff } from '../../webhook/hand-off.js';
import { defaultReceiverPaths, type ReceivedEvent, startReceiver } from '../../webhook/receiver.js';
import { startRetention } from '../../webhook/retention.js';
import { withRecording } from '../../webhook/run-recording.js';
import { openStore } from '../../webhook/store/open.js';
import { credentialsSent } from '../../webhook/consumers.js';
import { forwardCredentialOfEnvironment, scrubbedLine, scrubDeadLetters } from '../../webhook/dead-letter-scrub.js';
import { secretAssignmentsIn, secretsGivenTo } from '../../webhook/exec-environment.js';
import type { EventStore } from '../../webhook/store/types.js';
import { profileSetting, checkSecretFile } from '../../command-kit/client-secret.js';
import { requireLongWebhookSecret, webhookClientSecret } from './client-secret.js';
import { handOffAuthorization } from './hand-off-authorization.js';
import { eventSummary } from './event-line.js';
import { fetchedOrdersFolder } from '../../webhook/hand-offs.js';
import { handOffsOf, type HandOffFlags } from './hand-off-flags.js';
import { defaultInboxDirectory } from './inbox-folder.js';
import { IntakeSummary } from './intake-summary.js';
import { lockCheckEveryMs, watchInboxLock } from './lock-watch.js';
import { storeLocation, type StoreUrlFlags } from './store-url.js';
import { printable } from '../../lib/printable.js';

export interface ListenOptions extends HandOffFlags, StoreUrlFlags {
  host: string;
  port: number;
  clientId?: string;
  clientSecretFile?: string;
  inbox?: string;
  tokenTtl: number;
  bodyLimit: number;
  requestTimeout: number;
  /** Connections open at once; the operating system's descriptors run out past some thousands. */
  maxConnections: number;
  /** Connections open at once from one client address (an IPv6 one by its /64), a trusted proxy aside. */
  maxConnectionsPerAddress: number;
  tlsCert?: string;
  tlsKey?: string;
  /** Reverse proxies whose X-Forwarded-For or Forwarded names the client (src/http-server/trust-proxy.ts). */
  trustProxy?: TrustedProxies;
  /** Which of the two headers those proxies set. */
  proxyHeader?: ProxyHeader;
  retain?: number;
  dedupWindow: number;
  stuckAfter: number;
  /** False: one commit per event (only to measure what group commit buys). */
  groupCommit: boolean;
  /** One stdout line per stored event; otherwise a summary line a minute on stderr. */
  logEvents: boolean;
  /** Milliseconds between summary lines (tests shorten it). */
  summaryEveryMs?: number;
  /** Milliseconds between two looks at the inbox lock (lock-watch.ts; tests shorten it). */
  lockCheckEveryMs?: number;
}

/** `b2bctl webhook listen`: the receiver of the platform's webhooks, until SIGINT/SIGTERM. */
export async function run(options: ListenOptions, context: Context): Promise<void> {
  const clientId = options.clientId ?? (await profileSetting(context, 'webhook.clientId'));
  if (!clientId)
    throw new UsageError('Give the client id the platform will use: --client-id ID (or the webhook.clientId setting).');
  const clientSecret = await webhookClientSecret(context, options.clientSecretFile);
  requireLongWebhookSecret(clientSecret);
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    throw new UsageError('TLS needs both --tls-cert FILE and --tls-key FILE.');
  }
  if (options.proxyHeader !== undefined && options.trustProxy === undefined) {
    throw new UsageError('--proxy-header is read only from trusted proxies: give them with --trust-proxy too.');
  }
  if (options.handoff !== undefined && options.forwardTo !== undefined && options.exec !== undefined) {
    throw new UsageError('--handoff names one hand-off: give it with --forward-to or with --exec, not both.');
  }
  // Alone it names nothing to run: the receiver would start and hand nothing off.
  if (options.handoff !== undefined && options.forwardTo === undefined && options.exec === undefined) {
    throw new UsageError(
      '--handoff names the hand-off of --forward-to URL or --exec COMMAND: give it with one of them (--fetch-orders keeps its own name).',
    );
  }
  if (options.forwardBatch > 1 && options.forwardTo === undefined) {
    throw new UsageError('--forward-batch says how --forward-to POSTs events: give it with --forward-to URL.');
  }
  const forwardAuthorization =
    options.forwardTo === undefined
      ? undefined
      : handOffAuthorization(options.forwardTo, '--forward-to', options.allowHttp === true, context);
  warnOfSecretsInExec(options.exec, context);
  if (options.tlsKey !== undefined)
    checkSecretFile(
      options.tlsKey,
      'the TLS private key',
      context,
      'Use a key and certificate of your own (the key made under umask 077, and the certificate issued for it)',
    );
  const tls =
    options.tlsCert && options.tlsKey
      ? { cert: await readInput(options.tlsCert), key: await readInput(options.tlsKey) }
      : undefined;
  const paths = {
    token: (await profileSetting(context, 'webhook.paths.token')) ?? defaultReceiverPaths.token,
    customers: (await profileSetting(context, 'webhook.paths.customers')) ?? defaultReceiverPaths.customers,
    orders: (await profileSetting(context, 'webhook.paths.orders')) ?? defaultReceiverPaths.orders,
  };
  // Before anything is made or opened in the inbox folder: a link there is refused before it is followed.
  const inbox = options.inbox ?? (await defaultInboxDirectory(context));
  checkInboxFolder(inbox, options, context);
  if (options.fetchOrders) fetchedOrdersFolder(inbox);
  const opened = await openReceiverStore(inbox, options, context).catch((error: unknown) => {
    // Stopped while the database kept it waiting: nothing was served, and a server stopped so exits 0 (docs/output.md).
    if (!(error instanceof InterruptedError && context.interrupt.aborted)) throw error;
    context.log.info(error.message);
  });
  if (opened === undefined) return;
  const { store, release, lock } = opened;
  const lockWatch = watchInboxLock(lock, options.lockCheckEveryMs ?? lockCheckEveryMs, context.log);
  try {
    await scrubKeptDeadLetters(store, options, forwardAuthorization, context);
    const stop = AbortSignal.any([context.interrupt, lockWatch.signal]);
    await serve(
      { ...options, inbox, forwardAuthorization },
      context,
      store,
      { clientId, clientSecret, tls, paths },
      stop,
    );
  } finally {
    lockWatch.stop();
    await withinDeadline(
      store.close().catch(() => undefined),
      stopDeadlineMs,
      () => undefined,
    );
    release();
  }
  // Stopped because another run holds the inbox now: exit 75, as a second receiver refused at start does.
  const lost = lockWatch.lostError();
  if (lost !== undefined) throw lost;
}

/**
 * Before any hand-off runs: the dead letters an earlier build kept with secrets in clear, the ERP's forward
 * credential (a user test) and what an `--exec` command printed of the secrets it was given (dead-letter-scrub.ts).
 */
async function scrubKeptDeadLetters(
  store: EventStore,
  options: ListenOptions,
  forwardAuthorization: string | undefined,
  context: Context,
): Promise<void> {
  const forwardSecrets = options.forwardTo
    ? credentialsSent(options.forwardTo, forwardAuthorization)
    : forwardCredentialOfEnvironment(context.env);
  const forwardLine = scrubbedLine(await scrubDeadLetters(store, forwardSecrets));
  if (forwardLine !== undefined) context.log.info(forwardLine);
  if (options.exec === undefined) return;
  const execSecrets = secretsGivenTo({ parent: context.env, names: options.execEnv ?? [] }, options.exec);
  const execLine = scrubbedLine(await scrubDeadLetters(store, execSecrets), 'exec secrets');
  if (execLine !== undefined) context.log.info(execLine);
}

/** With --log-events, each stored event's line on stdout: readable on a terminal, NDJSON when piped. */
function eventLogger(options: ListenOptions, context: Context): ((event: ReceivedEvent) => void) | undefined {
  if (!options.logEvents) return undefined;
  const format = context.outputFormat('ndjson');
  return (event) =>
    void context.io.stdout.write(`${format === 'table' ? eventSummary(event) : JSON.stringify(event)}\n`);
}

async function serve(
  options: ListenOptions & { inbox: string },
  context: Context,
  store: EventStore,
  settings: Pick<Parameters<typeof startReceiver>[0], 'clientId' | 'clientSecret' | 'tls' | 'paths'>,
  /** SIGINT/SIGTERM, or the inbox lock lost to another run. */
  stop: AbortSignal,
): Promise<void> {
  const summary = new IntakeSummary(context.log.info);
  const logEvent = eventLogger(options, context);
  // Before the port opens: a hand-off that cannot start (--fetch-orders with no base URL for the profile) stops the
  // run with its own exit code. Found after it, it left a receiver listening on a closed inbox, answering every
  // call 503 and deaf to SIGTERM (a user test).
  const { handOffs, described, recordings } = await handOffsOf(options, context, store, options.inbox);
  let running: HandOff[] = [];
  const receiver = await startReceiver({
    ...settings,
    host: options.host,
    port: options.port,
    tokenTtlSeconds: options.tokenTtl,
    store,
    bodyLimitBytes: options.bodyLimit,
    requestTimeoutMs: options.requestTimeout,
    maxConnections: options.maxConnections,
    maxConnectionsPerAddress: options.maxConnectionsPerAddress,
    stuckAfterMs: options.stuckAfter,
    trustProxy: options.trustProxy,
    proxyHeader: options.proxyHeader,
    now: () => context.clock.now(),
    handOffStates: () => running.map((handOff) => withRecording(handOff.state(), recordings.get(handOff.name))),
    // Counted either way: with --log-events too, the summary's redeliveries and refusals sit beside what was stored.
    onStored: (event) => {
      summary.count(event.kind);
      logEvent?.(event);
    },
    onDuplicate: (kind, key) => {
      summary.duplicate();
      context.log.debug(`Redelivered ${kind} event ${key} answered 200, not stored again.`);
    },
    onRefused: (_kind, status) => summary.refused(status),
    log: context.log.warn,
  }).catch((error: NodeJS.ErrnoException) => {
    throw portRefusal(options, error);
  });
  await warnOfExposure(options, settings.tls !== undefined, context);
  const retention = startRetention(store, {
    retainMs: options.retain,
    dedupWindowMs: options.dedupWindow,
    now: () => context.clock.now(),
    log: context.log.info,
  });
  for (const handOff of handOffs) handOff.start();
  running = handOffs;
  summary.start(options.summaryEveryMs);
  await serveUntilInterrupted(
    {
      url: receiver.url,
      // Hand-offs stop at once (a running command's group is killed) while in-flight events finish committing;
      // bounded, so a store that no longer answers cannot hold the stop past a service manager's patience.
      close: () =>
        withinDeadline(
          Promise.all([receiver.close(), ...handOffs.map((handOff: HandOff) => handOff.stop()), retention()]),
          stopDeadlineMs,
          () => {
            context.log.warn(`Stopping took over ${stopDeadlineMs / 1000} s; stopping without waiting.`);
            // The connections still open would keep the process alive after its last line (a user test).
            receiver.dropConnections();
          },
        ).finally(() => summary.stop()),
    },
    { io: context.io, log: context.log, interrupt: stop },
    {
      started: `Webhook receiver on ${receiver.url}: token ${settings.paths.token}, events ${settings.paths.customers} and ${settings.paths.orders}; store ${store.description}.${described}`,
      stopped: 'Webhook receiver stopped.',
    },
  );
}

/** A port the receiver cannot take, as a usage error naming the flags that choose another; any other failure as is. */
function portRefusal(options: ListenOptions, error: NodeJS.ErrnoException): Error {
  if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES' && error.code !== 'EADDRNOTAVAIL') return error;
  return new UsageError(
    `Cannot listen on ${options.host}:${options.port} (${error.code}); choose another --port or --host.`,
  );
}

/**
 * An `--exec` text that sets a secret itself (`ERP_SENHA=… ./import.sh`) puts it in the process list and the shell
 * history, as a `--forward-to` URL with a key does: said once at start, naming the variables (never their values)
 * and `--exec-env NAME`, which passes a variable of the receiver's environment on without it ever being in argv.
 */
function warnOfSecretsInExec(exec: string | undefined, context: Context): void {
  const names = exec === undefined ? [] : secretAssignmentsIn(exec);
  if (names.length === 0) return;
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  context.log.warn(
    `warning: --exec sets ${listed} on its command line, which puts ${names.length === 1 ? 'its value' : 'their values'} in the process list and shell history; set ${names.length === 1 ? 'it' : 'them'} in the receiver's environment instead and pass ${names.length === 1 ? 'it' : 'each'} on with --exec-env NAME.`,
  );
}

/** What the receiver says at start of its own exposure: plain HTTP, or clients taken for the proxy, off this machine. */
async function warnOfExposure(options: ListenOptions, tls: boolean, context: Context): Promise<void> {
  const reachable = tls
    ? undefined
    : await reachableListenerWarning(
        'the webhook receiver',
        options.host,
        "over plain HTTP, the platform's client secret and tokens and the customers' data in its events cross the network in clear",
        'Give --tls-cert and --tls-key, or --host 127.0.0.1 behind a TLS proxy on this machine.',
      );
  if (reachable !== undefined) context.log.warn(reachable);
  const trustsClients = exposedTrustWarning(
    'the webhook receiver',
    options.host,
    options.trustProxy,
    options.proxyHeader,
  );
  if (trustsClients !== undefined) context.log.warn(trustsClients);
}

/** After SIGTERM, how long the PostgreSQL store's statements in flight may still take: a healthy commit needs far less. */
const storeStopGraceMs = 5_000;

/**
 * Refuses an inbox folder named through another user's link, and says when the inbox folder, which holds the events
 * or the fetched orders, is one other users may write.
 */
function checkInboxFolder(inbox: string, options: ListenOptions, context: Context): void {
  const inDatabase = options.store !== undefined || options.storeEnv !== undefined;
  if (inDatabase && !options.fetchOrders) return;
  checkInboxFolderLink(inbox);
  const warning = inboxFolderWarning(inbox);
  if (warning !== undefined) context.log.warn(warning);
}

/** The receiver's store, held exclusively when it is a folder (a second receiver stops with exit 75). */
async function openReceiverStore(inbox: string, options: ListenOptions, context: Context) {
  const location = await storeLocation({ ...options, inbox }, context);
  const url = location.url;
  try {
    return await openStore(
      location,
      { exclusive: { command: 'webhook listen', warn: context.log.warn } },
      {
        groupCommit: options.groupCommit,
        now: () => context.clock.now(),
        interrupt: context.interrupt,
        // The events in flight at a stop finish committing, but a database that no longer answers holds the stop no
        // longer than this (well inside systemd's TimeoutStopSec=30 of docs/webhooks.md).
        interruptGraceMs: storeStopGraceMs,
      },
    );
  } catch (error) {
    // A PostgreSQL store involves no inbox folder: its failures are never the folder's.
    if (error instanceof B2bctlError || url !== undefined) throw error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new InputError(
      `Cannot open the inbox folder ${printable(inbox)} (${reason}); choose another with --inbox DIR.`,
      {
        file: inbox,
        missing: true,
      },
    );
  }
}

async function readInput(file: string): Promise<Buffer> {
  try {
    return await readRegularFile(file);
  } catch (error) {
    throw new InputError(
      `Cannot read ${printable(file)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      { file, missing: true },
    );
  }
}
