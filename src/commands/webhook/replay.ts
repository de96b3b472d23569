import type { Context } from '../../context.js';
import { PartialFailureError } from '../../errors.js';
import { execCommand, type EventConsumer, forwardTo } from '../../webhook/hand-off.js';
import { type InboxOptions, requireInbox, storedEvents } from './inbox.js';
import { defaultInboxDirectory } from './inbox-folder.js';

export interface ReplayOptions extends InboxOptions {
  to?: string;
  exec?: string;
  /** Tries of each event before it counts as failed. */
  attempts: number;
}

/** `b2bctl webhook replay`: re-delivers stored events, in order, to a URL or a command; exit 1 if any failed. */
export async function run(options: ReplayOptions, context: Context): Promise<void> {
  const directory = options.inbox ?? defaultInboxDirectory(context.env);
  requireInbox(directory);
  const consumer: EventConsumer = options.to
    ? forwardTo(options.to, context.env)
    : execCommand(options.exec as string, context.io.stderr);
  const since = options.since === undefined ? undefined : Date.parse(options.since);
  let delivered = 0;
  let failed = 0;
  for await (const record of storedEvents(directory, options.kind, since)) {
    if (context.interrupt.aborted) break;
    let lastError: unknown;
    for (let attempt = 1; attempt <= options.attempts; attempt++) {
      try {
        await consumer.deliver(record);
        lastError = undefined;
        break;
      } catch (error) {
        lastError = error;
        if (attempt < options.attempts)
          await context.clock.sleep(500 * 2 ** (attempt - 1), context.interrupt).catch(() => undefined);
      }
    }
    if (lastError === undefined) delivered++;
    else {
      failed++;
      context.log.warn(
        `${record.kind} event ${record.deliveryId} (received ${record.receivedAt}): ${consumer.name} failed: ${(lastError as Error).message}.`,
      );
    }
  }
  context.log.info(
    `Replayed ${delivered} event${delivered === 1 ? '' : 's'} (${consumer.name})${failed ? `, ${failed} failed` : ''}.`,
  );
  if (failed > 0)
    throw new PartialFailureError(
      `${failed} event${failed === 1 ? '' : 's'} could not be re-delivered; run the replay again with --since.`,
    );
}
