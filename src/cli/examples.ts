import type { Command } from 'commander';

/**
 * Adds an `Examples:` section at the end of each named command's help, as gh does: `examples` maps a command's
 * path under `parent` (`customer create`, `login`) to command lines written as a user types them, `b2bctl` first.
 * Each group's cli.ts declares its own; a test parses every one of them against the real command tree.
 */
export function addExamples(parent: Command, examples: Readonly<Record<string, readonly string[]>>): void {
  for (const [path, lines] of Object.entries(examples)) {
    let command: Command | undefined = parent;
    for (const name of path.split(' ')) command = command?.commands.find((candidate) => candidate.name() === name);
    // A typo here would silently drop the section: fail loudly at registration (every test run builds the tree).
    if (!command) throw new Error(`addExamples: no command "${path}" under "${parent.name()}"`);
    command.addHelpText('after', `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`);
  }
}
