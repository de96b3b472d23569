import { defaultOrderRoutes, OrderRoutesError, type OrderRoutes, parseOrderRoutes } from '../domain/order-routes.js';
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
