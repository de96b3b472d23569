import type { Command } from 'commander';
import type { Dispatch } from '../../src/command-kit/command-group.js';
import { buildProgram } from '../../src/cli/program.js';

const rootArgv = ['node', 'b2bctl'];

/** A command's words under the root: `stock push`, or '' for the root. */
export function pathOf(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current?.parent; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/**
 * The b2bctl command of an example line, split as sh would: quotes removed, the pipeline segment that runs b2bctl
 * (`printf ... | b2bctl login ...`), its leading VAR=value words dropped, cut at a redirection.
 */
export function shellWords(line: string): string[] {
  const segments: string[][] = [[]];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  let redirected = false;
  const endWord = () => {
    if (inWord && !redirected) segments.at(-1)?.push(word);
    word = '';
    inWord = false;
  };
  for (const character of line) {
    if (quote) {
      if (character === quote) quote = undefined;
      else word += character;
    } else if (character === "'" || character === '"') {
      quote = character;
      inWord = true;
    } else if (character === ' ') {
      endWord();
    } else if (character === '|') {
      endWord();
      segments.push([]);
      redirected = false;
    } else if (character === '<' || character === '>') {
      endWord();
      redirected = true;
    } else {
      word += character;
      inWord = true;
    }
  }
  endWord();
  const command = segments
    .map((words) => words.slice(words.findIndex((candidate) => !/^[A-Z_][A-Z0-9_]*=/.test(candidate))))
    .find((words) => words[0] === 'b2bctl');
  return command ?? segments[0] ?? [];
}

/** The command an example line reaches, parsed by a fresh program whose dispatch only records. */
export async function commandReachedBy(words: readonly string[]): Promise<string> {
  let reached = 'nothing was dispatched';
  const dispatch: Dispatch = async (command) => {
    reached = pathOf(command);
  };
  const argv = [...rootArgv, ...words];
  const program = await buildProgram(dispatch, argv);
  const quiet = (command: Command): void => {
    command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    command.commands.forEach(quiet);
  };
  quiet(program);
  await program.parseAsync(argv);
  return reached;
}
