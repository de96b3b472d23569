import { type Command, CommanderError, type Help, type Option } from 'commander';
import { buildProgram, endParsesWithErrors } from '../program.js';

/** One flag as the reference shows it. */
export interface FlagEntry {
  flags: string;
  description: string;
  choices: readonly string[];
  defaultValue: string | undefined;
}

/** One command of the tree, read from commander: what its --help says, in parts a page can lay out. */
export interface CommandEntry {
  /** The words after b2bctl: [] for the root, ['stock', 'push']. */
  path: readonly string[];
  summary: string;
  description: string;
  usage: string;
  arguments: { term: string; description: string }[];
  options: FlagEntry[];
  globalOptions: FlagEntry[];
  subcommands: { name: string; summary: string }[];
  /** Text a command adds after its help (field lists, settings), without the examples. */
  notes: string;
  /** Command lines as a user types them, `b2bctl` first. */
  examples: string[];
  /** The whole of `--help` at 80 columns, as a terminal without colour shows it. */
  help: string;
}

/** Help is laid out for 80 columns without colour, whatever terminal the generator runs in. */
const helpWidth = 80;

/**
 * Every visible command of the tree (the root first, then depth first in help order), each read from a program
 * built for its own command line, so lazily filled help text (the settings `config set` lists) is there too.
 */
export async function readCommandTree(): Promise<CommandEntry[]> {
  const entries: CommandEntry[] = [];
  const visit = async (path: readonly string[]): Promise<void> => {
    const entry = await readCommand(path);
    entries.push(entry);
    for (const subcommand of entry.subcommands) await visit([...path, subcommand.name]);
  };
  await visit([]);
  return entries;
}

async function readCommand(path: readonly string[]): Promise<CommandEntry> {
  const argv = ['node', 'b2bctl', ...path];
  const program = await buildProgram(async () => {}, argv);
  let help = '';
  endParsesWithErrors(program, { out: (text) => (help += text), err: () => {} });
  configureWidth(program);
  try {
    await program.parseAsync([...argv, '--help']);
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
  }
  const command = commandAt(program, path);
  const helper = command.createHelp();
  helper.prepareContext({ helpWidth, outputHasColors: false });
  const own = helper.formatHelp(command, helper);
  const after = help.startsWith(own) ? help.slice(own.length) : '';
  const [notes, examples] = splitExamples(after);
  return {
    path,
    summary: command.summary() || firstLine(command.description()),
    description: command.description(),
    usage: ['b2bctl', ...path, command.usage()].join(' '),
    arguments: helper.visibleArguments(command).map((argument) => ({
      term: helper.argumentTerm(argument),
      description: argument.description,
    })),
    // Every command takes -h, --help; the pages say so once, in the index.
    options: helper
      .visibleOptions(command)
      .filter((option) => option.long !== '--help')
      .map((option) => flagEntry(helper, option)),
    globalOptions:
      path.length === 0 ? [] : helper.visibleGlobalOptions(command).map((option) => flagEntry(helper, option)),
    subcommands: helper
      .visibleCommands(command)
      .filter((subcommand) => subcommand.name() !== 'help')
      .map((subcommand) => ({
        name: subcommand.name(),
        summary: subcommand.summary() || firstLine(subcommand.description()),
      })),
    notes,
    examples,
    help,
  };
}

function configureWidth(command: Command): void {
  command.configureOutput({ getOutHelpWidth: () => helpWidth, getOutHasColors: () => false });
  for (const subcommand of command.commands) configureWidth(subcommand);
}

function commandAt(program: Command, path: readonly string[]): Command {
  let command = program;
  for (const name of path) {
    const next = command.commands.find((candidate) => candidate.name() === name);
    if (!next) throw new Error(`no command "${path.join(' ')}" in the tree`);
    command = next;
  }
  return command;
}

function flagEntry(helper: Help, option: Option): FlagEntry {
  const value: unknown = option.defaultValue;
  const shown =
    option.defaultValueDescription ??
    (value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value));
  // A negated flag (--no-color) has `true` as its default, which says nothing to a reader.
  const defaultValue = option.negate || option.defaultValue === false || shown === '[]' ? undefined : shown;
  return {
    flags: helper.optionTerm(option),
    description: option.description,
    choices: option.argChoices ?? [],
    defaultValue,
  };
}

/** The text after the options, split into the notes and the `$ b2bctl …` lines of its Examples section. */
function splitExamples(after: string): [string, string[]] {
  const marker = after.lastIndexOf('\nExamples:\n');
  if (marker < 0) return [after.trim(), []];
  const lines = after.slice(marker + '\nExamples:\n'.length).split('\n');
  const examples = lines.filter((line) => line.startsWith('  $ ')).map((line) => line.slice('  $ '.length));
  return [after.slice(0, marker).trim(), examples];
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
