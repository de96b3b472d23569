import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { bulkFlags, type ParsedBulkFlags } from '../../command-kit/shared-flags.js';
import { UsageError } from '../../base/errors.js';
import type { OrdersMoveOptions } from './move.js';
import type { OrdersUpdateOptions } from './update.js';

interface MoveFlags {
  erpNumber?: string;
  xml?: string;
  key?: string;
  tracking?: string;
  carrier?: string;
  trackingUrl?: string;
  reason?: string;
  routes?: string;
  branch?: string;
  orderId?: string;
  statusCheck?: boolean;
  replace?: boolean;
}

const routesHelp = "the store's order routes (JSON; default: the orders.routes setting, else the sandbox's)";
const replaceHelp =
  'send a correction (another ERP number, NF-e or tracking code than the order holds) through the routes file’s replace route';

/** `b2bctl orders ready|invoice|ship|cancel ORDER` and `orders update FILE`: moving orders on. */
export function registerMoves(program: Command, orders: Command, dispatch: Dispatch): void {
  const verb = (name: string, description: string) =>
    orders
      .command(name)
      .description(description)
      .argument('<order>', 'the order’s id, or its number (orderId), which one listing search turns into the id')
      .option('--routes <file>', routesHelp)
      .option('--branch <code>', 'the branch that fills {branch} in the route (default: the branch setting)')
      .option('--order-id <n>', 'the order number, for routes with {orderId} in their path')
      .option('--no-status-check', "send without reading the order's status first (the platform alone judges the move)")
      .option('--replace', replaceHelp);
  const send = (action: OrdersMoveOptions['action']) => (order: string, flags: MoveFlags, command: Command) => {
    const options: OrdersMoveOptions = {
      order,
      action,
      erpNumber: flags.erpNumber,
      invoiceXml: flags.xml,
      invoiceKey: flags.key,
      trackingCode: flags.tracking,
      carrier: flags.carrier,
      trackingUrl: flags.trackingUrl,
      reason: flags.reason,
      routes: flags.routes,
      branch: flags.branch,
      orderId: flags.orderId,
      statusCheck: flags.statusCheck,
      replace: flags.replace === true,
    };
    if (action === 'invoice' && (flags.xml === undefined) === (flags.key === undefined))
      throw new UsageError('orders invoice takes --xml NFE.xml or --key KEY (one of them).');
    return dispatch(command, async () => (await import('./move.js')).run, options);
  };
  verb('ready', 'mark an order ready to ship, with the ERP’s order number')
    .requiredOption('--erp-number <n>', 'the ERP’s order number')
    .action(send('ready'));
  verb('invoice', 'send an order’s NF-e (the XML, checked first) or its access key')
    .option('--xml <file>', 'the authorised NF-e (nfeProc XML)')
    .option('--key <key>', 'the 44-digit access key, for stores that take the key alone')
    .action(send('invoice'));
  verb('ship', 'mark an order shipped, with its tracking')
    .requiredOption('--tracking <code>', 'the tracking code (a Correios code has its check digit verified)')
    .option('--carrier <name>', 'the carrier (Correios, Jadlog, …)')
    .option('--tracking-url <url>', 'the tracking link (https)')
    .action(send('ship'));
  verb('cancel', 'cancel an order, with the reason')
    .requiredOption('--reason <text>', 'why the order is canceled (at most 500 characters)')
    .action(send('cancel'));
  bulkFlags
    .addTo(
      orders
        .command('update')
        .description(
          'send a file of order moves (ready, invoice, ship, cancel), checked first, paced, reported, resumable',
        )
        .argument('<file>', 'CSV, JSON, NDJSON, or - for stdin: one row per move')
        .option('--routes <file>', routesHelp)
        .option('--no-status-check', "send without reading each order's status first (the platform alone judges)")
        .option('--replace', replaceHelp)
        .option(
          '--allow-paths',
          'let invoiceXml name files outside the folder of FILE (absolute paths, .., links out)',
        ),
    )
    .action((file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<
        ParsedBulkFlags & { routes?: string; statusCheck?: boolean; replace?: boolean; allowPaths?: boolean }
      >();
      return dispatch<OrdersUpdateOptions>(command, async () => (await import('./update.js')).run, {
        file,
        routes: flags.routes,
        statusCheck: flags.statusCheck,
        replace: flags.replace === true,
        allowPaths: flags.allowPaths === true,
        ...bulkFlags.read(flags),
      });
    });
}

/** The examples at the end of the moves' help, by their path under the root (the orders group shows them). */
export const moveExamples: CommandExamples = {
  'orders ready': ['b2bctl orders ready 217 --erp-number PV-2026-0042'],
  'orders invoice': [
    'b2bctl orders invoice 217 --xml notas/35261011222333000181550010000012341123456787.xml',
    'b2bctl orders invoice 217 --xml notas/corrigida.xml --replace',
  ],
  'orders ship': ['b2bctl orders ship 217 --tracking SS123456785BR --carrier Correios'],
  'orders cancel': ['b2bctl orders cancel 217 --reason "customer withdrew the order"'],
  'orders update': [
    'b2bctl orders update pedidos.csv --dry-run',
    'b2bctl orders update pedidos.csv --quiet --rate 5',
    'b2bctl orders update pedidos.csv --resume pedidos.report-20261125-020000.csv',
  ],
};
