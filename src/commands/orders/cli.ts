import type { Command } from 'commander';
import { UsageError } from '../../base/errors.js';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { filterText, nonEmpty, positiveNumber, wholeNumber } from '../../command-kit/parse.js';
import type { OrdersGetOptions } from './get.js';
import type { OrdersPollOptions } from './poll.js';
import { moveExamples, registerMoves } from './move-cli.js';

/** What commander parses for `orders poll`: each flag typed as its parser gives it. */
interface PollFlags {
  since?: string;
  until?: string;
  status?: string[];
  detail?: true;
  outDir?: string;
  cursor?: string;
  watch?: true;
  interval: number;
  concurrency: number;
  rate?: number;
}

/** `b2bctl orders poll|get` (docs/orders-poll.md). */
export function register(program: Command, dispatch: Dispatch): void {
  const orders = program
    .command('orders')
    .summary(
      'poll the order listing without missing an order, get one, and move orders on (ready, invoice, ship, cancel, update)',
    )
    .description(
      "Orders in and out. orders poll reads the order listing by update date and emits every new order version once, from a cursor kept per profile, so a run a minute from cron misses none; orders get prints one order. The moves (ready, invoice, ship, cancel, one order at a time, or update with the ERP's nightly file of moves) check each move and the order's status before sending, so a move already taken is left unchanged (docs/orders.md).",
    );
  orders
    .command('poll')
    .summary('emit each order version (id, lastUpdated) once, continuing from the profile’s cursor')
    .description(
      "Reads the platform's order listing by update date, from where the last run of this profile stopped (a cursor file in the config folder; --since on the first run) up to now (by the platform's clock, when it is behind this machine's) minus the orders.lag setting, and emits each order version, its id and lastUpdated, exactly once: NDJSON when piped, a table on a terminal, or one file per version with --out-dir. The cursor moves only once everything up to it was written, so a crash or Ctrl-C repeats, never skips; a reader that closes the output early (| head) ends the run with exit 141 and the cursor unmoved. With --detail each order's full detail is fetched, paced; --watch polls again every --interval seconds. A platform that takes updatedFrom/updatedTo to the second only: set orders.timePrecision s (docs/orders-poll.md).",
    )
    .option('--since <when>', 'start here: ISO-8601 or a duration before now (15m, 2h, 7d); needed on the first run')
    .option('--until <when>', 'stop here instead of now minus orders.lag: ISO-8601 or a duration before now')
    // No default value: commander would print `(default: [])` in the help.
    .option('--status <status>', 'only orders in this status (repeatable)', collect)
    .option('--detail', 'emit each order’s full detail (fetched concurrently, paced)')
    .option(
      '--out-dir <dir>',
      'write one file per order version, ID-NUMBER-LASTUPDATED.json (temporary name, fsync, rename)',
      nonEmpty('a folder', '--out-dir', 'stdout'),
    )
    .option(
      '--cursor <file>',
      'cursor file (default: per profile in the config folder)',
      nonEmpty('a file', '--cursor', "the profile's own cursor"),
    )
    .option('--watch', 'poll again every --interval seconds until Ctrl-C')
    .option('--interval <seconds>', 'seconds between --watch cycles', wholeNumber(1), 60)
    .option('--concurrency <n>', 'listing and detail requests in flight', wholeNumber(1), 4)
    .option('--rate <n>', 'requests per second at most', positiveNumber)
    .action((_flags: unknown, command: Command) => {
      const flags = command.opts<PollFlags>();
      if (flags.interval !== 60 && flags.watch !== true) {
        // Thrown from the action, so it is ours to report: commander prints only the errors of its own parsers.
        throw new UsageError('--interval needs --watch: give both, or neither.');
      }
      const options: OrdersPollOptions = {
        since: flags.since,
        until: flags.until,
        statuses: flags.status ?? [],
        detail: flags.detail === true,
        outDir: flags.outDir,
        cursor: flags.cursor,
        watch: flags.watch === true,
        intervalSeconds: flags.interval,
        concurrency: flags.concurrency,
        rate: flags.rate,
      };
      return dispatch(command, async () => (await import('./poll.js')).run, options);
    });
  orders
    .command('get')
    .summary('print one order’s detail')
    .description(
      "Fetches one order's detail from the platform and prints it as JSON, as the platform sent it, on a terminal too (-o table for label: value lines, -o csv for a row). The order is named by its id, as orders poll and the orders webhook give it, or by its number (orderId), which one search of the listing turns into the id. It reads only.",
    )
    .argument('<order>', 'the order’s id (the `id` of orders poll and the webhook), or its number (orderId)')
    .action((id: string, _flags: unknown, command: Command) =>
      dispatch<OrdersGetOptions>(command, async () => (await import('./get.js')).run, { id }),
    );

  registerMoves(orders, dispatch);
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  orders: ['b2bctl orders poll --since 2h', 'b2bctl orders get 217'],
  'orders poll': [
    'b2bctl orders poll --since 2h',
    'b2bctl orders poll --since 2026-11-20T00:00:00Z --status AWAITING_PAYMENT --detail > orders.ndjson',
    'b2bctl orders poll --out-dir /var/lib/erp/orders --watch --interval 60',
  ],
  'orders get': ['b2bctl orders get 217', 'b2bctl orders get 100217'],
  ...moveExamples,
};

/** A repeated filter's values; an empty one (`--status "$STATUS"` with the variable unset) is a usage error. */
function collect(value: string, previous: string[] = []): string[] {
  return [...previous, filterText(value)];
}
