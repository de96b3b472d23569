import { openCommandInput } from '../../bulk/command-input.js';
import type { InputFlags } from '../../bulk/flags.js';
import { problemOutput } from '../../bulk/problem-output.js';
import { runValidationPass } from '../../bulk/validation-pass.js';
import type { Context } from '../../context.js';
import { customerAdvisories } from '../../domain/customer.js';
import { InputError } from '../../errors.js';
import { skippedNote } from '../../io/input/open-input.js';
import { customerCatalogue, newCustomerChecker, type CustomerMode } from './customer-input.js';

export interface CustomerValidateOptions extends InputFlags {
  file: string;
  /** Check the file as `customer update` input (every field optional but the document). */
  mode: CustomerMode;
}

/** Checks every customer record locally, printing every problem; sends nothing. */
export async function run(options: CustomerValidateOptions, context: Context): Promise<void> {
  const input = await openCommandInput(context, options.file, options, customerCatalogue(options.mode));
  const output = problemOutput(context, input.file);
  const checker = newCustomerChecker(options.mode);
  const started = context.clock.now();
  let warnings = 0;
  const summary = await runValidationPass({
    input: {
      ...input,
      records: (async function* () {
        for await (const record of input.records) {
          // Values the platform accepts but that look wrong are warnings, not errors.
          for (const advisory of customerAdvisories(record.values)) {
            warnings++;
            context.log.warn(`warning: ${input.file}:${record.line}: ${advisory.message}`);
          }
          yield record;
        }
      })(),
    },
    checker,
    onProblem: output.write,
    signal: context.interrupt,
  });
  await output.end();
  const seconds = (context.clock.now() - started) / 1000;
  context.log.info(
    `${input.file}: ${summary.records} records, ${summary.valid} valid, ${summary.invalid} invalid (${summary.problems} problems${warnings ? `, ${warnings} warnings` : ''}${skippedNote(input)}) in ${seconds.toFixed(1)} s.`,
  );
  // An empty file has no header either (the reader then gives no CSV headers): say which it is.
  if (summary.records === 0)
    throw new InputError(`${input.file} ${input.csv ? 'has a header but no records' : 'has no records'}.`, {
      file: input.file,
    });
  if (summary.invalid > 0)
    throw new InputError(
      `${summary.invalid} of ${summary.records} records of ${input.file} are invalid; nothing was sent.`,
      { file: input.file },
    );
}
