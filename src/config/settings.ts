import { isAbsolute, resolve } from 'node:path';
import {
  answerTextSettings,
  listingAnswerSettings,
  orderAnswerSettings,
  orderStatusWordSettings,
  stockAnswerSettings,
  tokenAnswerSettings,
} from './answer-settings.js';
import { closestName } from '../lib/suggest.js';
import { urlsShownSafely } from '../lib/shown-target.js';
import { listingRouteSettings } from './route-settings.js';
import { UsageError } from '../base/errors.js';
import type { SettingDefinition, SettingParser } from './setting-definition.js';
import {
  duration,
  platformUrl,
  isoInstant,
  localPath,
  loginName,
  megabytesOrOff,
  oneOf,
  requestTimeout,
  routePath,
  wholeNumber,
} from './setting-parsers.js';

export type { SettingDefinition } from './setting-definition.js';

/**
 * The settings a profile can hold, in one table (key, parser, default, environment variable, description), and
 * the precedence rule of docs/settings.md: flag > environment > profile > default. Every value is read through its
 * parser here, never parsed at the call site. Pure: no I/O.
 */

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

export const settingDefinitions = [
  {
    key: 'baseUrl',
    description: 'Base URL of the platform API (may include a path prefix)',
    env: 'B2BCTL_BASE_URL',
    parser: platformUrl,
  },
  { key: 'username', description: 'Integration user (login e-mail)', env: 'B2BCTL_USERNAME', parser: loginName },
  {
    key: 'token',
    description: 'Access token, written by login and never printed',
    env: 'B2BCTL_TOKEN',
    secret: true,
    managed: true,
  },
  { key: 'tokenExpiresAt', description: 'When the cached token expires (ISO-8601)', managed: true, parser: isoInstant },
  {
    key: 'tokenObtainedAt',
    description: 'When the cached token was issued (ISO-8601)',
    managed: true,
    parser: isoInstant,
  },
  {
    key: 'auth.style',
    description:
      'Body of the token route: json {"username","password"}, form (grant_type=password), basic (Basic header, grant_type=client_credentials)',
    defaultValue: 'json',
    parser: oneOf(['json', 'form', 'basic']),
  },
  {
    key: 'paths.token',
    description: 'Token route (not described by the platform document)',
    defaultValue: '/v1/auth/token',
    parser: routePath,
  },
  {
    key: 'paths.sellers',
    description: 'Sales rep listing route',
    defaultValue: '/sellerModule/listSellers',
    parser: routePath,
  },
  {
    key: 'paths.customerStatus',
    description: 'Customer status route',
    defaultValue: '/v1/customer/updateStatus/:document/:active',
    parser: routePath,
  },
  {
    key: 'paths.customerAddresses',
    description: 'Customer addresses route',
    defaultValue: '/v1/customer/addresses/:document',
    parser: routePath,
  },
  { key: 'paths.orders', description: 'Order listing route', defaultValue: '/v1/orders', parser: routePath },
  { key: 'paths.order', description: 'Order detail route', defaultValue: '/v1/orders/:id', parser: routePath },
  {
    key: 'paths.stockBatch',
    description: 'Stock batch route (1-50 items, per-item result)',
    defaultValue: '/v1/stock/batch',
    parser: routePath,
  },
  {
    key: 'paths.stockQueue',
    description: 'Stock queue route (up to 200 items, asynchronous)',
    defaultValue: '/api/v1/stocks/batch',
    parser: routePath,
  },
  ...listingRouteSettings,
  {
    key: 'branch',
    description: 'Branch code a head office integrates on behalf of: fills {branch} in route paths (--branch wins)',
    env: 'B2BCTL_BRANCH',
  },
  {
    key: 'customer.documentInPath',
    description:
      "How a CPF or CNPJ is written in the customer update, status and addresses paths: as-written (with its punctuation, a CNPJ's / as %2F) or digits (its digits and letters only, for a server that refuses an encoded / in a path)",
    env: 'B2BCTL_CUSTOMER_DOCUMENT_IN_PATH',
    defaultValue: 'as-written',
    parser: oneOf(['as-written', 'digits']),
  },
  {
    key: 'stock.autoThreshold',
    description: 'stock push --route auto: items above which the queue route is used',
    defaultValue: '1000',
    parser: wholeNumber(),
  },
  {
    key: 'stock.schema',
    description: 'Stock item field names on the wire: a JSON file path or inline JSON',
    env: 'B2BCTL_STOCK_SCHEMA',
  },
  {
    key: 'tax.shape',
    description:
      'Where the tax callback carries items, states and buyer, and its answer’s names (tax serve --shape): a JSON file path or inline JSON',
    env: 'B2BCTL_TAX_SHAPE',
  },
  { key: 'tax.clientId', description: 'Client id the token endpoint of tax serve accepts (tax serve --auth token)' },
  {
    key: 'tax.clientSecretFile',
    description: 'File holding the client secret of tax serve --auth token (env B2BCTL_TAX_CLIENT_SECRET wins)',
    parser: localPath,
  },
  {
    key: 'orders.routes',
    description: 'Order moves (ready, invoice, ship, cancel): an order routes file path or inline JSON',
    env: 'B2BCTL_ORDER_ROUTES',
  },
  {
    key: 'orders.lookback',
    description: 'orders poll: time re-read before the cursor (late commits, skewed clocks)',
    defaultValue: '300',
    parser: duration('s'),
  },
  {
    key: 'orders.lag',
    description: 'orders poll: how far behind now a run stops reading',
    defaultValue: '2',
    parser: duration('s', 5),
  },
  {
    key: 'orders.timePrecision',
    description:
      'orders poll: the bounds (updatedFrom, updatedTo) sent to the order listing in milliseconds (ms) or whole seconds (s, for a platform that refuses milliseconds; widened outward)',
    defaultValue: 'ms',
    parser: oneOf(['ms', 's']),
  },
  {
    key: 'input.maxListIndex',
    description: 'Highest list index a column may name, such as addressList.300.zipcode',
    defaultValue: '300',
    parser: wholeNumber(),
  },
  {
    key: 'input.maxColumns',
    description:
      'Most columns a CSV row may have, and an .ods row may hold values in (a sheet holds 16,384); a row with more is refused at once',
    defaultValue: '16384',
    parser: wholeNumber(1),
  },
  {
    key: 'input.maxRowChars',
    description: 'Most characters one CSV row may hold, as written in the file (characters, not bytes)',
    defaultValue: '200000',
    parser: wholeNumber(1),
  },
  {
    key: 'input.workbookThreadMb',
    description:
      'Workbooks (.xlsx, .ods) of this many MB or more are validated on a thread of their own with a bounded heap; 0 for every workbook, off for none',
    defaultValue: '4',
    parser: megabytesOrOff,
  },
  {
    key: 'outputDir',
    description: 'Folder for bulk report and errors files (default: beside the input; for read-only export shares)',
    env: 'B2BCTL_OUTPUT_DIR',
    parser: localPath,
  },
  {
    key: 'report.excel',
    description:
      "Bulk reports as --excel writes them, for a pt-BR Excel (BOM, ';' between cells; the errors file keeps the input's delimiter): true or false",
    env: 'B2BCTL_REPORT_EXCEL',
    defaultValue: 'false',
    parser: oneOf(['true', 'false']),
  },
  {
    key: 'http.allowPlain',
    description:
      'Send the password or token over plain http:// to another machine, where anyone on the way reads it (login --allow-http sets it): true or false',
    env: 'B2BCTL_ALLOW_HTTP',
    defaultValue: 'false',
    parser: oneOf(['true', 'false']),
  },
  {
    key: 'http.timeout',
    description: 'Per-request timeout',
    env: 'B2BCTL_TIMEOUT',
    defaultValue: '30000',
    parser: requestTimeout,
  },
  {
    key: 'http.retries',
    description: 'Retries after a failed request',
    env: 'B2BCTL_RETRIES',
    defaultValue: '3',
    parser: wholeNumber(),
  },
  {
    key: 'webhook.clientId',
    description: 'Client id the webhook receiver accepts (webhook listen), and webhook trigger sends',
  },
  {
    key: 'webhook.storeTimeout',
    description:
      'Longest wait for a PostgreSQL webhook store (--store postgres://...) to answer one statement or transaction once opened: past it the receiver answers the webhook 503 and a reading command exits 69',
    env: 'B2BCTL_STORE_TIMEOUT',
    defaultValue: '30s',
    parser: duration('ms', undefined, 1000),
  },
  {
    key: 'webhook.storeAllowPlain',
    description:
      'Open a PostgreSQL webhook store on another machine with an sslmode that may send its password and the events in clear or to an unchecked server (disable, allow, prefer, no-verify): true or false',
    env: 'B2BCTL_STORE_ALLOW_PLAIN',
    defaultValue: 'false',
    parser: oneOf(['true', 'false']),
  },
  {
    key: 'webhook.clientSecretFile',
    description:
      'File holding the client secret of the webhook receiver, for webhook listen and trigger (env B2BCTL_WEBHOOK_CLIENT_SECRET wins)',
    parser: localPath,
  },
  {
    key: 'webhook.paths.token',
    description: 'Webhook receiver token route',
    defaultValue: '/oauth/token',
    parser: routePath,
  },
  {
    key: 'webhook.paths.customers',
    description: 'Webhook receiver customers route',
    defaultValue: '/webhooks/customers',
    parser: routePath,
  },
  {
    key: 'webhook.paths.orders',
    description: 'Webhook receiver orders route',
    defaultValue: '/webhooks/orders',
    parser: routePath,
  },
  // Where answers the platform document does not show hold what b2bctl reads (src/platform/answers/).
  ...answerTextSettings,
  ...tokenAnswerSettings,
  ...listingAnswerSettings,
  ...stockAnswerSettings,
  ...orderAnswerSettings,
  ...orderStatusWordSettings,
] as const satisfies readonly SettingDefinition[];

type Definition = (typeof settingDefinitions)[number];

/** Every key of the table: a typo in `session.get('http.timout')` is a compile error. */
export type SettingKey = Definition['key'];

// An entry typed as a plain `SettingDefinition` (not `as const`) would widen every key to `string` and turn key
// typos back into run-time surprises: declare new tables `as const satisfies readonly SettingDefinition[]`.
const keysAreLiteral: string extends SettingKey ? false : true = true;
void keysAreLiteral;

/** The platform's routes (`paths.*`), each with a default path. */
export type RouteSettingKey = Extract<SettingKey, `paths.${string}`>;

type ParsedValueOf<D> = D extends { parser: SettingParser<infer Value> } ? Value : string;

/** What `get(key)` gives: the parser's type, and `undefined` only for a setting with no default. */
export type SettingValue<Key extends SettingKey> =
  Extract<Definition, { key: Key }> extends infer D
    ? D extends { defaultValue: string }
      ? ParsedValueOf<D>
      : ParsedValueOf<D> | undefined
    : never;

/** The table seen entry by entry, for `config list` and help: every field of a definition, optional or not. */
export const everySetting: readonly SettingDefinition<SettingKey>[] = settingDefinitions;

const definitionsByKey = new Map<string, SettingDefinition<SettingKey>>(
  everySetting.map((definition) => [definition.key, definition]),
);

/** The definition of a key typed by a person (`config get KEY`), if there is one. */
export function settingDefinition(key: string): SettingDefinition<SettingKey> | undefined {
  return definitionsByKey.get(key);
}

export type ProfileData = Record<string, string>;

export interface SettingLayers {
  flags: Readonly<Record<string, string | undefined>>;
  env: Readonly<Record<string, string | undefined>>;
  profile: Readonly<ProfileData>;
  /** Names the profile in messages about its values. */
  profileName?: string;
}

export interface ResolvedSetting {
  value: string | undefined;
  source: SettingSource | undefined;
}

/** The text of a setting and where it came from: flag > environment > profile > default. */
export function resolveSetting(key: SettingKey, layers: SettingLayers): ResolvedSetting {
  const definition = definitionsByKey.get(key);
  const fromFlag = layers.flags[key];
  if (nonEmpty(fromFlag)) return { value: fromFlag, source: 'flag' };
  const fromEnv = definition?.env ? layers.env[definition.env] : undefined;
  if (nonEmpty(fromEnv)) return { value: fromEnv, source: 'env' };
  const fromProfile = layers.profile[key];
  if (nonEmpty(fromProfile)) return { value: fromProfile, source: 'profile' };
  if (definition?.defaultValue !== undefined) return { value: definition.defaultValue, source: 'default' };
  return { value: undefined, source: undefined };
}

/**
 * The typed value of a setting, read through the table's parser. A value the parser refuses is a usage error
 * naming the key, the value and where it came from, so a bad profile or environment value is fixed in one go.
 */
export function readSetting<Key extends SettingKey>(key: Key, layers: SettingLayers): SettingValue<Key> {
  const resolved = resolveSetting(key, layers);
  if (resolved.value === undefined) return undefined as SettingValue<Key>;
  const parser = definitionsByKey.get(key)?.parser;
  if (!parser) return resolved.value as SettingValue<Key>;
  const parsed = parser.parse(resolved.value);
  if (parsed.ok) return parsed.value as SettingValue<Key>;
  throw new UsageError(
    `Setting "${key}" ${parsed.problem}, not "${urlsShownSafely(resolved.value)}" (from ${sourceInWords(key, resolved.source, layers)}).${parsed.hint ? ` ${parsed.hint}` : ''}`,
  );
}

/** `the stock.schema setting (from B2BCTL_STOCK_SCHEMA)`: a setting and where its value came from, for a message. */
export function settingOrigin(key: SettingKey, layers: SettingLayers): string {
  return `the ${key} setting (from ${sourceInWords(key, resolveSetting(key, layers).source, layers)})`;
}

/** Where a value came from, as a person finds it again: the flag, the variable, or the profile to change. */
function sourceInWords(key: string, source: SettingSource | undefined, layers: SettingLayers): string {
  const profile = `profile "${layers.profileName ?? 'default'}"`;
  switch (source) {
    case 'flag':
      return `the --${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} flag`;
    case 'env':
      return definitionsByKey.get(key)?.env ?? 'the environment';
    case 'profile':
      return `${profile}; change it with b2bctl config set ${key} VALUE${layers.profileName && layers.profileName !== 'default' ? ` --profile ${layers.profileName}` : ''}`;
    default:
      return 'the default';
  }
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/**
 * Checks a `config set KEY VALUE` with the parser every read uses (only the key when `value` is undefined, as when
 * a setting is removed); returns the problem in words, or undefined.
 */
export function problemWithSetting(key: string, value?: string): string | undefined {
  const definition = definitionsByKey.get(key);
  if (!definition) {
    const suggestion = closestKey(key);
    return `unknown setting "${key}"${didYouMean(suggestion)}; run b2bctl config list to see them all`;
  }
  // A removal (config unset, config set KEY '') names the command that does remove it (a user test).
  if (definition.secret || definition.managed)
    return value === undefined
      ? `"${key}" is written by b2bctl login and removed by b2bctl logout, not by config unset`
      : `"${key}" is written by b2bctl login, not by config set`;
  const parsed = value === undefined ? undefined : definition.parser?.parse(value);
  return parsed && !parsed.ok
    ? `"${key}" ${parsed.problem}, not "${urlsShownSafely(value ?? '')}"${parsed.hint ? `. ${parsed.hint}` : ''}`
    : undefined;
}

/**
 * The keys of a profile that are no setting (a typo made editing config.json by hand, `http.timout`; a key with a
 * stray space), each with the setting it is nearest to: no command reads them, so the value meant is not applied.
 */
export function unknownProfileKeys(profile: Readonly<ProfileData>): { key: string; suggestion?: string }[] {
  return Object.keys(profile)
    .filter((key) => !definitionsByKey.has(key))
    .map((key) => {
      // Trimmed first: `"paths.sellers "` is nearest to paths.sellers whatever its length.
      const suggestion = closestKey(key.trim());
      return suggestion === undefined ? { key } : { key, suggestion };
    });
}

/** `(did you mean "http.timeout"?)` after an unknown key's name, or nothing. */
export function didYouMean(suggestion: string | undefined): string {
  return suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
}

/** Settings that are a file path or inline JSON (text starting with `{`, io/json-setting.ts). */
const fileOrInlineJson = new Set<string>(['stock.schema', 'orders.routes', 'tax.shape']);

/**
 * The absolute path `config set` stores for a relative path typed into a setting that names a file or folder on this
 * machine (relative to the folder it was typed in, as git config --path values are meant); undefined when the value
 * is no relative path (an absolute one, inline JSON, or a setting that is no path). Stored as typed, `outputDir rep`
 * meant another folder for each folder a job was started from, and none at all for cron's (a user test).
 */
export function absolutePathToStore(key: string, value: string): string | undefined {
  const definition = definitionsByKey.get(key);
  if (definition === undefined || value === '') return undefined;
  const names = definition.parser === localPath || (fileOrInlineJson.has(key) && !value.trim().startsWith('{'));
  return names && !isAbsolute(value) ? resolve(value) : undefined;
}

/** The known key nearest to a mistyped one, when it is near enough to be a typo. */
export function closestKey(key: string): string | undefined {
  return closestName(
    key,
    settingDefinitions.map((definition) => definition.key),
  );
}
