import type { FastifyInstance } from 'fastify';
import { sendError } from '../http-answers.js';
import { pageOfNewestFirst, parseListingQuery } from '../orders/rules.js';
import { centavosOf, type OrderCart, type OrderDraft, storeState, summaryOf } from '../orders/store.js';
import { cartProblem } from '../orders/cart-check.js';
import { TaxCallbackCaller, type TaxCallback, type TaxCart } from '../orders/tax-callback.js';
import type { SandboxState } from '../state.js';

/**
 * `GET /v1/orders` (the listing of docs/platform.md: newest first by creation, filters, limit/offset, `[]` at the
 * end) and `GET /v1/orders/:id` (the detail). Under `--order-churn` a listing request first changes a few orders,
 * as a busy store does while a poller pages through it.
 */
export function registerOrders(app: FastifyInstance, state: SandboxState): void {
  app.get('/v1/orders', async (request, reply) => {
    const query = parseListingQuery(request.query as Record<string, unknown>);
    if (typeof query === 'string') return sendError(reply, 400, query);
    state.orders.churnBeforeListing(state.clock.now());
    const dialect = reply.server.dialect;
    return dialect.listingAnswer(
      pageOfNewestFirst(state.orders.newestFirst(), query).map((order) => dialect.orderSummary(summaryOf(order))),
      query.offset,
    );
  });
  app.get<{ Params: { id: string } }>('/v1/orders/:id', async (request, reply) => {
    const order = /^\d+$/.test(request.params.id) ? state.orders.orders.get(Number(request.params.id)) : undefined;
    if (!order) return sendError(reply, 404, `Order [${request.params.id}] not found`);
    return reply.server.dialect.orderDetail(order);
  });
}

/**
 * `/_sandbox/clock` and `/_sandbox/orders*`: the test controls of the orders and of the sandbox's time.
 * - `PUT /_sandbox/clock` `{"now": ISO}` stops the clock there; `{"offsetMs": n}` runs it shifted; GET shows it.
 * - `POST /_sandbox/orders` creates an order now and returns its detail (a cart in the body chooses the buyer, state
 *   and items; with --tax-callback the cart waits for its taxes first); `GET /_sandbox/orders` lists every summary.
 * - `POST /_sandbox/orders/churn` `{"updates": n, "creations": n}` changes orders on demand.
 * - `PUT /_sandbox/orders/settings` `{"churnProbability": p, "lastUpdatedSkewMs": n}`.
 * - `POST /_sandbox/orders/:id/touch` updates one order now (minus the skew).
 */
export function registerOrderControls(app: FastifyInstance, state: SandboxState, taxCallback?: TaxCallback): void {
  const open = { config: { public: true, control: true } };
  const taxes = taxCallback === undefined ? undefined : new TaxCallbackCaller(taxCallback);
  app.get('/_sandbox/clock', open, async () => state.clock.describe());
  app.put<{ Body: { now?: string; offsetMs?: number } }>('/_sandbox/clock', open, async (request, reply) => {
    const body = request.body ?? {};
    if (typeof body.now === 'string' && !Number.isNaN(Date.parse(body.now))) state.clock.fixAt(Date.parse(body.now));
    else if (typeof body.offsetMs === 'number' && Number.isFinite(body.offsetMs)) state.clock.shiftBy(body.offsetMs);
    else return sendError(reply, 400, 'Send {"now": ISO-8601} or {"offsetMs": number}');
    return state.clock.describe();
  });
  app.post<{ Body: OrderCart | undefined }>('/_sandbox/orders', open, async (request, reply) => {
    // A part of the wrong kind is refused naming it, not a 500; an empty cart is refused as a checkout refuses it,
    // not filled with products nobody asked for.
    const problem = cartProblem(request.body);
    if (problem !== undefined) return sendError(reply, 400, problem);
    const draft = state.orders.draft(request.body ?? {});
    if (taxes === undefined) return state.orders.create(state.clock.now(), { draft });
    // The checkout waits for the ERP's taxes; without them the order is not closed.
    const answer = await taxes.ask(taxCartOf(draft));
    if (!answer.ok) return sendError(reply, answer.status, answer.message);
    return state.orders.create(state.clock.now(), { draft, taxes: answer.taxes });
  });
  // Every order's summary without touching them (the listing would churn): what a checker compares a poll with.
  app.get('/_sandbox/orders', open, async () => [...state.orders.orders.values()].map(summaryOf));
  app.post<{ Body: { updates?: number; creations?: number } }>('/_sandbox/orders/churn', open, async (request) => {
    const body = request.body ?? {};
    return state.orders.churn(state.clock.now(), wholeOr(body.updates, 3), wholeOr(body.creations, 1));
  });
  app.put<{ Body: { churnProbability?: number; lastUpdatedSkewMs?: number } }>(
    '/_sandbox/orders/settings',
    open,
    async (request) => {
      const body = request.body ?? {};
      if (typeof body.churnProbability === 'number') state.orders.churnProbability = body.churnProbability;
      if (typeof body.lastUpdatedSkewMs === 'number') state.orders.lastUpdatedSkewMs = body.lastUpdatedSkewMs;
      return { churnProbability: state.orders.churnProbability, lastUpdatedSkewMs: state.orders.lastUpdatedSkewMs };
    },
  );
  app.post<{ Params: { id: string } }>('/_sandbox/orders/:id/touch', open, async (request, reply) => {
    const order = state.orders.update(Number(request.params.id), state.clock.now());
    return order ?? sendError(reply, 404, `Order [${request.params.id}] not found`);
  });
}

function wholeOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** The fallback NCM of a product without one (plastic articles, 3926.90.90), so every cart can be taxed. */
const defaultNcm = '39269090';

/** A priced cart in the callback's default shape, the freight shared among the items by their value. */
function taxCartOf(draft: OrderDraft): TaxCart {
  const discounts = sharesOf(draft.discount, draft.items);
  const freights = sharesOf(draft.shippingPrice, draft.items);
  return {
    origin: { state: storeState },
    destination: { state: draft.state },
    customer: { document: draft.customer.document, paysIcms: draft.paysIcms },
    items: draft.items.map((item, index) => ({
      sku: item.sku,
      ncm: item.ncm ?? defaultNcm,
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      discount: discounts[index] ?? 0,
      freight: freights[index] ?? 0,
    })),
  };
}

/**
 * An order's amount shared among its items by their value, in whole centavos that add up to it: each share rounded
 * down, and the centavos left given one each to the items with the largest remainders (100 of shipping over three
 * items of 10 is 33.34, 33.33, 33.33, never 99.99). Items that are all worth nothing (a bonus shipment) share it
 * equally: the amount is the order's, and in no item's tax base it would be in no tax either. Integers throughout,
 * so that the shares are those of the exact values.
 */
export function sharesOf(amount: number, items: readonly { total: number }[]): number[] {
  const centavos = BigInt(centavosOf(amount));
  const values = items.map((item) => BigInt(centavosOf(item.total)));
  const worth = values.some((value) => value > 0n);
  const weights = worth ? values : values.map(() => 1n);
  const total = weights.reduce((sum, weight) => sum + weight, 0n);
  if (total === 0n || centavos === 0n) return items.map(() => 0);
  const shares = weights.map((weight) => (centavos * weight) / total);
  let left = centavos - shares.reduce((sum, share) => sum + share, 0n);
  const order = weights
    .map((weight, index) => ({ index, rest: (centavos * weight) % total }))
    .toSorted((a, b) => (a.rest === b.rest ? 0 : a.rest > b.rest ? -1 : 1));
  for (const { index } of order) {
    if (left <= 0n) break;
    shares[index] = (shares[index] ?? 0n) + 1n;
    left--;
  }
  return shares.map((share) => Number(share) / 100);
}
