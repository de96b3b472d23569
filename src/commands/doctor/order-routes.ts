import type { Session } from '../../config/session.js';
import type { OrderRoute } from '../../domain/order-routes.js';
import { orderActions } from '../../domain/order-stages.js';
import { B2bctlError, ExitCode } from '../../base/errors.js';
import { loadOrderRoutes } from '../../io/order-routes-file.js';
import type { Finding } from './findings.js';

/**
 * The order routes in force (the orders.routes setting, else the sandbox's), one line per move. Never probed: every
 * request to them writes, so doctor only shows where each move would go and with which body.
 */
export function orderRouteFindings(session: Session): Finding[] {
  const source = session.setting('orders.routes');
  const origin = source.value
    ? `the orders.routes setting (from ${source.source})`
    : "b2bctl's defaults (the sandbox's)";
  let routes;
  try {
    routes = loadOrderRoutes(source.value, { kind: 'setting', described: session.origin('orders.routes') });
  } catch (error) {
    return [
      {
        check: 'order routes',
        result: 'fail',
        detail: (error as Error).message,
        setting: 'orders.routes',
        exitCode: error instanceof B2bctlError ? error.exitCode : ExitCode.usage,
      },
    ];
  }
  const listed: [string, OrderRoute][] = [
    ...orderActions.map((action): [string, OrderRoute] => [action, routes[action]]),
    ...Object.entries(routes.replace ?? {}).map(([action, route]): [string, OrderRoute] => [
      `replace ${action}`,
      route,
    ]),
  ];
  return listed.map(([name, route]) => ({
    check: `orders ${name}: ${route.method} ${route.path}`,
    result: 'skip' as const,
    detail: `not probed (every request writes); body ${JSON.stringify(route.body)}; from ${origin}`,
    setting: 'orders.routes',
  }));
}
