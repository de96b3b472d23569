import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { filterText, wholeNumber } from '../../command-kit/parse.js';
import type { ListSellersOptions } from './list.js';

interface ListFlags {
  email?: string;
  limit?: number;
  offset?: number;
  all?: true;
}

/** `b2bctl sellers list`. */
export function register(program: Command, dispatch: Dispatch): void {
  const sellers = program
    .command('sellers')
    .summary('sales reps of the store')
    .description(
      "The store's sales reps, as the platform lists them: their e-mail, document, ERP code, profile and permissions. sellers list reads them, a page at a time or every page; b2bctl does not create or change sales reps.",
    );
  sellers
    .command('list')
    .summary('list sales reps with their permissions')
    .description(
      "Reads the platform's listing of sales reps (a page, or every page with --all) and prints each with its e-mail, document, code, profile, whether it is restricted, and its permissions as letters explained below the table. --email keeps only the reps whose e-mail contains the text, and on a narrow terminal that column is kept when others are left out. A table on a terminal, JSON when piped; -o csv --excel writes a file a pt-BR Excel opens as is. It reads only, and needs a login.",
    )
    .option('--email <part>', 'only e-mails containing this text (case-insensitive)', filterText)
    .option('--limit <n>', 'sales reps per page (platform default 20; with --all, the page size)', wholeNumber(1))
    .option('--offset <n>', 'sales reps to skip', wholeNumber(0))
    .option('--all', 'every page, until the platform answers []')
    .action((_flags: unknown, command: Command) => {
      const flags = command.opts<ListFlags>();
      return dispatch<ListSellersOptions>(command, async () => (await import('./list.js')).run, {
        email: flags.email,
        limit: flags.limit,
        offset: flags.offset,
        all: flags.all === true,
      });
    });
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  sellers: ['b2bctl sellers list --email silva'],
  'sellers list': [
    'b2bctl sellers list --email silva',
    "b2bctl sellers list --all -o json | jq '.[] | .username'",
    'b2bctl sellers list --limit 50 --offset 100 -o csv > reps.csv',
  ],
};
