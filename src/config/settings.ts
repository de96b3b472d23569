import { closestName } from '../lib/suggest.js';
import type { SettingDefinition } from './setting-definition.js';

export type { SettingDefinition } from './setting-definition.js';
import { listingAnswerSettings } from '../platform/answers/listing.js';
import { orderAnswerSettings } from '../platform/answers/orders.js';
import { stockAnswerSettings } from '../platform/answers/stock.js';
import { tokenAnswerSettings } from '../platform/answers/token.js';

/**
 * The settings a profile can hold, and the precedence rule of DESIGN.md §2:
 * flag > environment > profile > default. Pure: no I/O.
 */

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

const isPath = (value: string) => (value.startsWith('/') ? undefined : 'must start with /');
const isWholeNumber = (value: string) => (/^\d+$/.test(value) ? undefined : 'must be a whole number');
const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'must be an http:// or https:// URL';
  } catch {
    return 'must be an absolute URL such as https://store.example.com';
  }
};

export const settingDefinitions: readonly SettingDefinition[] = [
  { key: 'baseUrl', description: 'Base URL of the platform API', env: 'B2BCTL_BASE_URL', check: isHttpUrl },
  { key: 'username', description: 'Integration user (login e-mail)', env: 'B2BCTL_USERNAME' },
  { key: 'token', description: 'Access token', env: 'B2BCTL_TOKEN', secret: true, managed: true },
  { key: 'tokenExpiresAt', description: 'When the cached token expires (ISO-8601)', managed: true },
  { key: 'tokenObtainedAt', description: 'When the cached token was issued (ISO-8601)', managed: true },
  {
    key: 'auth.style',
    description: 'Body style of the token route',
    defaultValue: 'json',
    allowed: ['json', 'form', 'basic'],
  },
  { key: 'paths.token', description: 'Token route', defaultValue: '/v1/auth/token', check: isPath },
  {
    key: 'paths.sellers',
    description: 'Sales rep listing route',
    defaultValue: '/sellerModule/listSellers',
    check: isPath,
  },
  {
    key: 'paths.customerStatus',
    description: 'Customer status route',
    defaultValue: '/v1/customer/updateStatus/:document/:active',
    check: isPath,
  },
  {
    key: 'paths.customerAddresses',
    description: 'Customer addresses route',
    defaultValue: '/v1/customer/addresses/:document',
    check: isPath,
  },
  { key: 'paths.orders', description: 'Order listing route', defaultValue: '/v1/orders', check: isPath },
  { key: 'paths.order', description: 'Order detail route', defaultValue: '/v1/orders/:id', check: isPath },
  {
    key: 'paths.stockBatch',
    description: 'Stock batch route (1-50 items, per-item result)',
    defaultValue: '/v1/stock/batch',
    check: isPath,
  },
  {
    key: 'paths.stockQueue',
    description: 'Stock queue route (up to 200 items, asynchronous)',
    defaultValue: '/api/v1/stocks/batch',
    check: isPath,
  },
  {
    key: 'stock.autoThreshold',
    description: 'stock push --route auto: items above which the queue route is used',
    defaultValue: '1000',
    check: isWholeNumber,
  },
  {
    key: 'stock.schema',
    description: 'Stock item field names on the wire: a JSON file path or inline JSON',
    env: 'B2BCTL_STOCK_SCHEMA',
  },
  {
    key: 'orders.lookback',
    description: 'orders poll: seconds re-read before the cursor (late commits, skewed clocks)',
    defaultValue: '300',
    check: isWholeNumber,
  },
  {
    key: 'orders.lag',
    description: 'orders poll: seconds behind now where a run stops reading (0 to 5)',
    defaultValue: '2',
    check: (value) => (/^[0-5]$/.test(value) ? undefined : 'must be a whole number from 0 to 5'),
  },
  {
    key: 'input.maxListIndex',
    description: 'Highest list index a column may name, such as addressList.300.zipcode',
    defaultValue: '300',
    check: isWholeNumber,
  },
  {
    key: 'outputDir',
    description: 'Folder for bulk report and errors files (default: beside the input; for read-only export shares)',
    env: 'B2BCTL_OUTPUT_DIR',
  },
  {
    key: 'http.timeout',
    description: 'Per-request timeout in milliseconds',
    env: 'B2BCTL_TIMEOUT',
    defaultValue: '30000',
    check: isWholeNumber,
  },
  {
    key: 'http.retries',
    description: 'Retries after a failed request',
    env: 'B2BCTL_RETRIES',
    defaultValue: '3',
    check: isWholeNumber,
  },
  { key: 'webhook.clientId', description: 'Client id the webhook receiver accepts (webhook listen)' },
  {
    key: 'webhook.clientSecretFile',
    description: 'File holding the client secret of the webhook receiver (env B2BCTL_WEBHOOK_CLIENT_SECRET wins)',
  },
  {
    key: 'webhook.paths.token',
    description: 'Webhook receiver token route',
    defaultValue: '/oauth/token',
    check: isPath,
  },
  {
    key: 'webhook.paths.customers',
    description: 'Webhook receiver customers route',
    defaultValue: '/webhooks/customers',
    check: isPath,
  },
  {
    key: 'webhook.paths.orders',
    description: 'Webhook receiver orders route',
    defaultValue: '/webhooks/orders',
    check: isPath,
  },
  // Where answers the platform document does not show hold what b2bctl reads (src/platform/answers/).
  ...tokenAnswerSettings,
  ...listingAnswerSettings,
  ...stockAnswerSettings,
  ...orderAnswerSettings,
];

const definitionsByKey = new Map(settingDefinitions.map((definition) => [definition.key, definition]));

export function settingDefinition(key: string): SettingDefinition | undefined {
  return definitionsByKey.get(key);
}

export type ProfileData = Record<string, string>;

export interface SettingLayers {
  flags: Readonly<Record<string, string | undefined>>;
  env: Readonly<Record<string, string | undefined>>;
  profile: Readonly<ProfileData>;
}

export interface ResolvedSetting {
  value: string | undefined;
  source: SettingSource | undefined;
}

/** The value of a setting and where it came from: flag > environment > profile > default. */
export function resolveSetting(key: string, layers: SettingLayers): ResolvedSetting {
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

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** Checks a `config set KEY VALUE`; returns the problem in words, or undefined. */
export function problemWithSetting(key: string, value: string): string | undefined {
  const definition = definitionsByKey.get(key);
  if (!definition) {
    const suggestion = closestKey(key);
    return `unknown setting "${key}"${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; run b2bctl config list to see them all`;
  }
  if (definition.secret || definition.managed) return `"${key}" is written by b2bctl login, not by config set`;
  if (definition.allowed && !definition.allowed.includes(value)) {
    return `"${key}" must be one of ${definition.allowed.join(', ')}, not "${value}"`;
  }
  const problem = definition.check?.(value);
  return problem ? `"${key}" ${problem}, not "${value}"` : undefined;
}

/** The known key nearest to a mistyped one, when it is near enough to be a typo. */
export function closestKey(key: string): string | undefined {
  return closestName(
    key,
    settingDefinitions.map((definition) => definition.key),
  );
}
