import type { FastifyInstance } from 'fastify';
import { sendError } from '../http-answers.js';
import { pageOfNewestFirst, parseListingQuery } from '../orders/rules.js';
import { summaryOf } from '../orders/store.js';
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
 * - `POST /_sandbox/orders` creates an order now and returns its detail; `GET /_sandbox/orders` lists every summary.
 * - `POST /_sandbox/orders/churn` `{"updates": n, "creations": n}` changes orders on demand.
 * - `PUT /_sandbox/orders/settings` `{"churnProbability": p, "lastUpdatedSkewMs": n}`.
 * - `POST /_sandbox/orders/:id/touch` updates one order now (minus the skew).
 */
export function registerOrderControls(app: FastifyInstance, state: SandboxState): void {
  const open = { config: { public: true, control: true } };
  app.get('/_sandbox/clock', open, async () => state.clock.describe());
  app.put<{ Body: { now?: string; offsetMs?: number } }>('/_sandbox/clock', open, async (request, reply) => {
    const body = request.body ?? {};
    if (typeof body.now === 'string' && !Number.isNaN(Date.parse(body.now))) state.clock.fixAt(Date.parse(body.now));
    else if (typeof body.offsetMs === 'number' && Number.isFinite(body.offsetMs)) state.clock.shiftBy(body.offsetMs);
    else return sendError(reply, 400, 'Send {"now": ISO-8601} or {"offsetMs": number}');
    return state.clock.describe();
  });
  app.post('/_sandbox/orders', open, async () => state.orders.create(state.clock.now()));
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
