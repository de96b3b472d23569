import type { CommandEntry, FlagEntry } from './command-tree.js';

/** The file name of a command's page and man page, without extension: `b2bctl-stock-push`. */
export function pageName(entry: Pick<CommandEntry, 'path'>): string {
  return ['b2bctl', ...entry.path].join('-');
}

const code = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/** Markdown text outside code: characters that would start formatting are escaped. */
const plain = (text: string): string => text.replace(/([\\`*_<>[\]|])/g, '\\$1');

function flagLine(flag: FlagEntry): string {
  const facts = [
    flag.choices.length > 0 ? `one of ${flag.choices.map(code).join(', ')}` : '',
    flag.defaultValue === undefined ? '' : `default ${code(flag.defaultValue)}`,
  ].filter((fact) => fact !== '');
  return `- ${code(flag.flags)}: ${plain(flag.description)}${facts.length > 0 ? ` (${facts.join('; ')})` : ''}`;
}

function section(title: string, lines: string[]): string[] {
  return lines.length === 0 ? [] : [`## ${title}`, '', ...lines, ''];
}

/** One command's page of docs/commands/: usage, arguments, flags with choices and defaults, examples, links. */
export function commandPage(entry: CommandEntry): string {
  const title = ['b2bctl', ...entry.path].join(' ');
  const parent = entry.path.length === 0 ? undefined : { path: entry.path.slice(0, -1) };
  const lines = [
    '<!-- Generated from the command tree by `npm run docs:gen`; edit the command, not this page. -->',
    '',
    `# ${title}`,
    '',
    plain(entry.description),
    '',
    '```',
    entry.usage,
    '```',
    '',
    ...section(
      'Commands',
      entry.subcommands.map(
        (subcommand) =>
          `- [${title} ${subcommand.name}](${pageName({ path: [...entry.path, subcommand.name] })}.md): ${plain(subcommand.summary)}`,
      ),
    ),
    ...section(
      'Arguments',
      entry.arguments.map((argument) => `- ${code(argument.term)}: ${plain(argument.description)}`),
    ),
    ...section('Options', entry.options.map(flagLine)),
    ...section('Global options', entry.globalOptions.map(flagLine)),
    ...section('Notes', entry.notes === '' ? [] : ['```text', entry.notes, '```']),
    ...section('Examples', entry.examples.length === 0 ? [] : ['```sh', ...entry.examples, '```']),
    ...section('See also', [
      ...(parent ? [`- [${['b2bctl', ...parent.path].join(' ')}](${pageName(parent)}.md)`] : []),
      `- \`man ./docs/man/${pageName(entry)}.1\``,
      '- [All commands](README.md)',
    ]),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

/** docs/commands/README.md: every command with its one-line summary. */
export function commandIndex(entries: readonly CommandEntry[]): string {
  const lines = [
    '<!-- Generated from the command tree by `npm run docs:gen`; edit the commands, not this page. -->',
    '',
    '# Command reference',
    '',
    'One page per command, generated from the same command tree that prints `--help`. The same pages are man',
    'pages in [../man/](../man/) (`man ./docs/man/b2bctl-stock-push.1`). Every command also takes `-h, --help`.',
    '',
    ...entries.map((entry) => {
      const depth = Math.max(entry.path.length - 1, 0);
      const title = ['b2bctl', ...entry.path].join(' ');
      return `${'  '.repeat(depth)}- [${title}](${pageName(entry)}.md): ${plain(entry.summary)}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
