import { describe, expect, it } from 'vitest';
import { closestKey, problemWithSetting, resolveSetting } from '../../src/config/settings.js';

describe('resolveSetting: flag > environment > profile > default', () => {
  const cases: {
    name: string;
    flags: Record<string, string>;
    env: Record<string, string>;
    profile: Record<string, string>;
    expected: unknown[];
  }[] = [
    {
      name: 'flag wins over all',
      flags: { baseUrl: 'http://flag' },
      env: { B2BCTL_BASE_URL: 'http://env' },
      profile: { baseUrl: 'http://profile' },
      expected: ['http://flag', 'flag'],
    },
    {
      name: 'env wins over profile',
      flags: {},
      env: { B2BCTL_BASE_URL: 'http://env' },
      profile: { baseUrl: 'http://profile' },
      expected: ['http://env', 'env'],
    },
    {
      name: 'profile when no flag or env',
      flags: {},
      env: {},
      profile: { baseUrl: 'http://profile' },
      expected: ['http://profile', 'profile'],
    },
    {
      name: 'empty env value is ignored',
      flags: {},
      env: { B2BCTL_BASE_URL: '' },
      profile: { baseUrl: 'http://profile' },
      expected: ['http://profile', 'profile'],
    },
    { name: 'nothing set', flags: {}, env: {}, profile: {}, expected: [undefined, undefined] },
  ];
  it.each(cases)('$name', ({ flags, env, profile, expected }) => {
    const resolved = resolveSetting('baseUrl', { flags, env, profile });
    expect([resolved.value, resolved.source]).toEqual(expected);
  });

  it('falls back to the default of a route setting', () => {
    expect(resolveSetting('paths.token', { flags: {}, env: {}, profile: {} })).toEqual({
      value: '/v1/auth/token',
      source: 'default',
    });
    expect(resolveSetting('paths.token', { flags: {}, env: {}, profile: { 'paths.token': '/oauth/token' } })).toEqual({
      value: '/oauth/token',
      source: 'profile',
    });
  });
});

describe('problemWithSetting', () => {
  it.each([
    [
      'paths.tokn',
      '/x',
      'unknown setting "paths.tokn" (did you mean "paths.token"?); run b2bctl config list to see them all',
    ],
    ['paths.token', 'oauth/token', '"paths.token" must start with /, not "oauth/token"'],
    [
      'paths.sellers',
      '//127.0.0.2/steal',
      '"paths.sellers" must start with a single / (one that starts with // or /\\ reads as another host\'s address), not "//127.0.0.2/steal"',
    ],
    // A URL drops a tab or a line break before it reads the rest: `/<tab>/127.0.0.2/steal` is `//127.0.0.2/steal`.
    [
      'webhook.paths.token',
      '/\t/127.0.0.2/steal',
      '"webhook.paths.token" must not hold a tab or line break (a URL drops them, so the rest may read as another host\'s address), not "/\t/127.0.0.2/steal"',
    ],
    ['auth.style', 'xml', '"auth.style" must be one of json, form, basic, not "xml"'],
    [
      'baseUrl',
      'store.example.com',
      '"baseUrl" must be an absolute URL such as https://store.example.com, not "store.example.com". It has no scheme: did you mean https://store.example.com?',
    ],
    ['token', 'abc', '"token" is written by b2bctl login, not by config set'],
    ['http.retries', 'three', '"http.retries" must be a whole number (0 or more), not "three"'],
  ])('%s = %s', (key, value, problem) => {
    expect(problemWithSetting(key, value)).toBe(problem);
  });

  it('accepts good values', () => {
    expect(problemWithSetting('paths.customerStatus', '/v2/customer/status/:document/:active')).toBeUndefined();
    expect(problemWithSetting('baseUrl', 'https://api.store.com.br/api')).toBeUndefined();
  });

  it('suggests only near keys', () => {
    expect(closestKey('baseurl')).toBe('baseUrl');
    expect(closestKey('completely-different')).toBeUndefined();
  });
});
