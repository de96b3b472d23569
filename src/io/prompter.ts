import { input, password, select } from '@inquirer/prompts';
import type { IOStreams, Prompter } from './streams.js';
import { InterruptedError, SignalledError } from '../base/errors.js';
import { restoreTerminal } from './output/restore-terminal.js';

/**
 * Prompts on stderr, so stdout stays clean for data even during a login. `interrupt` is the run's SIGINT/SIGTERM:
 * a prompt waits for a person, so a signal ends it at once (there is nothing to finish).
 */
export function inquirerPrompter(io: IOStreams, interrupt?: AbortSignal): Prompter {
  const context = { input: io.stdin, output: io.stderr, signal: interrupt };
  const ask = (answer: Promise<string>) => suspendable(io, () => interruptible(answer, interrupt));
  return {
    input: (message, defaultValue) => ask(input({ message, default: defaultValue, required: true }, context)),
    // No ctrl+t to show the password as typed (as sudo, ssh and gh have none): its tip under the question was left
    // on the screen when Ctrl-C ended the prompt, above the line that says so. Nothing of the password is drawn, not
    // even a * per character (as sudo and ssh): a mask redrawn as it grew, once taller than the window, could no
    // longer erase the rows scrolled off, and a long pasted password filled the scrollback with copies of the line.
    password: (message) =>
      ask(
        password(
          {
            message,
            mask: false,
            toggleMask: false,
            theme: { style: { maskedText: hiddenAnswerNote } },
            validate: (value) => value.length > 0 || 'The password cannot be empty',
          },
          context,
        ),
      ),
    select: (message, choices) => ask(select({ message, choices: [...choices], pageSize: 12 }, context)),
  };
}

/** Beside the password question while it is typed: that the keys are read though nothing shows. */
const hiddenAnswerNote = '(not shown as you type)';

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
 * and paused again when the question ends, as readline would have (it believes it paused the input already). The
 * cursor, which a prompt may hide, is shown before readline stops the process, so the shell gets it back.
 */
async function suspendable(io: IOStreams, ask: () => Promise<string>): Promise<string> {
  let resumed = false;
  const resume = () =>
    setImmediate(() => {
      resumed = true;
      io.stdin.resume();
    });
  const giveTerminalBack = (_: unknown, key?: { ctrl?: boolean; name?: string }) => {
    if (key?.ctrl === true && key.name === 'z') io.stderr.write(restoreTerminal);
  };
  process.on('SIGCONT', resume);
  // Before readline's own listener, which stops the process.
  io.stdin.prependListener('keypress', giveTerminalBack);
  try {
    return await ask();
  } finally {
    process.off('SIGCONT', resume);
    io.stdin.off('keypress', giveTerminalBack);
    if (resumed) io.stdin.pause();
  }
}
