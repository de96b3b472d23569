import { UsageError } from '../base/errors.js';
import type { WebhookKind } from '../domain/webhook-events.js';
import { openStore, type StoreLocation, type StoreUser } from './store/open.js';
import type { EventSelection, EventStore } from './store/types.js';

/**
 * How the inbox verbs (`webhook inbox`, `status`, `replay`, `dead`) reach the store beside a running receiver: one
 * way to open it and one reading of the flags that choose events, so no verb imports another's module for them.
 */

/** The flags that choose stored events, as `webhook inbox` and `webhook replay` take them. */
export interface EventSelectionFlags {
  kind?: WebhookKind;
  /** ISO-8601: only events received at or after it. */
  since?: string;
  /** ISO-8601: only events received before it. */
  until?: string;
  pending?: boolean;
  dead?: boolean;
}

/** The events selected by the common flags. */
export function selectionOf(options: EventSelectionFlags): EventSelection {
  // Swapped, they choose nothing, and "0 events" would read as an empty inbox.
  if (
    options.since !== undefined &&
    options.until !== undefined &&
    !(Date.parse(options.since) < Date.parse(options.until))
  )
    throw new UsageError(
      `--since ${options.since} is not before --until ${options.until}: no event could be chosen; swap them.`,
    );
  return {
    kind: options.kind,
    since: options.since === undefined ? undefined : Date.parse(options.since),
    until: options.until === undefined ? undefined : Date.parse(options.until),
    pending: options.pending,
    dead: options.dead,
  };
}

/**
 * Opens the store beside the receiver for `work`, then closes it; `interrupt` stops a PostgreSQL store's opening.
 * It is never brought up to date here: `readsEventsOnly` reads an older inbox as it is, else it is refused.
 */
export async function withStore<T>(
  location: StoreLocation,
  user: StoreUser & { interrupt: AbortSignal; readsEventsOnly: boolean },
  work: (store: EventStore) => Promise<T>,
): Promise<T> {
  const { interrupt, ...beside } = user;
  const { store } = await openStore(location, { mustExist: true, beside }, { interrupt });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
