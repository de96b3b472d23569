import { join } from 'node:path';
import { checkOrdersFolderSafety } from '../config/folder-safety.js';
import type { Context } from '../context.js';
import { makePrivateFolder } from '../lib/private-file.js';
import { commandShownSafely, targetShownSafely, urlShownSafely } from '../lib/shown-target.js';
import { orderFetcher, orderFileWrittenFor } from '../orders/fetched-orders.js';
import { commandRuns } from './command-runs.js';
import { type EventConsumer, execCommand, forwardTo } from './consumers.js';
import { HandOff } from './hand-off.js';
import { afterFetch } from './after-fetch.js';
import type { EventStore, StoredEvent } from './store/types.js';

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
): Promise<{ handOffs: HandOff[]; described: string }> {
  const named: [string, EventConsumer][] = [];
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
    const runs = commandRuns(store, name, {
      timeoutMs: flags.execTimeout,
      clock: context.clock,
      log: context.log.warn,
    });
    named.push([name, execCommand(flags.exec, context.log.info, flags.execTimeout, environment, runs)]);
  }
  const handOffs: HandOff[] = [];
  let described = '';
  for (const [name, given] of named) {
    // With --fetch-orders, the ERP's hand-off takes an orders event once its fetch is done (after-fetch.ts).
    const consumer = flags.fetchOrders && name !== 'fetch-orders' ? afterFetch(given, store, 'fetch-orders') : given;
    const opening = await store.openHandOff(name, consumer.target, flags.fromStart);
    const state = opening.created
      ? flags.fromStart
        ? 'new, from the first stored event'
        : 'new, from the next event'
      : opening.previousTarget
        ? `position kept; target was ${targetShownSafely(opening.previousTarget)}`
        : 'position kept';
    described += ` Hand-off "${name}" to ${consumer.target} (${state}).`;
    handOffs.push(
      new HandOff(store, name, consumer, {
        clock: context.clock,
        log: context.log.warn,
        giveUpAfterMs: flags.giveUpAfter,
        pollMs: store.description.startsWith('PostgreSQL') ? 250 : 1000,
      }),
    );
  }
  await warnOfOtherHandOffs(store, new Set(named.map(([name]) => name)), context);
  return { handOffs, described };
}

/**
 * Hand-offs in the store this receiver does not run (an `--exec` replaced by `--forward-to`, a renamed `--handoff`):
 * retention keeps every event after their position and /healthz counts them as stuck, so each is named once at the
 * start, with the way to run or drop it.
 */
async function warnOfOtherHandOffs(store: EventStore, running: ReadonlySet<string>, context: Context): Promise<void> {
  // A PostgreSQL store may be shared by receivers that run other hand-offs: only a folder's receiver is the only one.
  if (store.description.startsWith('PostgreSQL')) return;
  for (const other of await store.backlog()) {
    if (running.has(other.name)) continue;
    context.log.warn(
      `warning: hand-off "${other.name}" (${targetShownSafely(other.target)}) is in ${store.description} but this receiver does not run it: ${other.pending} pending events are kept for it and /healthz counts them. Run it again (${flagsRunning(other.name, other.target)}), or stop the receiver and remove it with b2bctl webhook inbox --drop-handoff ${other.name}.`,
    );
  }
}

/** The flags that run a stored hand-off again: its target's own flag, and its name where it is not the default. */
function flagsRunning(name: string, target: string): string {
  if (name === 'fetch-orders') return '--fetch-orders';
  const named = (fallback: string) => (name === fallback ? '' : ` --handoff ${name}`);
  if (target.startsWith('exec ')) return `--exec '${commandShownSafely(target.slice('exec '.length))}'${named('exec')}`;
  return `--forward-to ${urlShownSafely(target)}${named('forward')}`;
}

/**
 * The folder `--fetch-orders` writes the orders into, made when missing; refused (exit 77) when another user could
 * swap the orders in it. Called before the receiver listens, so a refusal stops it before any event is taken.
 */
export function fetchedOrdersFolder(inbox: string): string {
  const folder = join(inbox, 'orders');
  makePrivateFolder(folder);
  checkOrdersFolderSafety(folder, '--inbox');
  return folder;
}
