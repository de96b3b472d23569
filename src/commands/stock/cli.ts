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
  allowZeroPrice?: boolean;
}

/** A price of 0 is refused unless asked for: the platform would sell the product for nothing. */
const allowZeroPrice = [
  '--allow-zero-price',
  'a price or sale price of 0 is meant (else refused: the product would sell for nothing)',
] as const;

/** `b2bctl stock validate|push`. */
export function register(program: Command, dispatch: Dispatch): void {
  const stock = program
    .command('stock')
    .summary('stock and price: nightly files through the 50-item and 200-item routes')
    .description(
      "The ERP's stock and price file (quantity, price, sale price and warehouse per SKU): checked locally with stock validate, then sent with stock push through the platform's 50-item batch route, which answers each item, or its 200-item queue route, which takes large files asynchronously. The file may be CSV, JSON, NDJSON or a workbook, on stdin too; a push is paced, reported, resumable, and fit for cron (docs/cron.md).",
    );
  inputFlags
    .addTo(
      stock
        .command('validate')
        .summary('check every row of a stock file locally; sends nothing')
        .description(
          "Reads a stock file as stock push would (CSV in any usual encoding and delimiter, JSON, NDJSON, or a workbook read by cell type) and checks every row: the SKU, whole quantities, prices and sale prices, and columns no field reads. Every problem is printed as file:line (or the workbook's cell), the field and what to do; the exit code is 65 when any row is invalid. It sends nothing and needs no login. A file streams through it, so a million rows need no more memory than a few thousand.",
        )
        .argument('<file>', 'CSV, JSON, NDJSON, a workbook (.xlsx, .ods), or - for stdin')
        .option(...allowZeroPrice),
    )
    .action((file: string, _flags: unknown, command: Command) =>
      dispatch<StockValidateOptions>(command, async () => (await import('./validate.js')).run, {
        file,
        allowZeroPrice: command.opts<{ allowZeroPrice?: boolean }>().allowZeroPrice,
        ...inputFlags.read(command.opts<ParsedInputFlags>()),
      }),
    );
  bulkFlags
    .addTo(
      stock
        .command('push')
        .summary('push a stock and price file, paced, retried, reported and resumable')
        .description(
          "Sends the quantities and prices of a stock file to the platform. The whole file is checked first and nothing is sent while a row is invalid; then the items go in batches, through the 50-item batch route (each item applied or rejected) or the 200-item queue route (--route; auto chooses by the file's size), paced, with failed requests retried. A report with a row per item is written beside the input, failed and invalid rows go to an errors file in the input's columns, and an interrupted or failing run prints the command that resumes it. From cron, --quiet leaves one closing line, --min-records makes an empty export a failed night, and two runs of one profile never overlap.",
        )
        .argument('<file>', 'CSV, JSON, NDJSON, a workbook (.xlsx, .ods), or - for stdin')
        .addOption(
          new Option(
            '--route <route>',
            'batch: PUT /v1/stock/batch (50 items, per-item results); queue: POST /api/v1/stocks/batch (200 items, asynchronous); auto: by file size (stock.autoThreshold)',
          )
            .choices(['auto', 'batch', 'queue'])
            .default('auto'),
        )
        .option('--batch-size <n>', 'items per request (default: the route maximum, 50 or 200)', wholeNumber(1))
        .option('--schema <file>', "the store's names for the item fields (JSON); default: the stock.schema setting")
        .option(...allowZeroPrice),
    )
    .action((file: string, _flags: unknown, command: Command) => {
      const flags = command.opts<PushFlags>();
      return dispatch<StockPushOptions>(command, async () => (await import('./push.js')).run, {
        file,
        route: flags.route,
        batchSize: flags.batchSize,
        schema: flags.schema,
        allowZeroPrice: flags.allowZeroPrice,
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
