import type { Context } from '../../context.js';
import { NotFoundError } from '../../base/errors.js';
import { writeObject } from '../../io/output/write-object.js';
import { noSuchOrder, OrderLookup } from './order-lookup.js';

export interface OrdersGetOptions {
  /** The order's id, or its number. */
  id: string;
}

/** `orders get ORDER`: one order's detail as the platform sends it (JSON unless -o says otherwise). */
export async function run(options: OrdersGetOptions, context: Context): Promise<void> {
  const session = await context.session();
  session.requireBaseUrl();
  const client = await context.platform();
  const lookup = new OrderLookup(client, (line) => context.log.info(line));
  const found = await lookup.find(options.id, context.interrupt);
  if (found === undefined) throw new NotFoundError(noSuchOrder(options.id, lookup.searched(options.id)));
  const order = found.order;
  if (order && typeof order === 'object' && !Array.isArray(order))
    await writeObject(context, order as Record<string, unknown>);
  else context.io.stdout.write(`${JSON.stringify(order, null, 2)}\n`);
}
