/**
 * Every leaf command's help ends with an Examples section (issue 9), and every example parses against the real
 * command tree to that very command; no help text mentions a command that does not exist.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/program.js';
import { commandReachedBy, pathOf, shellWords } from '../../support/command-words.js';

const rootArgv = ['node', 'b2bctl'];

/** The subcommands a user is shown (the hidden __complete of the completion scripts is not one). */
function shown(command: Command): Command[] {
  return command
    .createHelp()
    .visibleCommands(command)
    .filter((subcommand) => command.commands.includes(subcommand));
}

function leaves(command: Command): Command[] {
  return command.commands.length === 0 ? [command] : shown(command).flatMap(leaves);
}

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

/** The help a user sees, `after` texts included (commander prints those through the output writer). */
function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (chunk) => (text += chunk), writeErr: (chunk) => (text += chunk) });
  command.outputHelp();
  return text;
}

const program = await buildProgram(async () => {}, rootArgv);
const leafCommands = leaves(program);
/** The root, every group and every leaf a user is shown: all of them end with Examples. */
const shownCommands = [
  program,
  ...shown(program).flatMap((command) => [command, ...leaves(command).filter((leaf) => leaf !== command)]),
];

describe('help examples', () => {
  it('walks the whole tree (the walker is not blind)', () => {
    expect(leafCommands.map(pathOf)).toEqual(
      expect.arrayContaining(['login', 'customer create', 'stock push', 'webhook replay']),
    );
    expect(leafCommands.length).toBeGreaterThanOrEqual(20);
  });

  it.each(shownCommands.map((command) => [pathOf(command) || '(root)', command] as const))(
    '%s: has Examples, each parsing to it (or, for a group, to a command under it)',
    async (path, command) => {
      const help = helpOf(command);
      const section = help.split('\nExamples:\n')[1];
      expect(help).toContain('\nExamples:\n');
      const examples = (section ?? '')
        .split('\n')
        .filter((line) => line.startsWith('  $ '))
        .map((line) => line.slice(4));
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        const words = shellWords(example);
        expect({ example, first: words[0] }).toEqual({ example, first: 'b2bctl' });
        // A group's or the root's examples reach one of the commands under it.
        const reached = await commandReachedBy(words.slice(1));
        const under = path === '(root)' || reached === path || reached.startsWith(`${path} `);
        expect({ example, reached, under }).toEqual({ example, reached, under: true });
      }
    },
  );

  it('shellWords splits as sh would', () => {
    expect(shellWords(`A=1 b2bctl x --d ";" 'a b' | jq .`)).toEqual(['b2bctl', 'x', '--d', ';', 'a b']);
    expect(shellWords(`printf '%s\\n' "$P" | b2bctl login --password-stdin`)).toEqual([
      'b2bctl',
      'login',
      '--password-stdin',
    ]);
    expect(shellWords('b2bctl login --token-stdin < token.txt')).toEqual(['b2bctl', 'login', '--token-stdin']);
    expect(shellWords("b2bctl config set outputDir ''")).toEqual(['b2bctl', 'config', 'set', 'outputDir', '']);
  });
});

describe('help texts', () => {
  it('mention only commands that exist', () => {
    const known = new Set(everyCommand(program).map(pathOf));
    const mentions = everyCommand(program).flatMap((command) =>
      [...helpOf(command).matchAll(/(?:[Rr]un |\$ |`)b2bctl ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/g)].map((match) => {
        const [, first = '', second] = match;
        const group = program.commands.find((candidate) => candidate.name() === first);
        const path = group && group.commands.length > 0 && second !== undefined ? `${first} ${second}` : first;
        return { in: pathOf(command) || 'b2bctl', path };
      }),
    );
    expect(mentions.length).toBeGreaterThan(20);
    expect(mentions.filter((mention) => !known.has(mention.path))).toEqual([]);
  });
});
