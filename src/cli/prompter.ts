import { input, password } from '@inquirer/prompts';
import type { IOStreams, Prompter } from '../context.js';
import { InterruptedError } from '../errors.js';

/** Prompts on stderr, so stdout stays clean for data even during a login. */
export function inquirerPrompter(io: IOStreams): Prompter {
  const context = { input: io.stdin, output: io.stderr };
  return {
    input: (message, defaultValue) => interruptible(input({ message, default: defaultValue, required: true }, context)),
    password: (message) =>
      interruptible(
        password(
          { message, mask: '*', validate: (value) => value.length > 0 || 'The password cannot be empty' },
          context,
        ),
      ),
  };
}

/** Ctrl-C at a prompt is an interruption (exit 75), not a failure. */
async function interruptible(answer: Promise<string>): Promise<string> {
  try {
    return await answer;
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError')
      throw new InterruptedError('Interrupted at the prompt; nothing was changed.');
    throw error;
  }
}
