import type { CommandEntry, FlagEntry } from './command-tree.js';
import { pageName } from './markdown.js';

/** Text as roff prints it literally: backslashes escaped, hyphens as minus signs, no line read as a request. */
function roff(text: string): string {
  return text
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
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
    roff(entry.description),
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
    ...section('NOTES', entry.notes === '' ? [] : verbatim(entry.notes.split('\n'))),
    ...section('EXAMPLES', entry.examples.length === 0 ? [] : verbatim(entry.examples)),
    ...section(
      'SEE ALSO',
      [seeAlso.map((page) => `.BR ${roff(page)} (1)`).join(',\n')].filter((line) => line !== ''),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
