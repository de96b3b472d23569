import { join } from 'node:path';
import type { Clock } from '../base/clock.js';
import { checkOrdersFolderSafety } from '../config/folder-safety.js';
import { makePrivateFolder } from '../lib/private-file.js';
import { commandShownSafely, targetShownSafely, urlShownSafely } from '../lib/shown-target.js';
import type { EventConsumer } from './consumers.js';
import { HandOff } from './hand-off.js';
import { afterFetch } from './after-fetch.js';
import type { EventStore } from './store/types.js';

/** What every hand-off a receiver opens shares. */
export interface HandOffOpening {
  store: EventStore;
  clock: Clock;
  /** Where the hand-offs' lines go (stderr). */
  warn: (message: string) => void;
  /** Milliseconds an event's transient failures are retried before it goes dead (--give-up-after). */
  giveUpAfterMs: number;
  /** A new hand-off takes every stored event, not only those stored from now on (--from-start). */
  fromStart: boolean;
  /** The hand-off (`fetch-orders`) whose delivery of an orders event every other hand-off waits for. */
  afterFetchOf?: string;
}

/**
 * Opens a hand-off for each named consumer, from its stored position; says, for each, whether it is new, kept, or
 * moved to a new target, and warns of the store's hand-offs this receiver does not run.
 */
export async function openHandOffs(
  named: readonly (readonly [string, EventConsumer])[],
  opening: HandOffOpening,
): Promise<{ handOffs: HandOff[]; described: string }> {
  const { store, fromStart, afterFetchOf } = opening;
  const handOffs: HandOff[] = [];
  let described = '';
  for (const [name, given] of named) {
    const consumer =
      afterFetchOf !== undefined && name !== afterFetchOf ? afterFetch(given, store, afterFetchOf) : given;
    const opened = await store.openHandOff(name, consumer.target, fromStart);
    const state = opened.created
      ? fromStart
        ? 'new, from the first stored event'
        : 'new, from the next event'
      : opened.previousTarget
        ? `position kept; target was ${targetShownSafely(opened.previousTarget)}`
        : 'position kept';
    described += ` Hand-off "${name}" to ${consumer.target} (${state}).`;
    handOffs.push(
      new HandOff(store, name, consumer, {
        clock: opening.clock,
        log: opening.warn,
        giveUpAfterMs: opening.giveUpAfterMs,
        pollMs: store.description.startsWith('PostgreSQL') ? 250 : 1000,
        waitedForBy: name === afterFetchOf ? named.map(([other]) => other).filter((other) => other !== name) : [],
      }),
    );
  }
  await warnOfOtherHandOffs(store, new Set(named.map(([name]) => name)), opening.warn);
  return { handOffs, described };
}

/**
 * Hand-offs in the store this receiver does not run (an `--exec` replaced by `--forward-to`, a renamed `--handoff`):
 * retention keeps every event after their position and /healthz counts them as stuck, so each is named once at the
 * start, with the way to run or drop it.
 */
async function warnOfOtherHandOffs(
  store: EventStore,
  running: ReadonlySet<string>,
  warn: (message: string) => void,
): Promise<void> {
  // A PostgreSQL store may be shared by receivers that run other hand-offs: only a folder's receiver is the only one.
  if (store.description.startsWith('PostgreSQL')) return;
  for (const other of await store.backlog()) {
    if (running.has(other.name)) continue;
    warn(
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
