import { setTimeout as pause } from 'node:timers/promises';
import type { EventConsumer } from './consumers.js';
import type { EventStore, StoredEvent } from './store/types.js';

/**
 * The ERP's hand-off (`--exec`, `--forward-to`) of a receiver that also runs `--fetch-orders`: an orders event is
 * handed to the ERP only once the fetch hand-off `leader` has handled it (its order file written or kept, or the
 * fetch a dead letter), so a command that reads orders/<id>.json for the event it is given finds it. Run side by
 * side, the two were unordered and an importer written the obvious way met no file, every time a detail lagged
 * (a user test). As make or a CI pipeline run a step after the one it needs, rather than leave each consumer to poll for
 * the other's output. Other events pass at once (in order: one after a waiting orders event waits with it).
 * Whether the leader went past an event is read from the store (its recorded position), every `pollMs` while not.
 */
export function afterFetch(consumer: EventConsumer, store: EventStore, leader: string, pollMs = 100): EventConsumer {
  /** Every event below this id is handled by the leader: its first pending event, or none pending. */
  const handledBelow = async (): Promise<number> => {
    const { events } = await store.pendingForHandOff(leader, undefined, 1);
    return events[0]?.id ?? Number.POSITIVE_INFINITY;
  };
  const untilHandled = async (event: StoredEvent, signal: AbortSignal) => {
    while (waits(event, await handledBelow())) await pause(pollMs, undefined, { signal });
  };
  const inner = consumer.deliverInOrder?.bind(consumer);
  return {
    ...consumer,
    async deliver(event, signal) {
      await untilHandled(event, signal);
      await consumer.deliver(event, signal);
    },
    deliverInOrder:
      inner === undefined
        ? undefined
        : async (events, signal, progress) => {
            try {
              // The events the leader has handled go on together; the first it has not, once it has.
              for (;;) {
                const below = await handledBelow();
                const cut = events.findIndex((event) => waits(event, below));
                if (cut !== 0) return await inner(cut === -1 ? events : events.slice(0, cut), signal, progress);
                await pause(pollMs, undefined, { signal });
              }
            } catch (error) {
              return { taken: 0, failure: error as Error };
            }
          },
  };
}

/** Whether `event` waits for the leader, which has handled every event below `below`: an orders event it has not. */
function waits(event: StoredEvent, below: number): boolean {
  return event.kind === 'orders' && event.id >= below;
}
