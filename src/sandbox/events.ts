/** The two webhooks of the platform document ("Events"). */
export type WebhookKind = 'customers' | 'orders';

/** Something the platform would notify a receiver of: the webhook's kind and its payload as sent. */
export interface PublishedEvent {
  kind: WebhookKind;
  payload: unknown;
}

export interface OutboxEvent extends PublishedEvent {
  /** 1, 2, 3… in publication order. */
  sequence: number;
}

/**
 * The sandbox's event outbox: customer creates/updates and generated or churned orders are published here,
 * and the webhook sender (or a test) subscribes. Routes call `state.events.publish({kind, payload})` after
 * their own answer is decided; subscribers must not throw into the route.
 */
export class EventOutbox {
  private readonly subscribers = new Set<(event: OutboxEvent) => void>();
  private readonly recent: OutboxEvent[] = [];
  private lastSequence = 0;

  private readonly capacity;
  /** Keeps the last `capacity` events for inspection, so a long benchmark run does not grow the sandbox. */
  constructor(capacity = 10_000) {
    this.capacity = capacity;
  }

  publish(event: PublishedEvent): OutboxEvent {
    const published: OutboxEvent = { ...event, sequence: ++this.lastSequence };
    this.recent.push(published);
    if (this.recent.length > this.capacity) this.recent.shift();
    for (const subscriber of this.subscribers) subscriber(published);
    return published;
  }

  /** Calls `subscriber` for every event published from now on; returns the unsubscribe function. */
  subscribe(subscriber: (event: OutboxEvent) => void): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** The most recent events, oldest first. */
  list(): readonly OutboxEvent[] {
    return this.recent;
  }
}
