import type { CommandEntry, FlagEntry } from './command-tree.js';
import { environmentEntries, exitStatuses, fileEntries } from './man-sections.js';
import { pageName } from './markdown.js';

/** Text as roff prints it literally: backslashes escaped, hyphens as minus signs, no line read as a request. */
function roff(text: string): string {
  return (
    text
      .replaceAll('\\', '\\e')
      .replaceAll('-', '\\-')
      // Every character past ASCII as its Unicode escape: the page reads alike under any groff, preconv or not.
      .replace(
        /[^ -~\t\n]/gu,
        (character) => `\\[u${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
      )
      .split('\n')
      .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
      .join('\n')
  );
}

function flagItem(flag: FlagEntry): string[] {
  const facts = [
    flag.choices.length > 0 ? `one of: ${flag.choices.join(', ')}` : '',
    flag.defaultValue === undefined ? '' : `default: ${flag.defaultValue}`,
  ].filter((fact) => fact !== '');
  return ['.TP', `.B ${roff(flag.flags)}`, roff(flag.description + (facts.length > 0 ? ` (${facts.join('; ')})` : ''))];
}

function section(title: string, lines: string[]): string[] {
  return lines.length === 0 ? [] : [`.SH ${title}`, ...lines];
}

/** A list of terms, each with its paragraph. */
function termList(entries: readonly (readonly [string, string])[]): string[] {
  return entries.flatMap(([term, text]) => ['.TP', `.B ${roff(term)}`, roff(text)]);
}

/**
 * The command's own paragraph (its commander description, beside the summary of its NAME line), then what its help
 * adds (field lists, settings); a command without a paragraph would show its summary as a sentence.
 */
function description(entry: CommandEntry): string[] {
  const summary = entry.description === '' ? entry.summary : entry.description;
  const sentence = `${summary.charAt(0).toUpperCase()}${summary.slice(1)}${/[.!?]$/.test(summary) ? '' : '.'}`;
  return [roff(sentence), ...(entry.notes === '' ? [] : ['.PP', ...verbatim(entry.notes.split('\n'))])];
}

/** A literal block: lines kept as they are, indented. */
function verbatim(lines: readonly string[]): string[] {
  return ['.RS', '.nf', ...lines.map(roff), '.fi', '.RE'];
}

/** The man page of one command, section 1, generated from the same entry as its Markdown page. */
export function manPage(entry: CommandEntry): string {
  const name = pageName(entry);
  const parent = entry.path.length === 0 ? undefined : pageName({ path: entry.path.slice(0, -1) });
  const seeAlso = [
    ...(parent ? [parent] : []),
    ...entry.subcommands.map((subcommand) => pageName({ path: [...entry.path, subcommand.name] })),
  ];
  const lines = [
    '.\\" Generated from the command tree by `npm run docs:gen`; edit the command, not this page.',
    `.TH ${roff(name.toUpperCase())} 1 "" "b2bctl" "b2bctl manual"`,
    '.SH NAME',
    `${roff(name)} \\- ${roff(entry.summary)}`,
    '.SH SYNOPSIS',
    ...verbatim([entry.usage]),
    '.SH DESCRIPTION',
    ...description(entry),
    ...section(
      'COMMANDS',
      entry.subcommands.flatMap((subcommand) => ['.TP', `.B ${roff(subcommand.name)}`, roff(subcommand.summary)]),
    ),
    ...section(
      'ARGUMENTS',
      entry.arguments.flatMap((argument) => ['.TP', `.B ${roff(argument.term)}`, roff(argument.description)]),
    ),
    ...section('OPTIONS', entry.options.flatMap(flagItem)),
    ...section('GLOBAL OPTIONS', entry.globalOptions.flatMap(flagItem)),
    ...section('EXIT STATUS', termList(exitStatuses)),
    ...section('ENVIRONMENT', termList(environmentEntries())),
    ...section('FILES', termList(fileEntries)),
    ...section('EXAMPLES', entry.examples.length === 0 ? [] : verbatim(entry.examples)),
    ...section(
      'SEE ALSO',
      [seeAlso.map((page) => `.BR ${roff(page)} (1)`).join(',\n')].filter((line) => line !== ''),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
