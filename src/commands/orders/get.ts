import type { Context } from '../../context.js';
import { NotFoundError } from '../../base/errors.js';
import { writeObject } from '../../io/output/write-object.js';
import { noSuchOrder, OrderLookup } from '../../orders/order-lookup.js';

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
    await writeObject(jsonOnTerminals(context), order as Record<string, unknown>);
  else context.io.stdout.write(`${JSON.stringify(order, null, 2)}\n`);
}

/**
 * JSON on a terminal too, as the help says, unless -o asks for another format: an order nests its customer, items and
 * totals, which `label: value` lines could show only as one-line JSON after each label, wrapped back at the edge
 * (a user test). As `gh api` and `b2bctl api` print what the API sent; `-o table` still gives the labelled lines.
 */
function jsonOnTerminals(context: Context): Context {
  return { ...context, outputFormat: () => context.globals.output ?? (context.globals.excel ? 'csv' : 'json') };
}
