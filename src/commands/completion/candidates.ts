import type { Command, Option } from 'commander';
import { collapsedOneLine } from '../../lib/one-line.js';

/** What completes the word under the cursor, read from the live command tree. */
export interface CompletionQuery {
  /** The root `b2bctl` command, with the groups the words name registered. */
  root: Command;
  /** The words after `b2bctl`, the last one being the word under the cursor (possibly empty). */
  words: readonly string[];
  /** Profile names, read only when the word is the value of --profile. */
  profileNames(): string[];
  /** The platform's route paths, for the PATH of `b2bctl api`. */
  routePaths?(): string[];
  /** The setting keys the KEY of `config VERB` takes (`get`, `set`, `unset`), each with what it is; else undefined. */
  settingKeys?(verb: string): DescribedCandidate[] | undefined;
}

/** Values of options whose parser accepts more spellings than it lists (`-X put`). */
const listedValues: Record<string, readonly string[]> = {
  '--method': ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'],
};

/** Commands a user never types: not offered. */
const hiddenCommands = new Set(['__complete']);

/**
 * The candidates for the word under the cursor: subcommands, then options of the command reached so far (its own
 * and the global ones), or an option's values (its choices; profile names for --profile). An empty list leaves the
 * shell to complete file names (a FILE argument).
 */
export function completionCandidates(query: CompletionQuery): string[] {
  return describedCandidates(query).map((candidate) => candidate.value);
}

/** A candidate and the line that says what it is (a command's summary, a flag's help; empty for a value). */
export interface DescribedCandidate {
  value: string;
  description: string;
}

/** completionCandidates, each with its description, for the shells that show one (zsh, fish). */
export function describedCandidates(query: CompletionQuery): DescribedCandidate[] {
  const current = query.words.at(-1) ?? '';
  const typed = query.words.slice(0, -1);
  let command = query.root;
  let pendingValue: Option | undefined;
  let positionals = 0;
  for (const word of typed) {
    if (pendingValue) {
      pendingValue = undefined;
      continue;
    }
    if (word.startsWith('-')) {
      const option = findOption(command, word.split('=')[0] as string);
      if (option && (option.required || option.optional) && !word.includes('=')) pendingValue = option;
      continue;
    }
    const subcommand = command.commands.find((candidate) => candidate.name() === word);
    if (subcommand) command = subcommand;
    else positionals++;
  }
  const matching = (candidates: readonly DescribedCandidate[]) =>
    candidates.filter((candidate) => candidate.value.startsWith(current));
  if (pendingValue) return matching(plain(valuesOf(pendingValue, query)));
  if (current.startsWith('--') && current.includes('=')) {
    const [flag = '', partial = ''] = current.split('=', 2);
    const option = findOption(command, flag);
    return option
      ? plain(
          valuesOf(option, query)
            .filter((value) => value.startsWith(partial))
            .map((value) => `${flag}=${value}`),
        )
      : [];
  }
  if (current.startsWith('-')) return matching(describedOptions(command));
  if (command.name() === 'api' && positionals === 0) return matching(plain(query.routePaths?.() ?? []));
  // The KEY of config get|set|unset: some 80 dotted keys that error lines tell users to set (paths.token, …).
  const keys =
    command.parent?.name() === 'config' && positionals === 0 ? query.settingKeys?.(command.name()) : undefined;
  if (keys !== undefined)
    return matching(keys.map((key) => ({ value: key.value, description: shortDescription(key.description) })));
  // A positional of fixed words (`webhook dead list|retry|drop`, `completion bash|zsh|fish`): those words.
  const argumentChoices = command.registeredArguments[positionals]?.argChoices;
  if (command.commands.length === 0 && argumentChoices !== undefined) return matching(plain(argumentChoices));
  return matching(
    command.commands
      .filter((subcommand) => !hiddenCommands.has(subcommand.name()))
      .map((subcommand) => ({
        value: subcommand.name(),
        description: shortDescription(subcommand.summary() || subcommand.description()),
      })),
  );
}

/** Values, which need no description. */
function plain(values: readonly string[]): DescribedCandidate[] {
  return values.map((value) => ({ value, description: '' }));
}

/** A description as a shell shows it beside a candidate: one line, at most 70 characters. */
function shortDescription(text: string): string {
  const line = collapsedOneLine(text);
  return line.length > 70 ? `${line.slice(0, 69)}…` : line;
}

function valuesOf(option: Option, query: CompletionQuery): readonly string[] {
  if (option.long === '--profile') return query.profileNames();
  return option.argChoices ?? listedValues[option.long ?? ''] ?? [];
}

/** The options a command accepts: its own, then its ancestors' (the global options live on the root). */
function optionsInScope(command: Command): Option[] {
  const options: Option[] = [];
  for (let current: Command | null = command; current; current = current.parent) options.push(...current.options);
  return options;
}

function findOption(command: Command, flag: string): Option | undefined {
  return optionsInScope(command).find((option) => option.long === flag || option.short === flag);
}

function describedOptions(command: Command): DescribedCandidate[] {
  const seen = new Set<string>();
  const options: DescribedCandidate[] = [];
  for (const option of optionsInScope(command)) {
    const name = option.long ?? option.short ?? '';
    if (option.hidden || name === '' || seen.has(name)) continue;
    seen.add(name);
    options.push({ value: name, description: shortDescription(option.description) });
  }
  if (!seen.has('--help')) options.push({ value: '--help', description: 'display help for command' });
  return options;
}
