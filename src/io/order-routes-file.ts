import { readFileSync } from 'node:fs';
import { defaultOrderRoutes, OrderRoutesError, type OrderRoutes, parseOrderRoutes } from '../domain/order-routes.js';
import { InputError, UsageError } from '../errors.js';

/**
 * The order routes: `--routes FILE`, else the `orders.routes` setting (a file path or inline JSON), else the
 * sandbox's. Lives in io/ because the orders commands, doctor and the sandbox command all read one.
 */
export function loadOrderRoutes(source: string | undefined, origin: string): OrderRoutes {
  if (!source) return defaultOrderRoutes;
  let text = source;
  if (!source.trim().startsWith('{')) {
    try {
      text = readFileSync(source, 'utf8');
    } catch (error) {
      throw new InputError(
        `${source}: cannot read the order routes file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        { file: source, missing: true },
      );
    }
  }
  try {
    return parseOrderRoutes(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof OrderRoutesError)
      throw new UsageError(`The order routes from ${origin} are not usable: ${error.message}`);
    throw error;
  }
}
