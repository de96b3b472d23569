import type { Command } from 'commander';
import { closestName } from '../lib/suggest.js';

/**
 * Refuses `word` as a subcommand of `group` as commander refuses it (exit 2), with the nearest subcommand offered: for
 * `help` and `--help` of a mistyped command, and for a group that runs alone too, whose action commander hands any word.
 * Imported only for this mistake (`await import`): help and every good command line never load it.
 */
export function refuseUnknownCommand(group: Command, word: string): never {
  const near = closestName(
    word,
    group.commands.map((sub) => sub.name()),
  );
  return group.error(`error: unknown command '${word}'${near === undefined ? '' : ` (did you mean ${near}?)`}`, {
    exitCode: 2,
    code: 'commander.unknownCommand',
  });
}
