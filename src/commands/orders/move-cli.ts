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
  'send a correction (another ERP number, NF-e or tracking code than the order holds) through the routes file’s replace route (refused at start when the routes have none for the move)';

/** `b2bctl orders ready|invoice|ship|cancel ORDER` and `orders update FILE`: moving orders on. */
export function registerMoves(orders: Command, dispatch: Dispatch): void {
  const verb = (name: string, summary: string, description: string) =>
    orders
      .command(name)
      .summary(summary)
      .description(description)
      .argument('<order>', 'the order’s id, or its number (orderId), which one listing search turns into the id')
      .option('--routes <file>', routesHelp)
      .option('--branch <code>', 'the branch that fills {branch} in the route (default: the branch setting)')
      .option(
        '--order-id <n>',
        'the order number, for routes with {orderId} in their path (default: the number the order’s detail shows)',
      )
      .option(
        '--no-status-check',
        'send without reading the order first: its status, and its buyer an NF-e is checked against (the platform alone judges the move)',
      );
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
  verb(
    'ready',
    'mark an order ready to ship, with the ERP’s order number',
    "Tells the platform an order is ready to ship, with the ERP's own order number for it. The order's status is read first: an order already ready with that number is left unchanged (exit 0), and one ready with another number is a conflict (exit 1) unless --replace sends the correction. Where the move goes (route, method, body) comes from the store's order routes file (--routes, or the orders.routes setting).",
  )
    .requiredOption('--erp-number <n>', 'the ERP’s order number')
    .option('--replace', replaceHelp)
    .action(send('ready'));
  verb(
    'invoice',
    'send an order’s NF-e (the XML, checked first) or its access key',
    "Sends an order's invoice: the authorised NF-e XML (--xml), checked before it leaves (an authorised nfeProc of version 4.00 of at most 1 MB, its access key and check digit, the emitter's CNPJ), or the 44-digit access key alone (--key) for stores that take only the key. The order's status is read first: the same invoice already on the order is left unchanged, another one is a conflict (exit 1) unless --replace sends the corrected NF-e. The route comes from the store's order routes file.",
  )
    .option('--xml <file>', 'the authorised NF-e (nfeProc XML)')
    .option('--key <key>', 'the 44-digit access key, for stores that take the key alone')
    .option('--replace', replaceHelp)
    .action(send('invoice'));
  verb(
    'ship',
    'mark an order shipped, with its tracking',
    "Tells the platform an order was shipped, with its tracking code, carrier and tracking link. A Correios code has its check digit verified before anything is sent. The order's status is read first: the same tracking already on the order is left unchanged, another is a conflict (exit 1) unless --replace sends the correction. The route comes from the store's order routes file.",
  )
    .requiredOption('--tracking <code>', 'the tracking code (a Correios code has its check digit verified)')
    .option('--carrier <name>', 'the carrier (Correios, Jadlog, …)')
    .option('--tracking-url <url>', 'the tracking link (https)')
    .option('--replace', replaceHelp)
    .action(send('ship'));
  verb(
    'cancel',
    'cancel an order, with the reason',
    "Cancels an order on the platform, with the reason the buyer and the store will see (at most 500 characters). The order's status is read first, so an order already canceled is left unchanged. The route comes from the store's order routes file.",
  )
    .requiredOption('--reason <text>', 'why the order is canceled (at most 500 characters)')
    .action(send('cancel'));
  bulkFlags
    .addTo(
      orders
        .command('update')
        .summary('send a file of order moves (ready, invoice, ship, cancel), checked first, paced, reported, resumable')
        .description(
          "Sends the ERP's file of order moves, one row per move (order, action and the action's data: ERP number, NF-e file or key, tracking, reason), in the order written. Every row is checked first (the NF-e XML and its key, Correios tracking digits, files beside the input) and nothing is sent while one is invalid; then each order's status is read, so a move already taken is unchanged and a night's file can run twice, and a move with other data than the order holds is a conflict unless --replace. The run is paced, reported beside the input with an errors file, and resumable, like every bulk run (docs/orders.md).",
        )
        .argument('<file>', 'CSV, JSON, NDJSON, a workbook (.xlsx, .ods), or - for stdin: one row per move')
        .option('--routes <file>', routesHelp)
        .option(
          '--branch <code>',
          'the branch that fills {branch} in the routes, for rows without a branch of their own (default: the branch setting)',
        )
        .option(
          '--no-status-check',
          'send without reading each order first: its status, and its buyer an NF-e is checked against (the platform alone judges)',
        )
        .option('--replace', replaceHelp)
        .option(
          '--allow-paths',
          'let invoiceXml name files outside the folder of FILE (absolute paths, .., links out)',
        ),
    )
    .action((file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<
        ParsedBulkFlags & {
          routes?: string;
          branch?: string;
          statusCheck?: boolean;
          replace?: boolean;
          allowPaths?: boolean;
        }
      >();
      return dispatch<OrdersUpdateOptions>(command, async () => (await import('./update.js')).run, {
        file,
        routes: flags.routes,
        branch: flags.branch,
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
