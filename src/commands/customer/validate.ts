import type { InputFlags } from '../../bulk/flags.js';
import { runValidateCommand } from '../../bulk/validate-command.js';
import type { Context } from '../../context.js';
import { customerAdvisories } from '../../domain/customer.js';
import { customerCatalogue, newCustomerChecker, type CustomerMode } from './customer-input.js';

export interface CustomerValidateOptions extends InputFlags {
  file: string;
  /** Check the file as `customer update` input (every field optional but the document). */
  mode: CustomerMode;
}

/** Checks every customer record locally, printing every problem; sends nothing. */
export async function run(options: CustomerValidateOptions, context: Context): Promise<void> {
  await runValidateCommand(
    {
      file: options.file,
      flags: options,
      catalogue: customerCatalogue(options.mode),
      checker: newCustomerChecker(options.mode),
      sentBy: `customer ${options.mode}`,
      advisories: (record) => customerAdvisories(record.values),
      thread: { verb: 'customer validate', options },
    },
    context,
  );
}
