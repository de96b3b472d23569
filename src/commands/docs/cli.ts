import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { ManPagesOptions } from './man.js';

/** `b2bctl docs man FOLDER`: the man pages, written from the command tree the binary holds. */
export function register(program: Command, dispatch: Dispatch): void {
  const docs = program
    .command('docs')
    .summary("write b2bctl's reference pages from the commands it holds")
    .description(
      'Writes reference pages from the command tree the running b2bctl holds, so they always match it: docs man writes the man pages. The same pages are in docs/man and docs/commands of the source, and installed by npm.',
    );
  docs
    .command('man')
    .summary(
      'write a man page per command into FOLDER/man1 (the single-file b2bctl carries no pages of its own; read them with MANPATH=FOLDER man b2bctl-stock-push)',
    )
    .description(
      "Writes the man pages of this b2bctl, one per command (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES, SEE ALSO, generated from its commands), into the folder's man1/, made if missing. The single-file b2bctl has no pages installed: write them under ~/.local/share/man, where man finds them, or any folder read with MANPATH=FOLDER. Pages an older b2bctl wrote there are replaced, never through a symbolic link; a man1/ that another user made or linked, or that others may write, is refused (exit 77).",
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
