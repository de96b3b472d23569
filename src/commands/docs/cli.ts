import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { ManPagesOptions } from './man.js';
import type { WhereOptions } from './where.js';

/** `b2bctl docs`: where the guides and samples are; `b2bctl docs man FOLDER`: the man pages, written from the tree. */
export function register(program: Command, dispatch: Dispatch): void {
  const docs = program
    .command('docs')
    .summary("print where b2bctl's guides and samples are; docs man writes its man pages")
    .description(
      "Alone, prints the folders this b2bctl was installed with, one a line: its guides (the docs/*.md that --help names, with docs/commands, a page per command), the samples the README's examples copy, and the folder to add to MANPATH for its man pages (MANPATH=FOLDER:$MANPATH man b2bctl), where npm install -g linked them. An npm install puts them under the package's folder, which $(npm root -g) does not name under another --prefix. With -o json, one object of the three, null where there is none: a clone has no linked man pages, and the single-file b2bctl carries no guides. docs man writes the man pages from the command tree the running b2bctl holds, so they always match it.",
    )
    // Its action would take any word as an argument (`docs mna`: "too many arguments"): taken here, and refused as
    // commander refuses a mistyped subcommand of a group that has no action of its own, with the nearest offered.
    .allowExcessArguments()
    .action(async (_flags: unknown, command: Command) => {
      const [word] = command.args;
      if (word !== undefined)
        return (await import('../../command-kit/unknown-command.js')).refuseUnknownCommand(command, word);
      return dispatch<WhereOptions>(command, async () => (await import('./where.js')).run, {});
    });
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
  docs: ['b2bctl docs', 'b2bctl docs man ~/.local/share/man'],
  'docs man': ['b2bctl docs man ~/.local/share/man', 'b2bctl docs man /usr/local/share/man'],
};
