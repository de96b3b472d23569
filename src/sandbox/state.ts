import { randomBytes } from 'node:crypto';
import type { SalesRep } from '../domain/sales-rep.js';
import { StockState } from './stock/state.js';
import { CustomerStore } from './customers/store.js';
import { SandboxClock } from './clock.js';
import { type OrderDetail, OrderStore, summaryOf } from './orders/store.js';
import { EventOutbox } from './events.js';
import { WebhookSender } from './webhooks/sender.js';
import { ListingStore } from './listings/store.js';

/** Everything the simulated platform holds, in memory; each resource's routes read and write it here. */
export class SandboxState {
  readonly tokens = new Map<string, number>();
  readonly requestCounts = new Map<string, number>();
  /** Told of each counted request as it arrives: a test waits for the request it wants instead of polling the counts. */
  readonly onRequestCounted: ((key: string, count: number) => void)[] = [];
  sellers: SalesRep[] = [];
  /** Catalogue, stock lines and the stock queue; seeded by seedSandboxState. */
  stock = new StockState();
  /** Customer and order events for the webhook sender, in publication order. */
  readonly events = new EventOutbox();
  /** Customers, store settings, CEP table and e-mail outbox; seeded by seedSandboxState. */
  customers = new CustomerStore(this.events);
  /** Sends the outbox's events to the configured receiver, as the platform's webhooks. */
  readonly webhooks = new WebhookSender(this.events, () => new Date(this.clock.now()));
  /** Pending quotes, contracts, cashback, credit limits, groups, lead times; seeded by seedSandboxState. */
  listings = new ListingStore([], Date.now);

  /** What the orders webhook carries for an order: its summary, unless the sandbox sends the full variant. */
  orderWebhookPayload: (order: OrderDetail) => unknown = summaryOf;

  readonly clock;
  readonly orders;
  /** `clock`: the time every route reads; `orders`: built by seedSandboxState. */
  constructor(clock = new SandboxClock(), orders = new OrderStore({ customers: [], products: [] }, Math.random)) {
    this.clock = clock;
    this.orders = orders;

    // Generated and churned orders reach the receiver as the orders webhook: the summary fields (the simplified
    // variant), or with --orders-webhook full the whole order in the dialect's detail shape.
    orders.onOrderChanged.push((order) =>
      this.events.publish({ kind: 'orders', payload: this.orderWebhookPayload(order) }),
    );
  }

  issueToken(nowMs: number, ttlSeconds: number): string {
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, nowMs + ttlSeconds * 1000);
    return token;
  }

  /** `valid`, `expired` or `unknown` for a Bearer token. */
  checkToken(token: string, nowMs: number): 'valid' | 'expired' | 'unknown' {
    const expiresAt = this.tokens.get(token);
    if (expiresAt === undefined) return 'unknown';
    return nowMs < expiresAt ? 'valid' : 'expired';
  }

  countRequest(key: string): void {
    const count = (this.requestCounts.get(key) ?? 0) + 1;
    this.requestCounts.set(key, count);
    for (const listener of this.onRequestCounted) listener(key, count);
  }
}
