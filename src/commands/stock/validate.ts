import type { InputFlags } from '../../bulk/flags.js';
import { runValidateCommand } from '../../bulk/validate-command.js';
import type { Context } from '../../context.js';
import { newStockChecker, stockCatalogue } from './stock-input.js';

export interface StockValidateOptions extends InputFlags {
  file: string;
  /** `--allow-zero-price`: a price of 0 is meant. */
  allowZeroPrice?: boolean;
}

/** Checks every row of a stock file locally and prints every problem; sends nothing. */
export async function run(options: StockValidateOptions, context: Context): Promise<void> {
  const checker = newStockChecker({ allowZeroPrice: options.allowZeroPrice });
  await runValidateCommand(
    {
      file: options.file,
      flags: options,
      catalogue: stockCatalogue,
      checker,
      // SKUs the same but for case or leading zeros, as the checker found them judging the record.
      advisories: () => checker.takeWarnings(),
      sentBy: 'stock push',
      thread: { verb: 'stock validate', options },
    },
    context,
  );
}
