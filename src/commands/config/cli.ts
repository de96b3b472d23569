import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { SettingDefinition } from '../../config/setting-definition.js';
import type { ConfigGetOptions, ConfigListOptions, ConfigSetOptions } from './index.js';

/** `b2bctl config get|set|unset|list`. */
export function register(program: Command, dispatch: Dispatch): void {
  const config = program
    .command('config')
    .summary('read and change profile settings (b2bctl config list shows them all)')
    .description(
      "Reads and changes the settings of a profile: the base URL, the HTTP retries and timeouts, the answer shapes and routes of a store that differs from the platform's document, and the rest of the typed settings table (docs/settings.md). A setting resolves flag, then environment variable, then profile, then default; config list shows each with its source. Settings are kept in config.json of the config folder (0600), one object per profile.",
    );
  // The keys `config set --help` lists come from the settings table, imported only on the way to `config set`
  // (commander awaits this hook before the subcommand parses, --help included): other help stays as light.
  let keysHelp = '';
  config.hook('preSubcommand', async (_config, subcommand) => {
    if (subcommand.name() === 'set') keysHelp = settableKeys((await import('../../config/settings.js')).everySetting);
  });
  config
    .command('get')
    .summary("print a setting's effective value")
    .description(
      'Prints the value a setting has for this run, wherever it comes from (a flag, its environment variable, the profile or the default), bare on one line of stdout, piped or not, so a script can read it with $(...). Asked for with -o: json and ndjson print that value as a JSON string (the value config list -o json gives, as written: 30s keeps its unit), csv a key,value header and row as config list -o csv has them, table the bare value. It changes nothing and sends nothing; an unknown key is a usage error that names the close ones.',
    )
    .argument('<key>', 'setting, such as baseUrl or paths.token')
    .action((key: string, _flags: unknown, command: Command) =>
      dispatch<ConfigGetOptions>(command, async () => (await import('./index.js')).runGet, { key }),
    );
  config
    .command('set')
    .summary('store a setting in the profile (an empty value removes it)')
    .description(
      "Checks a value with the setting's own parser (a number, a duration, a URL, a path template) and stores it in the profile's part of config.json, written whole and 0600; an empty value removes the setting, so its default applies again. A value the setting cannot take is refused, naming what it must be, and nothing is written.",
    )
    .argument('<key>', 'setting, such as baseUrl or paths.token')
    .argument('<value>', 'new value')
    .addHelpText('after', () => keysHelp)
    .action((key: string, value: string, _flags: unknown, command: Command) =>
      dispatch<ConfigSetOptions>(command, async () => (await import('./index.js')).runSet, { key, value }),
    );
  config
    .command('unset')
    .summary('remove a setting from the profile, so its default applies again')
    .description(
      "Removes a setting from the profile's part of config.json (written whole and 0600), as config set KEY '' does: the setting's environment variable or default applies again. An unknown key is a usage error that names the close ones; a setting the profile does not hold is left as it is.",
    )
    .argument('<key>', 'setting, such as baseUrl or paths.token')
    .action((key: string, _flags: unknown, command: Command) =>
      dispatch<ConfigSetOptions>(command, async () => (await import('./index.js')).runSet, { key, value: '' }),
    );
  config
    .command('list')
    .summary('every setting with its value and source (flag, env, profile, default)')
    .description(
      'Lists every setting of the settings table with the value this run would use and where it comes from: a flag, an environment variable, the profile, or the default. Secrets are never shown. Run it to see why a command talks to another store or folder than expected, or to review a profile before a cron job uses it.',
    )
    .action((_flags: unknown, command: Command) =>
      dispatch<ConfigListOptions>(command, async () => (await import('./index.js')).runList, {}),
    );
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  config: ['b2bctl config list', 'b2bctl config set paths.token /oauth/token --profile prod'],
  'config get': [
    'b2bctl config get baseUrl',
    'b2bctl config get paths.token --profile prod',
    'b2bctl config get http.timeout -o json',
  ],
  'config set': [
    'b2bctl config set paths.token /oauth/token --profile prod',
    'b2bctl config set auth.style form',
    "b2bctl config set outputDir ''",
  ],
  'config unset': ['b2bctl config unset http.timeout', 'b2bctl config unset paths.token --profile prod'],
  'config list': ['b2bctl config list', 'b2bctl config list --profile prod -o json'],
};

/** The keys `config set` accepts, from the settings table, with what each value must look like. */
function settableKeys(everySetting: readonly SettingDefinition[]): string {
  const settable = everySetting.filter((definition) => !definition.secret && !definition.managed);
  const width = Math.max(...settable.map((definition) => definition.key.length)) + 2;
  const lines = settable.map((definition) => {
    const byDefault = definition.defaultValue === undefined ? '' : ` (default ${definition.defaultValue})`;
    return `  ${definition.key.padEnd(width)}${definition.parser?.expects ?? 'text'}${byDefault}`;
  });
  return [
    '',
    'Keys:',
    ...lines,
    '',
    'b2bctl config list shows what each means, its value and where it comes from; login writes the token.',
  ].join('\n');
}
