import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import { wholeNumber } from '../../command-kit/parse.js';
import type { ListSellersOptions } from './list.js';

interface ListFlags {
  email?: string;
  limit?: number;
  offset?: number;
  all?: true;
}

/** `b2bctl sellers list`. */
export function register(program: Command, dispatch: Dispatch): void {
  const sellers = program.command('sellers').description('sales reps of the store');
  sellers
    .command('list')
    .description('list sales reps with their permissions')
    .option('--email <part>', 'only e-mails containing this text (case-insensitive)')
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
