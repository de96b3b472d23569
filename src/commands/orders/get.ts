import type { Context } from '../../context.js';
import { writeObject } from '../../io/output/write-object.js';
import { getOrder } from '../../platform/orders.js';

export interface OrdersGetOptions {
  id: string;
}

/** `orders get ID`: one order's detail as the platform sends it (JSON unless -o says otherwise). */
export async function run(options: OrdersGetOptions, context: Context): Promise<void> {
  const session = await context.session();
  session.requireBaseUrl();
  const client = await context.platform();
  const order = await getOrder(client, options.id, context.interrupt);
  if (order && typeof order === 'object' && !Array.isArray(order))
    await writeObject(context, order as Record<string, unknown>);
  else context.io.stdout.write(`${JSON.stringify(order, null, 2)}\n`);
}
