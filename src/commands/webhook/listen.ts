import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { InputError, UsageError } from '../../errors.js';
import { serveUntilInterrupted } from '../../http-server/serve.js';
import type { TrustedProxies } from '../../http-server/trust-proxy.js';
import { execCommand, type EventConsumer, forwardTo, HandOff } from '../../webhook/hand-off.js';
import { Inbox, type InboxRecord } from '../../webhook/inbox.js';
import { defaultReceiverPaths, startReceiver } from '../../webhook/receiver.js';
import { profileSetting, webhookClientSecret } from './client-secret.js';
import { eventSummary } from './event-line.js';
import { defaultInboxDirectory } from './inbox-folder.js';

export interface ListenOptions {
  host: string;
  port: number;
  clientId?: string;
  clientSecretFile?: string;
  inbox?: string;
  tokenTtl: number;
  bodyLimit: number;
  requestTimeout: number;
  forwardTo?: string;
  exec?: string;
  fetchOrders: boolean;
  tlsCert?: string;
  tlsKey?: string;
  /** Reverse proxies whose X-Forwarded-For names the client (src/http-server/trust-proxy.ts). */
  trustProxy?: TrustedProxies;
  /** False: one fsync per event (only to measure what group commit buys). */
  groupCommit: boolean;
}

/** `b2bctl webhook listen`: the receiver of the platform's webhooks, until SIGINT/SIGTERM. */
export async function run(options: ListenOptions, context: Context): Promise<void> {
  const clientId = options.clientId ?? (await profileSetting(context, 'webhook.clientId'));
  if (!clientId)
    throw new UsageError('Give the client id the platform will use: --client-id ID (or the webhook.clientId setting).');
  const clientSecret = await webhookClientSecret(context, options.clientSecretFile);
  if ((options.tlsCert === undefined) !== (options.tlsKey === undefined)) {
    throw new UsageError('TLS needs both --tls-cert FILE and --tls-key FILE.');
  }
  const tls =
    options.tlsCert && options.tlsKey
      ? { cert: await readInput(options.tlsCert), key: await readInput(options.tlsKey) }
      : undefined;
  const paths = {
    token: (await profileSetting(context, 'webhook.paths.token')) ?? defaultReceiverPaths.token,
    customers: (await profileSetting(context, 'webhook.paths.customers')) ?? defaultReceiverPaths.customers,
    orders: (await profileSetting(context, 'webhook.paths.orders')) ?? defaultReceiverPaths.orders,
  };
  const inboxDirectory = options.inbox ?? defaultInboxDirectory(context.env);
  const inbox = await Inbox.open(inboxDirectory, { groupCommit: options.groupCommit, log: context.log.warn }).catch(
    (error: NodeJS.ErrnoException) => {
      throw new InputError(
        `Cannot open the inbox folder ${inboxDirectory} (${error.code ?? error.message}); choose another with --inbox DIR.`,
        {
          file: inboxDirectory,
          missing: true,
        },
      );
    },
  );

  const format = context.outputFormat('ndjson');
  const receiver = await startReceiver({
    host: options.host,
    port: options.port,
    clientId,
    clientSecret,
    tokenTtlSeconds: options.tokenTtl,
    inbox,
    paths,
    bodyLimitBytes: options.bodyLimit,
    requestTimeoutMs: options.requestTimeout,
    tls,
    trustProxy: options.trustProxy,
    now: () => context.clock.now(),
    onStored: (record) =>
      context.io.stdout.write(`${format === 'table' ? eventSummary(record) : JSON.stringify(record)}\n`),
    onDuplicate: (kind, key) => context.log.debug(`Redelivered ${kind} event ${key} answered 200, not stored again.`),
    log: context.log.warn,
  }).catch(async (error: NodeJS.ErrnoException) => {
    await inbox.close();
    if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL') {
      throw new UsageError(
        `Cannot listen on ${options.host}:${options.port} (${error.code}); choose another --port or --host.`,
      );
    }
    throw error;
  });

  const consumers: EventConsumer[] = [];
  if (options.fetchOrders) consumers.push(await orderFetcher(context, inboxDirectory));
  if (options.forwardTo) consumers.push(forwardTo(options.forwardTo, context.env));
  if (options.exec) consumers.push(execCommand(options.exec, context.io.stderr));
  const handOffs = consumers.map(
    (consumer) => new HandOff(inbox, consumer, { clock: context.clock, log: context.log.warn }),
  );
  for (const handOff of handOffs) handOff.start();

  await serveUntilInterrupted(
    {
      url: receiver.url,
      close: async () => {
        // Stop taking events and finish those in flight (they are synced and answered) before anything else stops.
        await receiver.close();
        await Promise.all(handOffs.map((handOff) => handOff.stop()));
        await inbox.close();
      },
    },
    context,
    {
      started: `Webhook receiver on ${receiver.url}: token ${paths.token}, events ${paths.customers} and ${paths.orders}; inbox ${inbox.file}.${consumers.map((consumer) => ` Then: ${consumer.name}.`).join('')}`,
      stopped: 'Webhook receiver stopped.',
    },
  );
}

async function readInput(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    throw new InputError(
      `Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
      { file, missing: true },
    );
  }
}

/** `--fetch-orders`: the full order of each orders event, fetched through the API, stored as orders/<id>.json. */
async function orderFetcher(context: Context, inboxDirectory: string): Promise<EventConsumer> {
  const platform = await context.platform();
  const folder = join(inboxDirectory, 'orders');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  return {
    name: 'fetch orders',
    async deliver(record: InboxRecord) {
      const id = (record.event as { id?: unknown } | null)?.id;
      if (record.kind !== 'orders' || (typeof id !== 'number' && typeof id !== 'string')) return;
      const answer = await platform.send<unknown>({
        method: 'GET',
        path: platform.route('paths.order', { id }),
        safeToRepeat: true,
      });
      const file = join(folder, `${String(id).replace(/[^\w.-]/g, '_')}.json`);
      await writeFile(`${file}.tmp`, `${JSON.stringify({ deliveryId: record.deliveryId, order: answer.body })}\n`, {
        mode: 0o600,
        flush: true,
      });
      await rename(`${file}.tmp`, file);
    },
  };
}
