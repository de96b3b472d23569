import type { DeliveryStep, WebhookTarget } from '../../webhook/sender.js';
import { deliverWebhook } from '../../webhook/sender.js';
import type { EventOutbox, OutboxEvent, WebhookKind } from '../events.js';
import { urlsShownSafely } from '../../lib/shown-target.js';

/** One notification as the platform's panel lists it. */
export interface WebhookDelivery {
  id: number;
  kind: WebhookKind;
  /** The outbox event it came from. */
  sequence: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The last attempt's steps: token request, then the event. */
  steps: DeliveryStep[];
  error?: string;
  createdAt: string;
  lastAttemptAt?: string;
  payload: unknown;
}

/**
 * The platform's sending side: each outbox event becomes a delivery to the configured receiver, sent after the
 * route's own answer (the platform does not wait for the receiver), one at a time in publication order, token
 * first. Like the platform, it does not retry by itself; a failed delivery is resent by hand (the resend route).
 */
export class WebhookSender {
  private target: WebhookTarget | undefined;
  private readonly deliveries: WebhookDelivery[] = [];
  private lastId = 0;
  private queue: Promise<void> = Promise.resolve();

  private readonly now: () => Date;
  private readonly capacity;
  /** Told of each delivery that failed, with its one line (the sandbox command prints it on stderr). */
  onFailure: ((line: string) => void) | undefined;
  constructor(events: EventOutbox, now: () => Date, capacity = 1000) {
    this.now = now;
    this.capacity = capacity;

    events.subscribe((event) => this.enqueue(event));
  }

  configure(target: WebhookTarget | undefined): void {
    this.target = target;
  }

  /** The configured receiver, its secret too: what a partial change of the configuration starts from. */
  configured(): WebhookTarget | undefined {
    return this.target;
  }

  /** The configured receiver without its secret. */
  describe(): Omit<WebhookTarget, 'clientSecret'> | undefined {
    if (!this.target) return undefined;
    const shown: Partial<WebhookTarget> = { ...this.target };
    delete shown.clientSecret;
    return shown as Omit<WebhookTarget, 'clientSecret'>;
  }

  list(): readonly WebhookDelivery[] {
    return this.deliveries;
  }

  /** Sends a delivery again (the panel's resend); undefined when there is no such delivery. */
  resend(id: number): WebhookDelivery | undefined {
    const delivery = this.deliveries.find((candidate) => candidate.id === id);
    if (delivery) this.schedule(delivery);
    return delivery;
  }

  /** Resolves once every queued delivery has been attempted (tests and the demo wait on it). */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(event: OutboxEvent): void {
    if (!this.target) return;
    const delivery: WebhookDelivery = {
      id: ++this.lastId,
      kind: event.kind,
      sequence: event.sequence,
      status: 'pending',
      attempts: 0,
      steps: [],
      createdAt: this.now().toISOString(),
      payload: event.payload,
    };
    this.deliveries.push(delivery);
    if (this.deliveries.length > this.capacity) this.deliveries.shift();
    this.schedule(delivery);
  }

  private schedule(delivery: WebhookDelivery): void {
    delivery.status = 'pending';
    // Chained, so deliveries go out in publication order and never inside the route that published them.
    this.queue = this.queue
      .then(() => this.attempt(delivery))
      .catch((error: unknown) => {
        // A failure of one delivery (a bad target URL) must not stop the queue for the ones after it.
        delivery.status = 'failed';
        delivery.error = (error as Error).message;
      })
      .then(() => {
        if (delivery.status === 'failed') this.onFailure?.(this.failureLine(delivery));
      });
  }

  /** The one line of a failed delivery: which, to where, what failed, and where to look and resend. */
  private failureLine(delivery: WebhookDelivery): string {
    const to = this.target === undefined ? '' : ` to ${urlsShownSafely(this.target.url)}`;
    return `warning: webhook delivery ${delivery.id} (${delivery.kind}, event ${delivery.sequence})${to} failed: ${delivery.error ?? 'failed'}; GET /_sandbox/webhook-deliveries shows it, POST /_sandbox/webhook-deliveries/${delivery.id}/resend sends it again.`;
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const target = this.target;
    delivery.attempts++;
    delivery.lastAttemptAt = this.now().toISOString();
    if (!target) {
      delivery.status = 'failed';
      delivery.error = 'no receiver configured';
      return;
    }
    const outcome = await deliverWebhook(target, delivery.kind, delivery.payload, { urlFlag: '--webhook-url' });
    delivery.steps = outcome.steps;
    delivery.status = outcome.delivered ? 'delivered' : 'failed';
    const failed = outcome.steps.at(-1);
    delivery.error = outcome.delivered
      ? undefined
      : `${failed?.step ?? 'token'} ${failed?.status !== undefined ? `HTTP ${failed.status}` : (failed?.error ?? 'failed')}`;
  }
}
