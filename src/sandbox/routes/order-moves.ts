import type { FastifyInstance, FastifyReply } from 'fastify';
import { type OrderRoute, type OrderRoutes, defaultOrderRoutes, readBody } from '../../domain/order-routes.js';
import { type OrderAction, orderActions } from '../../domain/order-stages.js';
import { sendAnswer, sendError } from '../http-answers.js';
import { applyMove, findOrder, movesOf } from '../orders/moves.js';
import { movedAnswer, refusalAnswer } from '../orders/move-answers.js';
import type { SandboxState } from '../state.js';

/**
 * The routes that move an order on (ready, invoice, ship, cancel), served where the order routes file puts them:
 * routes sharing a method and path (ready and cancel on `/status`) are told apart by the literals of their bodies.
 * Plus `GET /_sandbox/orders/moves`, every accepted move in order (what tests compare a run with).
 */
export function registerOrderMoves(
  app: FastifyInstance,
  state: SandboxState,
  routes: OrderRoutes = defaultOrderRoutes,
): void {
  const groups = new Map<string, { method: string; path: string; actions: [OrderAction, OrderRoute, boolean][] }>();
  const served: [OrderAction, OrderRoute | undefined, boolean][] = [
    ...orderActions.map((action): [OrderAction, OrderRoute, boolean] => [action, routes[action], false]),
    ...Object.entries(routes.replace ?? {}).map(([action, route]): [OrderAction, OrderRoute, boolean] => [
      action as OrderAction,
      route,
      true,
    ]),
  ];
  for (const [action, route, replace] of served) {
    if (!route) continue;
    const key = `${route.method} ${route.path}`;
    const group = groups.get(key) ?? { method: route.method, path: route.path, actions: [] };
    group.actions.push([action, route, replace]);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    app.route({
      method: group.method as 'POST',
      url: group.path.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, ':$1'),
      handler: async (request, reply) => {
        const params = request.params as Record<string, string>;
        for (const [action, route, replace] of group.actions) {
          const values = readBody(route.body, request.body ?? {});
          if (values) return move(state, reply, action, { ...values, ...params }, replace);
        }
        return sendError(
          reply,
          422,
          `The body is not a ${group.actions.map(([action]) => action).join(' or ')} of this route`,
        );
      },
    });
  }
  app.get('/_sandbox/orders/moves', { config: { public: true, control: true } }, async () => movesOf(state.orders));
}

function move(
  state: SandboxState,
  reply: FastifyReply,
  action: OrderAction,
  values: Record<string, string>,
  replace: boolean,
): FastifyReply {
  const order = findOrder(state.orders, values);
  if (!order) return sendError(reply, 404, `Order [${values.id ?? values.orderId}] not found`);
  const outcome = applyMove(state.orders, order, action, values, state.clock.now(), replace);
  const dialect = reply.server.dialect.name;
  switch (outcome.kind) {
    case 'invalid':
    case 'forbidden': {
      const { status, ...answer } = refusalAnswer(dialect, outcome, reply.request.url.split('?')[0] ?? '/');
      return sendAnswer(reply, status, answer);
    }
    case 'moved': {
      const { status, ...answer } = movedAnswer(dialect, outcome.order);
      return sendAnswer(reply, status, answer);
    }
    default:
      return sendError(reply, 404, 'Order not found');
  }
}
