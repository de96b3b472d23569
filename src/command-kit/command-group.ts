import type { Command } from 'commander';
import type { Context } from '../context.js';

/**
 * The contract between the global wiring in `src/cli/` and each command group's `src/commands/<group>/cli.ts`.
 * A group module declares its own subcommands, flags and help, turns parsed flags into its verb's typed options
 * (checking flag combinations there), and hands them to `dispatch` with a lazy import of the verb module, so
 * start-up pays only for the command in use.
 */

/** A verb's entry point, loaded only when that verb runs. */
export type CommandRunner<T> = (options: T, context: Context) => Promise<void>;

/**
 * Runs a verb: builds the context from the global options of `command` (the commander command whose action
 * fired), imports the verb lazily through `load`, and calls it with `options`.
 */
export type Dispatch = <T>(command: Command, load: () => Promise<CommandRunner<T>>, options: T) => Promise<void>;

/**
 * Command lines shown under `Examples:` at the end of a command's help, as a user types them (`b2bctl` first), by
 * the command's path under the root (`customer create`, `login`).
 */
export type CommandExamples = Readonly<Record<string, readonly string[]>>;

/** What every `src/commands/<group>/cli.ts` exports. */
export interface CommandGroupModule {
  /** Adds the group's command(s) to the root program. */
  register(program: Command, dispatch: Dispatch): void;
  /** Its commands' examples: data, added to their help by `src/cli/` (a test parses each against the tree). */
  readonly examples: CommandExamples;
}
