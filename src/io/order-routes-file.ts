import {
  defaultOrderRoutes,
  missingReplaceRoutes,
  OrderRoutesError,
  type OrderRoutes,
  parseOrderRoutes,
} from '../domain/order-routes.js';
import type { OrderAction } from '../domain/order-stages.js';
import { UsageError } from '../base/errors.js';
import { type JsonSettingOrigin, readJsonSetting } from './json-setting.js';

/**
 * The order routes: `--routes FILE`, else the `orders.routes` setting (a file path or inline JSON), else the
 * sandbox's. Lives in io/ because the orders commands, doctor and the sandbox command all read one.
 */
export function loadOrderRoutes(source: string | undefined, origin: JsonSettingOrigin): OrderRoutes {
  if (!source) return defaultOrderRoutes;
  return readJsonSetting(source, origin, {
    fileLabel: 'the order routes file',
    unusable: (from) => `The order routes from ${from} are not usable`,
    parse: parseOrderRoutes,
    ruleError: OrderRoutesError,
  });
}

/**
 * The orders.routes setting as a profile's session reads it: its value and where that was set. Structural, so io/
 * need not import config/; a `Session` is one.
 */
export interface RoutesSetting {
  get(key: 'orders.routes'): string | undefined;
  origin(key: 'orders.routes'): string;
}

/**
 * Where the routes in force came from, as a 404 to a move names it: `--routes FILE`, the orders.routes setting (and
 * where that was set), or the sandbox's, when neither names a file.
 */
export function routesOriginOf(flag: string | undefined, session: RoutesSetting): string {
  if (flag) return `--routes ${flag}`;
  if (session.get('orders.routes')) return `${session.origin('orders.routes')}`;
  return "the sandbox's routes (neither --routes nor the orders.routes setting names a routes file)";
}

/** The routes in force: `--routes`, else the orders.routes setting, else the sandbox's. */
export function orderRoutesOf(flag: string | undefined, session: RoutesSetting): OrderRoutes {
  return flag
    ? loadOrderRoutes(flag, { kind: 'flag', flag: '--routes', value: flag })
    : loadOrderRoutes(session.get('orders.routes'), { kind: 'setting', described: session.origin('orders.routes') });
}

/**
 * `--replace` refused (exit 2, before any order is read) when the routes in force have no replace route for a move it
 * may correct: the store's routes file gives its own or none, and without one no correction can be sent.
 */
export function refuseReplaceWithoutRoutes(
  command: string,
  routes: OrderRoutes,
  actions: Iterable<OrderAction>,
  origin: string,
): void {
  const missing = missingReplaceRoutes(routes, actions);
  if (missing.length === 0) return;
  const named = missing.map((action) => `replace.${action}`).join(' or ');
  const example = missing.map((action) => `"${action}": …`).join(', ');
  throw new UsageError(
    `${command} --replace: the order routes of ${origin} have no ${named} route, so no correction can be sent; nothing was sent. Add a "replace": {${example}} route to the routes file (docs/orders.md), or run without --replace.`,
  );
}
