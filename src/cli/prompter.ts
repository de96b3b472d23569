import { input, password } from '@inquirer/prompts';
import type { IOStreams, Prompter } from '../context.js';

/** Prompts on stderr, so stdout stays clean for data even during a login. */
export function inquirerPrompter(io: IOStreams): Prompter {
  const context = { input: io.stdin, output: io.stderr };
  return {
    input: (message, defaultValue) => input({ message, default: defaultValue, required: true }, context),
    password: (message) => password({ message, mask: '*', validate: (value) => value.length > 0 || 'The password cannot be empty' }, context),
  };
}
