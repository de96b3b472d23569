import type { Context } from '../../context.js';
import { InterruptedError, NotFoundError, PartialFailureError } from '../../base/errors.js';
import { Backoff } from '../../lib/backoff.js';
import { type EventConsumer, execCommand, forwardTo, PermanentRefusal } from '../../webhook/consumers.js';
import { handOffBackoff, nextTry, tryingAgainIn } from '../../webhook/next-try.js';
import type { StoredEvent } from '../../webhook/store/types.js';
import { type EventSelectionFlags, selectionOf, withStore } from '../../webhook/inbox-access.js';
import { storeLocation, type StoreUrlFlags } from './store-url.js';
import { handOffAuthorization } from './hand-off-authorization.js';

/** The events to replay are chosen as `webhook inbox` chooses them, from the store it reads. */
export interface ReplayOptions extends EventSelectionFlags, StoreUrlFlags {
  inbox?: string;
  to?: string;
  /** `--forward-batch`: the URL takes JSON arrays of events (each event goes as an array of one). */
  forwardBatch?: number;
  /** `--allow-http`: a --to URL with a credential may be plain HTTP to another machine. */
  allowHttp?: boolean;
  exec?: string;
  /** Only these event ids. */
  id?: number[];
  /** Tries of each event before it counts as failed. */
  attempts: number;
  /** Milliseconds a `--exec` command may run. */
  execTimeout: number;
  /** Variables passed on to `--exec` commands besides PATH, HOME, LANG, TZ and the event's own. */
  execEnv?: string[];
}

/** `b2bctl webhook replay`: re-delivers stored events, in order, to a URL or a command; exit 1 if any failed. */
export async function run(options: ReplayOptions, context: Context): Promise<void> {
  const consumer: EventConsumer = options.to
    ? forwardTo(options.to, context.env, undefined, options.forwardBatch, {
        flags: { url: '--to' },
        authorization: handOffAuthorization(options.to, '--to', options.allowHttp === true, context),
      })
    : execCommand(options.exec as string, context.log.info, options.execTimeout, {
        parent: context.env,
        names: options.execEnv ?? [],
      });
  const selection = { ...selectionOf(options), ids: options.id };
  const asked = new Set(options.id ?? []);
  const failedIds: number[] = [];
  let stoppedAt: StoredEvent | undefined;
  const { delivered, failed } = await withStore(
    await storeLocation(options, context),
    { command: 'webhook replay', warn: context.log.warn, interrupt: context.interrupt, readsEventsOnly: true },
    async (store) => {
      const counts = { delivered: 0, failed: 0 };
      for await (const event of store.select(selection)) {
        if (context.interrupt.aborted) break;
        asked.delete(event.id);
        const error = await deliverWithAttempts(consumer, event, options.attempts, context);
        if (error === undefined) counts.delivered++;
        else if (context.interrupt.aborted) {
          stoppedAt = event;
          break;
        } else {
          failedIds.push(event.id);
          counts.failed++;
          context.log.warn(
            `${event.kind} event ${event.id} (received ${event.receivedAt}): ${consumer.target} failed: ${error.message}.`,
          );
        }
      }
      return counts;
    },
  );
  if (context.interrupt.aborted) throw interrupted(delivered, failedIds, stoppedAt, context);
  context.log.info(
    `Replayed ${delivered} event${delivered === 1 ? '' : 's'} (${consumer.target})${failed ? `, ${failed} failed` : ''}.`,
  );
  // An --id that chose nothing (a typo, an event retention removed) is named, not passed over as done, and not
  // hidden behind a failed event either: the operator replaying the failed one again would never learn of the typo.
  const notFound =
    asked.size > 0 && !context.interrupt.aborted
      ? `No event with id ${[...asked].join(', ')} was replayed: not in the store (or removed by --retain)${options.kind || options.since || options.until || options.dead ? ', or left out by --kind, --since, --until or --dead' : ''}; see webhook inbox.`
      : undefined;
  if (failed > 0)
    throw new PartialFailureError(
      `${failed} event${failed === 1 ? '' : 's'} could not be re-delivered; replay them again with --id (ids above).${notFound === undefined ? '' : ` ${notFound}`}`,
    );
  if (notFound !== undefined) throw new NotFoundError(notFound);
}

/**
 * Ctrl-C (or a SIGTERM) stops the replay at once, with exit 75 as every command stopped so: what was re-delivered,
 * what failed, and the event it was on when stopped, which the ERP may hold (its request may have been sent) or not
 * (stopped between two tries), so replaying it again is the operator's call, not an event counted as failed.
 */
function interrupted(
  delivered: number,
  failedIds: readonly number[],
  stoppedAt: StoredEvent | undefined,
  context: Context,
): InterruptedError {
  const signal = typeof context.interrupt.reason === 'string' ? context.interrupt.reason : 'SIGINT';
  const parts = [`${delivered} event${delivered === 1 ? '' : 's'} re-delivered`];
  if (failedIds.length > 0) parts.push(`${failedIds.length} failed (id ${failedIds.join(', ')})`);
  if (stoppedAt !== undefined)
    parts.push(
      `event ${stoppedAt.id} was being re-delivered: the ERP may or may not have it (replay it with --id ${stoppedAt.id} if not)`,
    );
  return new InterruptedError(`Interrupted (${signal}) during webhook replay: ${parts.join('; ')}.`);
}

/**
 * A wait between two tries long enough to look like a hang (an ERP's Retry-After, the back-off's later steps): said
 * in one line, as nothing else is printed while a replay waits.
 */
const announcedWaitMs = 5000;

/**
 * Each event tried up to `attempts` times, waiting between tries as the receiver's hand-off does (doubling from
 * 0.5 s, at most 30 s, each wait drawn between half its step and the step; an ERP's 429 or 503 with Retry-After
 * waited out as asked, up to 10 minutes: next-try.ts); an interrupt ends the tries at once.
 */
async function deliverWithAttempts(
  consumer: EventConsumer,
  event: StoredEvent,
  attempts: number,
  context: Context,
): Promise<Error | undefined> {
  let lastError: Error | undefined;
  const backoff = new Backoff(handOffBackoff);
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await consumer.deliver(event, context.interrupt);
      return undefined;
    } catch (error) {
      lastError = error instanceof Error ? error : new Error(String(error));
      // A refusal for good (a 422, an --exec exit 65) is final here as in webhook listen: trying again sends it again.
      if (error instanceof PermanentRefusal || context.interrupt.aborted) break;
      if (attempt < attempts) {
        const next = nextTry(backoff, error);
        if (next.waitMs >= announcedWaitMs)
          context.log.warn(
            `${event.kind} event ${event.id}: ${consumer.target} failed (attempt ${attempt} of ${attempts}: ${lastError.message}); ${tryingAgainIn(next)}.`,
          );
        const stopped = await context.clock.sleep(next.waitMs, context.interrupt).then(
          () => false,
          () => true,
        );
        if (stopped) break;
      }
    }
  }
  return lastError;
}
