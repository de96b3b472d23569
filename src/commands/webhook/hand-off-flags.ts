import { checkOrdersFolderSafety } from '../../config/folder-safety.js';
import type { Context } from '../../context.js';
import { orderFetcher, orderFileWrittenFor } from '../../orders/fetched-orders.js';
import { commandRuns } from '../../webhook/command-runs.js';
import { type EventConsumer, execCommand, forwardTo } from '../../webhook/consumers.js';
import type { HandOff } from '../../webhook/hand-off.js';
import { fetchedOrdersFolder, openHandOffs } from '../../webhook/hand-offs.js';
import { type RunRecording, watchedRecording } from '../../webhook/run-recording.js';
import type { EventStore, StoredEvent } from '../../webhook/store/types.js';

/** The flags of `webhook listen` that choose where stored events go next. */
export interface HandOffFlags {
  forwardTo?: string;
  /** The `Authorization` header for `--forward-to`'s ERP (its token, its user and password), if it takes one. */
  forwardAuthorization?: string;
  /** `--allow-http`: a --forward-to URL with a credential may be plain HTTP to another machine. */
  allowHttp?: boolean;
  exec?: string;
  fetchOrders: boolean;
  /** The name that keeps a hand-off's position (default: forward, exec, fetch-orders). */
  handoff?: string;
  /** A new hand-off takes every stored event, not only those stored from now on. */
  fromStart: boolean;
  /** Milliseconds an event's transient failures are retried before it goes dead. */
  giveUpAfter: number;
  /** Milliseconds the ERP has to answer a `--forward-to` POST. */
  forwardTimeout: number;
  /** Events a `--forward-to` POST carries, as a JSON array when over 1 (--forward-batch). */
  forwardBatch: number;
  /** Replaced by giveUpAfter: only warned about. */
  maxAttempts?: number;
  /** Milliseconds a `--exec` command may run. */
  execTimeout: number;
  /** Variables passed on to `--exec` commands besides PATH, HOME, LANG, TZ and the event's own. */
  execEnv?: string[];
}

/** Opens the hand-offs the flags ask for; says, for each, whether it is new, kept, or moved to a new target. */
export async function handOffsOf(
  flags: HandOffFlags,
  context: Context,
  store: EventStore,
  inbox: string,
): Promise<{ handOffs: HandOff[]; described: string; recordings: Map<string, RunRecording> }> {
  const named: [string, EventConsumer][] = [];
  const recordings = new Map<string, RunRecording>();
  if (flags.fetchOrders) {
    const path = fetchedOrdersFolder(inbox);
    // Checked again before each order is written: another user may open the folder while the receiver runs.
    const checkSafety = () => checkOrdersFolderSafety(path, '--inbox');
    named.push(['fetch-orders', await orderFetcher(context, { path, checkSafety })]);
  }
  if (flags.maxAttempts !== undefined)
    context.log.warn(
      `--max-attempts is ignored: a failing event is retried for --give-up-after (now ${flags.giveUpAfter / 3_600_000} h), whatever the count.`,
    );
  if (flags.forwardTo)
    named.push([
      flags.handoff ?? 'forward',
      forwardTo(flags.forwardTo, context.env, flags.forwardTimeout, flags.forwardBatch, {
        authorization: flags.forwardAuthorization,
      }),
    ]);
  if (flags.exec) {
    const name = flags.handoff ?? 'exec';
    const folder = flags.fetchOrders ? fetchedOrdersFolder(inbox) : undefined;
    const environment = {
      parent: context.env,
      names: flags.execEnv ?? [],
      orderFile: folder === undefined ? undefined : (event: StoredEvent) => orderFileWrittenFor(folder, event),
    };
    const recording: RunRecording = {};
    recordings.set(name, recording);
    const runs = watchedRecording(
      commandRuns(store, name, { timeoutMs: flags.execTimeout, clock: context.clock, log: context.log.warn }),
      recording,
      () => context.clock.now(),
    );
    named.push([name, execCommand(flags.exec, context.log.info, flags.execTimeout, environment, runs)]);
  }
  const opened = await openHandOffs(named, {
    store,
    clock: context.clock,
    warn: context.log.warn,
    giveUpAfterMs: flags.giveUpAfter,
    fromStart: flags.fromStart,
    // With --fetch-orders, the ERP's hand-off takes an orders event once its fetch is done (after-fetch.ts).
    afterFetchOf: flags.fetchOrders ? 'fetch-orders' : undefined,
  });
  return { ...opened, recordings };
}
