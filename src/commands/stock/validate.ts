import { openCommandInput } from '../../bulk/command-input.js';
import type { InputFlags } from '../../bulk/flags.js';
import { problemOutput } from '../../bulk/problem-output.js';
import { runValidationPass } from '../../bulk/validation-pass.js';
import type { Context } from '../../context.js';
import { InputError } from '../../errors.js';
import { skippedNote } from '../../io/input/open-input.js';
import { newStockChecker, stockCatalogue } from './stock-input.js';

export interface StockValidateOptions extends InputFlags {
  file: string;
}

/** Checks every row of a stock file locally and prints every problem; sends nothing. */
export async function run(options: StockValidateOptions, context: Context): Promise<void> {
  const input = await openCommandInput(context, options.file, options, stockCatalogue);
  const output = problemOutput(context, input.file);
  const started = context.clock.now();
  const summary = await runValidationPass({
    input,
    checker: newStockChecker(),
    onProblem: output.write,
    signal: context.interrupt,
  });
  await output.end();
  const seconds = (context.clock.now() - started) / 1000;
  context.log.info(
    `${input.file}: ${summary.records} rows, ${summary.valid} valid, ${summary.invalid} invalid (${summary.problems} problems${skippedNote(input)}) in ${seconds.toFixed(1)} s.`,
  );
  if (summary.invalid > 0)
    throw new InputError(
      `${summary.invalid} of ${summary.records} rows of ${input.file} are invalid; nothing was sent.`,
      { file: input.file },
    );
}
