import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { ManPagesOptions } from './man.js';

/** `b2bctl docs man FOLDER`: the man pages, written from the command tree the binary holds. */
export function register(program: Command, dispatch: Dispatch): void {
  const docs = program.command('docs').description("write b2bctl's reference pages from the commands it holds");
  docs
    .command('man')
    .description(
      'write a man page per command into FOLDER/man1 (the single-file b2bctl carries no pages of its own; read them with MANPATH=FOLDER man b2bctl-stock-push)',
    )
    .argument('<folder>', 'where to write; man1/ is made inside it')
    .action((folder: string, _flags: unknown, command: Command) =>
      dispatch<ManPagesOptions>(command, async () => (await import('./man.js')).run, { folder }),
    );
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  docs: ['b2bctl docs man ~/.local/share/man'],
  'docs man': ['b2bctl docs man ~/.local/share/man', 'b2bctl docs man /usr/local/share/man'],
};
