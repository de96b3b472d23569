import { type Command, Option } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { wholeNumber } from '../../command-kit/parse.js';
import { bulkFlags, inputFlags, type ParsedBulkFlags, type ParsedInputFlags } from '../../command-kit/shared-flags.js';
import type { StockPushOptions, StockRoute } from './push.js';
import type { StockValidateOptions } from './validate.js';

interface PushFlags extends ParsedBulkFlags {
  route: StockRoute;
  batchSize?: number;
  schema?: string;
}

/** `b2bctl stock validate|push`. */
export function register(program: Command, dispatch: Dispatch): void {
  const stock = program
    .command('stock')
    .description('stock and price: nightly files through the 50-item and 200-item routes');
  inputFlags
    .addTo(
      stock
        .command('validate')
        .description('check every row of a stock file locally; sends nothing')
        .argument('<file>', 'CSV, JSON, NDJSON, or - for stdin'),
    )
    .action((file: string, _flags: unknown, command: Command) =>
      dispatch<StockValidateOptions>(command, async () => (await import('./validate.js')).run, {
        file,
        ...inputFlags.read(command.opts<ParsedInputFlags>()),
      }),
    );
  bulkFlags
    .addTo(
      stock
        .command('push')
        .description('push a stock and price file, paced, retried, reported and resumable')
        .argument('<file>', 'CSV, JSON, NDJSON, or - for stdin')
        .addOption(
          new Option(
            '--route <route>',
            'batch: PUT /v1/stock/batch (50 items, per-item results); queue: POST /api/v1/stocks/batch (200 items, asynchronous); auto: by file size (stock.autoThreshold)',
          )
            .choices(['auto', 'batch', 'queue'])
            .default('auto'),
        )
        .option('--batch-size <n>', 'items per request (default: the route maximum, 50 or 200)', wholeNumber(1))
        .option('--schema <file>', "the store's names for the item fields (JSON); default: the stock.schema setting"),
    )
    .action((file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<PushFlags>();
      return dispatch<StockPushOptions>(command, async () => (await import('./push.js')).run, {
        file,
        route: flags.route,
        batchSize: flags.batchSize,
        schema: flags.schema,
        ...bulkFlags.read(flags),
      });
    });
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  stock: ['b2bctl stock validate estoque.csv', 'b2bctl stock push estoque.csv --quiet --keep-reports 14'],
  'stock validate': [
    'b2bctl stock validate estoque.csv',
    'b2bctl stock validate estoque.csv --encoding windows-1252 --decimal ,',
  ],
  'stock push': [
    'b2bctl stock push estoque.csv',
    'b2bctl stock push estoque.csv --route queue --quiet --keep-reports 14',
    'b2bctl stock push estoque.csv --dry-run --skip-invalid',
    'b2bctl stock push estoque.csv --resume estoque.report-20261121-020000.csv',
  ],
};
