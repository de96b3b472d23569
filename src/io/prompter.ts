import { input, password, select } from '@inquirer/prompts';
import type { IOStreams, Prompter } from './streams.js';
import { InterruptedError, SignalledError } from '../base/errors.js';

/**
 * Prompts on stderr, so stdout stays clean for data even during a login. `interrupt` is the run's SIGINT/SIGTERM:
 * a prompt waits for a person, so a signal ends it at once (there is nothing to finish).
 */
export function inquirerPrompter(io: IOStreams, interrupt?: AbortSignal): Prompter {
  const context = { input: io.stdin, output: io.stderr, signal: interrupt };
  const ask = (answer: Promise<string>) => resumedAfterSuspend(io.stdin, () => interruptible(answer, interrupt));
  return {
    input: (message, defaultValue) => ask(input({ message, default: defaultValue, required: true }, context)),
    // No ctrl+t to show the password as typed (as sudo, ssh and gh have none): its tip under the question was left
    // on the screen when Ctrl-C ended the prompt, above the line that says so.
    password: (message) =>
      ask(
        password(
          {
            message,
            mask: '*',
            toggleMask: false,
            validate: (value) => value.length > 0 || 'The password cannot be empty',
          },
          context,
        ),
      ),
    select: (message, choices) => ask(select({ message, choices: [...choices], pageSize: 12 }, context)),
  };
}

/**
 * Ctrl-C at a prompt ends the run as SIGINT does (exit 130): the terminal is in raw mode while a question is asked,
 * so the key reaches the prompt as a key, not as the signal, and the two would otherwise end differently. Ctrl-D
 * is an interruption (exit 75): the prompt's input closes and its answer never comes, so the process would run out
 * of work and exit 0, and `b2bctl login && b2bctl stock push` would go on without a login.
 */
async function interruptible(
  answer: Promise<string> & { cancel?: () => void },
  interrupt: AbortSignal | undefined,
): Promise<string> {
  let closed = false;
  let onIdle: (() => void) | undefined;
  const unanswered = new Promise<never>((_, reject) => {
    onIdle = () => {
      closed = true;
      // Ended as a cancelled prompt, which closes its line on the terminal: the error then starts a line of its own
      // rather than following the question. A prompt that cannot be cancelled is given up on all the same.
      if (answer.cancel) answer.cancel();
      else reject(new Error('unanswered'));
    };
    process.once('beforeExit', onIdle);
  });
  try {
    return await Promise.race([answer, unanswered]);
  } catch (error) {
    if (closed) throw new InterruptedError('No answer at the prompt (its input was closed); nothing was changed.');
    if ((error as Error).name === 'ExitPromptError')
      throw new SignalledError('Ctrl-C at the prompt: stopped; nothing was changed.', 'SIGINT');
    if ((error as Error).name === 'AbortPromptError') {
      const signal = typeof interrupt?.reason === 'string' ? interrupt.reason : 'SIGINT';
      throw new SignalledError(`${signal} at the prompt: stopped; nothing was changed.`, signal);
    }
    throw error;
  } finally {
    if (onIdle) process.removeListener('beforeExit', onIdle);
  }
}

/**
 * Ctrl-Z at a prompt, then `fg`, goes on with the question, what was typed before Ctrl-Z kept. The key reaches
 * node's readline (the terminal is in raw mode), which stops the process itself and, once continued, pauses its
 * input and never resumes it: with nothing left to read the process ran out of work and the prompt ended as if its
 * input had closed (exit 75). The input is resumed once readline has paused it (its handler runs after this one),
 * and paused again when the question ends, as readline would have (it believes it paused the input already).
 */
async function resumedAfterSuspend(stdin: NodeJS.ReadableStream, ask: () => Promise<string>): Promise<string> {
  let resumed = false;
  const resume = () =>
    setImmediate(() => {
      resumed = true;
      stdin.resume();
    });
  process.on('SIGCONT', resume);
  try {
    return await ask();
  } finally {
    process.off('SIGCONT', resume);
    if (resumed) stdin.pause();
  }
}
