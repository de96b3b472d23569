import { existsSync } from 'node:fs';
import { sameBaseUrl } from '../../net/base-url.js';
import {
  absolutePathToStore,
  didYouMean,
  everySetting,
  problemWithSetting,
  settingDefinition,
  unknownProfileKeys,
} from '../../config/settings.js';
import { type Context, stdoutStyle } from '../../context.js';
import { B2bctlError, ExitCode, UsageError } from '../../base/errors.js';
import { createRecordWriter } from '../../io/output/record-writer.js';
import { printable } from '../../lib/printable.js';
import { urlsShownSafely } from '../../lib/shown-target.js';
import type { Session } from '../../config/session.js';
import type { SettingKey } from '../../config/settings.js';

export interface ConfigGetOptions {
  key: string;
}
export interface ConfigSetOptions {
  key: string;
  value: string;
}
export type ConfigListOptions = Record<string, never>;

interface SettingRow {
  key: string;
  value: string | null;
  source: string | null;
  description: string;
}

/**
 * Prints one setting's effective value (flag > env > profile > default): bare for scripts, or in the format -o (or
 * --excel) asks for.
 */
export async function runGet(options: ConfigGetOptions, context: Context): Promise<void> {
  const definition = settingDefinition(options.key);
  if (!definition) throw new UsageError(problemWithSetting(options.key) ?? `unknown setting "${options.key}"`);
  if (definition.secret)
    throw new UsageError(`"${options.key}" is a secret and is never printed; b2bctl whoami shows its status.`);
  const session = await context.session();
  const resolved = session.setting(definition.key);
  if (resolved.value === undefined) {
    throw new B2bctlError(
      `"${options.key}" is not set for profile "${session.profileName}".`,
      ExitCode.someRecordsFailed,
    );
  }
  // A value every other command would refuse is no value to hand a script: the same refusal, exit 2.
  session.get(definition.key);
  await writeSettingValue(context, definition.key, resolved.value);
}

/**
 * Without -o, the value bare on one line, on a terminal or not (`URL=$(b2bctl config get baseUrl)`), as
 * docs/settings.md promises. With -o json or ndjson, that text as a JSON string: the value `config list -o json`
 * gives for the key, as written, so `30s` keeps its unit and `config set` takes it back; with -o csv (or --excel),
 * the `key,value` columns of `config list -o csv`. `-o table` is the bare value: a table of one cell.
 */
async function writeSettingValue(context: Context, key: string, value: string): Promise<void> {
  const asked = context.globals.output !== undefined || context.globals.excel === true;
  const format = asked ? context.outputFormat('json') : 'table';
  if (format === 'table') {
    context.io.stdout.write(`${value}\n`);
    return;
  }
  if (format === 'json' || format === 'ndjson') {
    context.io.stdout.write(`${JSON.stringify(value)}\n`);
    return;
  }
  const writer = createRecordWriter<{ key: string; value: string }>(
    format,
    context.io.stdout,
    { table: [], csv: ['key', 'value'] },
    stdoutStyle(context),
  );
  await writer.write({ key, value });
  await writer.end();
}

/** Stores a setting in the profile (creating it); an empty value removes the setting. */
export async function runSet(options: ConfigSetOptions, context: Context): Promise<void> {
  if (options.value === '' && settingDefinition(options.key) === undefined)
    return removeUnknownKey(options.key, context);
  // An empty value removes the setting: then only the key is checked.
  const problem = problemWithSetting(options.key, options.value === '' ? undefined : options.value);
  if (problem) throw new UsageError(problem);
  const session = await context.session({ allowNewProfile: true });
  const profile = session.profile as Readonly<Record<string, unknown>>;
  if (options.value === '' && profile[options.key] === undefined) {
    context.log.info(`${options.key} was not set for profile "${session.profileName}"; nothing changed.`);
    return;
  }
  // The cached token was issued by the old base URL's platform: kept, it would go to the new one with every request.
  const otherPlatform =
    options.key === 'baseUrl' &&
    profile.token !== undefined &&
    typeof profile.baseUrl === 'string' &&
    (options.value === '' || !sameBaseUrl(profile.baseUrl, options.value));
  const forgotten = otherPlatform ? { token: undefined, tokenObtainedAt: undefined, tokenExpiresAt: undefined } : {};
  // A relative path is kept absolute: a profile is read from any folder (cron's, a unit's WorkingDirectory=/).
  const absolute = absolutePathToStore(options.key, options.value);
  session.save({ [options.key]: options.value === '' ? undefined : (absolute ?? options.value), ...forgotten });
  context.log.info(
    options.value === ''
      ? `Removed ${options.key} from profile "${session.profileName}".`
      : `Set ${options.key} for profile "${session.profileName}"${absolute === undefined ? '' : ` to ${printable(absolute)} (${printable(options.value)}, from the current folder)`}.`,
  );
  if (otherPlatform)
    context.log.info(
      `The token cached for ${String(profile.baseUrl)} is forgotten: it was issued there. Run b2bctl login for the new base URL.`,
    );
  if (options.value !== '') warnIfOutranked(options.key, session, context);
}

/**
 * A value just saved that the environment or a flag of this very command line outranks (flag > env > profile): the
 * saved line alone read as if it were now in effect (a user test), so one line says what commands here use instead.
 */
function warnIfOutranked(key: string, session: Session, context: Context): void {
  const resolved = session.setting(key as SettingKey);
  if (resolved.source !== 'env' && resolved.source !== 'flag') return;
  const variable = settingDefinition(key)?.env;
  const outranking =
    resolved.source === 'env' && variable !== undefined
      ? `${variable}=${urlsShownSafely(resolved.value ?? '')} is set in this environment`
      : `a flag of this command line gives ${urlsShownSafely(resolved.value ?? '')}`;
  const until = resolved.source === 'env' && variable !== undefined ? `, until ${variable} is unset` : '';
  context.log.warn(
    `warning: ${outranking} and outranks the profile: commands run with it use that value, not the ${key} just saved${until}.`,
  );
}

/**
 * `config unset KEY` of a key that is no setting: removed when the profile holds it (a typo made editing config.json
 * by hand, which every command warns of and ignores), so it need not be edited again; otherwise the unknown-setting
 * error, naming the close one.
 */
async function removeUnknownKey(key: string, context: Context): Promise<void> {
  const session = await context.session({ allowNewProfile: true, removingKey: key });
  if (!Object.hasOwn(session.profile, key))
    throw new UsageError(problemWithSetting(key) ?? `unknown setting "${printable(key)}"`);
  session.save({ [key]: undefined });
  context.log.info(`Removed ${JSON.stringify(key)} (no setting) from profile "${session.profileName}".`);
}

/** Every setting with its effective value and where that value comes from; secrets only as "(set)". */
export async function runList(_options: ConfigListOptions, context: Context): Promise<void> {
  const session = await context.session();
  const format = context.outputFormat('json');
  // Whose settings these are, which file they came from, and whether B2BCTL_PROFILE chose the profile: on stderr,
  // piped or not, so a redirected list pasted into a ticket says it too (a user test) while stdout stays the bare
  // data a `-o json` consumer reads.
  const store = await context.profiles();
  const chosenBy = context.globals.profile ? '' : context.env.B2BCTL_PROFILE ? ' (from B2BCTL_PROFILE)' : '';
  context.log.info(
    `Profile "${session.profileName}"${chosenBy}, read from ${printable(store.file)}${existsSync(store.file) ? '' : ' (not created yet: every value is a default or from the environment)'}.`,
  );
  // Listed as they are, for whoever is finding the bad one, and marked in the table (the refusals come after a
  // screen of rows); then refused as every other command would refuse them.
  const refused = session.refusedSettings();
  const refusedKeys = new Set<string>(refused.map(({ key }) => key));
  const writer = createRecordWriter<SettingRow>(
    format,
    context.io.stdout,
    {
      table: [
        // The key names the row: kept whole, a long value (a path with its placeholders) is cut with … instead.
        { header: 'KEY', value: (row) => row.key, keepWhole: true },
        { header: 'VALUE', value: (row) => row.value ?? '-' },
        {
          header: 'SOURCE',
          value: (row) => `${row.source ?? '-'}${refusedKeys.has(row.key) ? ' (invalid)' : ''}`,
        },
      ],
      csv: ['key', 'value', 'source', 'description'],
    },
    stdoutStyle(context),
  );
  for (const definition of everySetting) {
    const resolved = session.setting(definition.key);
    // A URL's user-info and query values are masked as every other command masks them: a base URL refused for
    // holding `user:password@` is still listed to be found, and this output is what gets pasted into a ticket.
    const value = resolved.value === undefined ? null : definition.secret ? '(set)' : urlsShownSafely(resolved.value);
    await writer.write({
      key: definition.key,
      value,
      source: resolved.source ?? null,
      description: definition.description,
    });
  }
  // Keys of the profile that are no setting, after the settings: nothing reads them, which a row says where the
  // user looks for the value they meant (the run's warning names them too).
  for (const { key, suggestion } of unknownProfileKeys(session.profile)) {
    await writer.write({
      key,
      value: urlsShownSafely(session.profile[key] ?? ''),
      source: 'profile (unknown)',
      description: `No setting: ignored${didYouMean(suggestion)}. Remove it with b2bctl config unset.`,
    });
  }
  await writer.end();
  if (refused.length > 0) throw new UsageError(refused.map(({ error }) => error.message).join('\n'));
}
