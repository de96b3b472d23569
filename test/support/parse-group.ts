import { Command } from 'commander';
import type { CommandGroupModule, Dispatch } from '../../src/command-kit/command-group.js';

/**
 * Parses argv with one command group alone and returns the options its cli.ts hands to `dispatch`;
 * the spy never loads or runs the verb. A usage error rejects with commander's error.
 */
export async function parseWithGroup(register: CommandGroupModule['register'], argv: string[]): Promise<unknown> {
  let handed: unknown = 'dispatch was not called';
  const program = new Command('b2bctl');
  const dispatch: Dispatch = async (_command, _load, options) => {
    handed = options;
  };
  register(program, dispatch);
  const quiet = (command: Command): void => {
    command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    command.commands.forEach(quiet);
  };
  quiet(program);
  await program.parseAsync(['node', 'b2bctl', ...argv]);
  return handed;
}

/** What an input-reading verb hands on when no reading flag is given. */
export const defaultInputFlags = {
  map: undefined,
  delimiter: undefined,
  encoding: undefined,
  decimal: undefined,
  strict: false,
};

/** What a sending verb hands on when no sending flag is given. */
export const defaultSendFlags = {
  concurrency: undefined,
  rate: undefined,
  retries: undefined,
  timeoutMs: undefined,
  report: undefined,
  errors: undefined,
  resume: undefined,
  keepReports: undefined,
  skipInvalid: false,
  dryRun: false,
};

/** The help text one command group prints for argv (ending in --help), the text added after it included. */
export async function helpWithGroup(register: CommandGroupModule['register'], argv: string[]): Promise<string> {
  const program = new Command('b2bctl');
  register(program, async () => {});
  let help = '';
  const capture = (command: Command): void => {
    command.exitOverride().configureOutput({ writeOut: (text) => (help += text), writeErr: () => {} });
    command.commands.forEach(capture);
  };
  capture(program);
  try {
    await program.parseAsync(['node', 'b2bctl', ...argv]);
  } catch (error) {
    if ((error as { code?: string }).code === 'commander.helpDisplayed') return help;
    throw error;
  }
  throw new Error(`${argv.join(' ')} printed no help`);
}
