import type { Context } from '../../context.js';
import { NotFoundError, PartialFailureError } from '../../base/errors.js';
import { type EventConsumer, execCommand, forwardTo, PermanentRefusal } from '../../webhook/consumers.js';
import type { StoredEvent } from '../../webhook/store/types.js';
import { type InboxOptions, selectionOf, storeLocation, withStore } from './inbox.js';
import { handOffAuthorization } from './hand-off-authorization.js';

export interface ReplayOptions extends InboxOptions {
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
  const { delivered, failed } = await withStore(
    await storeLocation(options, context),
    { command: 'webhook replay', warn: context.log.warn, interrupt: context.interrupt },
    async (store) => {
      const counts = { delivered: 0, failed: 0 };
      for await (const event of store.select(selection)) {
        if (context.interrupt.aborted) break;
        asked.delete(event.id);
        const error = await deliverWithAttempts(consumer, event, options.attempts, context);
        if (error === undefined) counts.delivered++;
        else {
          counts.failed++;
          context.log.warn(
            `${event.kind} event ${event.id} (received ${event.receivedAt}): ${consumer.target} failed: ${error.message}.`,
          );
        }
      }
      return counts;
    },
  );
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

async function deliverWithAttempts(
  consumer: EventConsumer,
  event: StoredEvent,
  attempts: number,
  context: Context,
): Promise<Error | undefined> {
  let lastError: Error | undefined;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      await consumer.deliver(event, context.interrupt);
      return undefined;
    } catch (error) {
      lastError = error as Error;
      // A refusal for good (a 422, an --exec exit 65) is final here as in webhook listen: trying again sends it again.
      if (error instanceof PermanentRefusal) break;
      if (attempt < attempts)
        await context.clock.sleep(500 * 2 ** (attempt - 1), context.interrupt).catch(() => undefined);
    }
  }
  return lastError;
}
