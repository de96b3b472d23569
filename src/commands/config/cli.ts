import type { Command } from 'commander';
import type { CommandExamples, Dispatch } from '../../command-kit/command-group.js';
import type { SettingDefinition } from '../../config/setting-definition.js';
import type { ConfigGetOptions, ConfigListOptions, ConfigSetOptions } from './index.js';

/** `b2bctl config get|set|list`. */
export function register(program: Command, dispatch: Dispatch): void {
  const config = program
    .command('config')
    .description('read and change profile settings (b2bctl config list shows them all)');
  // The keys `config set --help` lists come from the settings table, imported only on the way to `config set`
  // (commander awaits this hook before the subcommand parses, --help included): other help stays as light.
  let keysHelp = '';
  config.hook('preSubcommand', async (_config, subcommand) => {
    if (subcommand.name() === 'set') keysHelp = settableKeys((await import('../../config/settings.js')).everySetting);
  });
  config
    .command('get')
    .description("print a setting's effective value")
    .argument('<key>', 'setting, such as baseUrl or paths.token')
    .action((key: string, _flags: unknown, command: Command) =>
      dispatch<ConfigGetOptions>(command, async () => (await import('./index.js')).runGet, { key }),
    );
  config
    .command('set')
    .description('store a setting in the profile (an empty value removes it)')
    .argument('<key>', 'setting, such as baseUrl or paths.token')
    .argument('<value>', 'new value')
    .addHelpText('after', () => keysHelp)
    .action((key: string, value: string, _flags: unknown, command: Command) =>
      dispatch<ConfigSetOptions>(command, async () => (await import('./index.js')).runSet, { key, value }),
    );
  config
    .command('list')
    .description('every setting with its value and source (flag, env, profile, default)')
    .action((_flags: unknown, command: Command) =>
      dispatch<ConfigListOptions>(command, async () => (await import('./index.js')).runList, {}),
    );
}

/** The examples at the end of each command's help, by its path under the root. */
export const examples: CommandExamples = {
  config: ['b2bctl config list', 'b2bctl config set paths.token /oauth/token --profile prod'],
  'config get': ['b2bctl config get baseUrl', 'b2bctl config get paths.token --profile prod'],
  'config set': [
    'b2bctl config set paths.token /oauth/token --profile prod',
    'b2bctl config set auth.style form',
    "b2bctl config set outputDir ''",
  ],
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
