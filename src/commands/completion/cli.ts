import { Argument, type Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { CompleteOptions, CompletionScriptOptions } from './run.js';
import { type CompletionShell, completionShells } from './scripts.js';

/** `b2bctl completion bash|zsh|fish`, and the hidden `__complete` its scripts call at each TAB. */
export function register(program: Command, dispatch: Dispatch): void {
  program
    .command('completion')
    .summary('print the shell completion script for bash, zsh or fish')
    .description(
      'Prints the completion script of one shell on stdout, to save where that shell loads completions (bash: ~/.local/share/bash-completion/completions/b2bctl). The script asks b2bctl itself for the words it offers, so the commands, the flags (with their descriptions in zsh and fish), their values and the profile names stay in step with the installed version.',
    )
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(completionShells))
    .action((shell: CompletionShell, _flags: unknown, command: Command) =>
      dispatch<CompletionScriptOptions>(command, async () => (await import('./run.js')).runScript, { shell }),
    );

  program
    .command('__complete', { hidden: true })
    .description('candidates for the word under the cursor, one per line (called by the completion scripts)')
    .argument('[words...]', 'the words after b2bctl, the last one under the cursor')
    .option('--descriptions', 'each candidate followed by a tab and what it is (zsh and fish show it)')
    .action((words: string[], flags: { descriptions?: true }, command: Command) =>
      dispatch<CompleteOptions>(command, async () => (await import('./run.js')).runComplete, {
        root: program,
        words,
        descriptions: flags.descriptions === true,
      }),
    );
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  completion: [
    'b2bctl completion bash > /etc/bash_completion.d/b2bctl',
    'b2bctl completion zsh > "${fpath[1]}/_b2bctl"',
    'b2bctl completion fish > ~/.config/fish/completions/b2bctl.fish',
  ],
};
