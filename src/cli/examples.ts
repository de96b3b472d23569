import type { Command } from 'commander';
import type { CommandExamples } from '../command-kit/command-group.js';

/**
 * Adds an `Examples:` section at the end of each named command's help, as gh does. Each group's cli.ts declares
 * its own as data, so this module is bundled with the root and a command's help loads no chunk more for it.
 */
export function addExamples(parent: Command, examples: CommandExamples): void {
  for (const [path, lines] of Object.entries(examples)) {
    let command: Command | undefined = parent;
    for (const name of path.split(' ')) command = command?.commands.find((candidate) => candidate.name() === name);
    // A typo here would silently drop the section: fail loudly at registration (every test run builds the tree).
    if (!command) throw new Error(`addExamples: no command "${path}" under "${parent.name()}"`);
    command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
  }
}
