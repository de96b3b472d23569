import { describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { Session } from '../../../src/config/session.js';
import { everySetting, problemWithSetting, readSetting, type SettingLayers } from '../../../src/config/settings.js';
import { UsageError } from '../../../src/base/errors.js';

const none: SettingLayers = { flags: {}, env: {}, profile: {} };

describe('readSetting: every value through the parser of the settings table', () => {
  it('gives each default its typed value', () => {
    expect(readSetting('http.timeout', none)).toBe(30_000);
    expect(readSetting('http.retries', none)).toBe(3);
    expect(readSetting('orders.lookback', none)).toBe(300_000);
    expect(readSetting('orders.lag', none)).toBe(2_000);
    expect(readSetting('stock.autoThreshold', none)).toBe(1000);
    expect(readSetting('auth.style', none)).toBe('json');
    expect(readSetting('paths.token', none)).toBe('/v1/auth/token');
    expect(readSetting('outputDir', none)).toBeUndefined();
  });

  it.each(everySetting.filter((definition) => definition.defaultValue !== undefined))(
    'the default of $key passes its own parser',
    (definition) => {
      expect(problemWithSetting(definition.key, definition.defaultValue)).toBeUndefined();
    },
  );

  it.each([
    ['http.timeout', '45000', 45_000],
    ['http.timeout', '45s', 45_000],
    ['http.timeout', '500ms', 500],
    ['http.timeout', '1.5s', 1_500],
    ['http.timeout', '1m', 60_000],
    ['orders.lookback', '600', 600_000],
    ['orders.lookback', '10m', 600_000],
    ['orders.lag', '0', 0],
    ['orders.lag', '5', 5_000],
    ['orders.lag', '1500ms', 1_500],
    ['http.retries', '0', 0],
    ['auth.style', 'basic', 'basic'],
  ] as const)('%s = %s reads as %j', (key, text, value) => {
    expect(readSetting(key, { ...none, profile: { [key]: text } })).toBe(value);
  });

  it.each([
    [
      'a profile value',
      { ...none, profile: { 'http.retries': 'three' }, profileName: 'prod' },
      'http.retries',
      'Setting "http.retries" must be a whole number (0 or more), not "three" (from profile "prod"; change it with b2bctl config set http.retries VALUE --profile prod).',
    ],
    [
      'a profile value of the default profile',
      { ...none, profile: { 'orders.lag': '7' } },
      'orders.lag',
      'Setting "orders.lag" must be a number of seconds from 0 to 5 (or a time such as 2s or 1500ms), not "7" (from profile "default"; change it with b2bctl config set orders.lag VALUE).',
    ],
    [
      'an environment variable',
      { ...none, env: { B2BCTL_TIMEOUT: '30 seconds' } },
      'http.timeout',
      'Setting "http.timeout" must be a number of milliseconds of at least 100 (or a time such as 30s, 5m or 1h), not "30 seconds" (from B2BCTL_TIMEOUT).',
    ],
    [
      'a flag',
      { ...none, flags: { baseUrl: 'store.example.com' } },
      'baseUrl',
      'Setting "baseUrl" must be an absolute URL such as https://store.example.com, not "store.example.com" (from the --base-url flag). It has no scheme: did you mean https://store.example.com?',
    ],
    [
      'an environment variable naming this machine',
      { ...none, env: { B2BCTL_BASE_URL: 'localhost:8787' } },
      'baseUrl',
      'Setting "baseUrl" must be an http:// or https:// URL, not "localhost:8787" (from B2BCTL_BASE_URL). It has no scheme: did you mean http://localhost:8787?',
    ],
  ] as const)('a bad value from %s is a usage error naming key, value and source', (_name, layers, key, message) => {
    expect(() => readSetting(key, layers)).toThrow(new UsageError(message));
  });

  it('config set refuses with the same parser that reads', () => {
    expect(problemWithSetting('orders.lag', '7')).toBe(
      '"orders.lag" must be a number of seconds from 0 to 5 (or a time such as 2s or 1500ms), not "7"',
    );
    expect(problemWithSetting('http.timeout', '1m')).toBeUndefined();
    expect(problemWithSetting('answers.sellers.items', 'data..items')).toBe(
      '"answers.sellers.items" must be a dot path such as data.items, not "data..items"',
    );
    // Removing a setting checks only the key.
    expect(problemWithSetting('orders.lag')).toBeUndefined();
    // Removing it is logout's work, which the words name (a user test).
    expect(problemWithSetting('token')).toBe(
      '"token" is written by b2bctl login and removed by b2bctl logout, not by config unset',
    );
  });

  it('session.get is typed by the table: a number, a word of the enum, a key typo refused by tsc', () => {
    const session = new Session({
      store: {} as ProfileStore,
      profileName: 'default',
      profile: { 'http.timeout': '2s' },
      flags: {},
      env: {},
    });
    const timeout: number = session.get('http.timeout');
    const style: 'json' | 'form' | 'basic' = session.get('auth.style');
    const folder: string | undefined = session.get('outputDir');
    expect([timeout, style, folder]).toEqual([2000, 'json', undefined]);
    // @ts-expect-error: not a key of the settings table
    expect(() => session.get('http.timout')).not.toThrow();
  });
});
