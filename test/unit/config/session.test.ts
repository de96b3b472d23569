import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { openSession } from '../../../src/config/session.js';
import { AuthError, UsageError } from '../../../src/base/errors.js';
import { temporaryFolder } from '../../support/temporary.js';

let root: string;
let store: ProfileStore;
beforeEach(() => {
  root = temporaryFolder('b2bctl-session-');
  store = new ProfileStore(join(root, 'b2bctl'));
});

/** Calls `action` and returns what it threw. */
function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('openSession: which profile', () => {
  it.each([
    { name: 'no flag, no env -> default', profiles: [], profileFlag: undefined, env: {}, expected: 'default' },
    { name: 'the flag', profiles: ['prod'], profileFlag: 'prod', env: {}, expected: 'prod' },
    {
      name: 'B2BCTL_PROFILE',
      profiles: ['staging'],
      profileFlag: undefined,
      env: { B2BCTL_PROFILE: 'staging' },
      expected: 'staging',
    },
    {
      name: 'the flag beats B2BCTL_PROFILE',
      profiles: ['prod', 'staging'],
      profileFlag: 'prod',
      env: { B2BCTL_PROFILE: 'staging' },
      expected: 'prod',
    },
    {
      name: 'an empty B2BCTL_PROFILE is ignored',
      profiles: [],
      profileFlag: undefined,
      env: { B2BCTL_PROFILE: '' },
      expected: 'default',
    },
    {
      name: 'default named explicitly need not exist',
      profiles: [],
      profileFlag: 'default',
      env: {},
      expected: 'default',
    },
  ])('$name', ({ profiles, profileFlag, env, expected }) => {
    for (const name of profiles) store.update(name, { baseUrl: `http://${name}.example.com` });
    const session = openSession({ store, profileFlag, flags: {}, env });
    expect(session.profileName).toBe(expected);
  });

  it('reads the chosen profile', () => {
    store.update('staging', { baseUrl: 'http://staging.example.com', username: 'erp@example.com' });
    const session = openSession({ store, profileFlag: undefined, flags: {}, env: { B2BCTL_PROFILE: 'staging' } });
    expect(session.profile).toEqual({ baseUrl: 'http://staging.example.com', username: 'erp@example.com' });
    expect(session.setting('username')).toEqual({ value: 'erp@example.com', source: 'profile' });
  });

  it.each([
    {
      name: 'from the flag',
      profileFlag: 'prod',
      env: {},
      known: [],
      expected: 'Unknown profile "prod" (no profiles yet). Run b2bctl login --profile prod to create it.',
    },
    {
      name: 'from B2BCTL_PROFILE',
      profileFlag: undefined,
      env: { B2BCTL_PROFILE: 'prod' },
      known: [],
      expected: 'Unknown profile "prod" (no profiles yet). Run b2bctl login --profile prod to create it.',
    },
    {
      name: 'listing the known ones',
      profileFlag: 'prd',
      env: {},
      known: ['staging', 'prod'],
      expected: 'Unknown profile "prd" (known: prod, staging). Run b2bctl login --profile prd to create it.',
    },
  ])('an unknown named profile is a usage error $name', ({ profileFlag, env, known, expected }) => {
    for (const name of known) store.update(name, { baseUrl: 'http://x' });
    const error = thrownBy(() => openSession({ store, profileFlag, flags: {}, env }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(expected);
  });

  it('allowNewProfile lets login create one', () => {
    const session = openSession({ store, profileFlag: 'prod', flags: {}, env: {}, allowNewProfile: true });
    expect(session.profileName).toBe('prod');
    expect(session.profile).toEqual({});
    session.save({ baseUrl: 'http://prod.example.com' });
    expect(store.read('prod')).toEqual({ baseUrl: 'http://prod.example.com' });
    expect(session.profile).toEqual({ baseUrl: 'http://prod.example.com' });
  });

  // 'lojá': an accented letter is a letter to a user, so the message says which letters (a user test).
  it.each(['../etc', 'a b', 'prod/x', 'ção', 'lojá'])('rejects the profile name %j', (name) => {
    const error = thrownBy(() => openSession({ store, profileFlag: name, flags: {}, env: {}, allowNewProfile: true }));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(
      `Profile name "${name}" may hold only the letters a-z and A-Z, the digits 0-9, ".", "_" and "-".`,
    );
  });

  // `__proto__` was said to be logged in and kept nothing (a user test).
  it.each(['__proto__', 'constructor', 'prototype'])(
    'rejects the profile name %j, an object\u2019s workings',
    (name) => {
      const error = thrownBy(() =>
        openSession({ store, profileFlag: name, flags: {}, env: {}, allowNewProfile: true }),
      );
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(
        `Profile name "${name}" is reserved (it names a JavaScript object's workings, not a profile): choose another.`,
      );
      expect(store.profileNames()).not.toContain(name);
    },
  );
});

describe('Session.requireBaseUrl', () => {
  it.each([
    {
      name: 'from the flag',
      flags: { baseUrl: 'https://flag.example.com/api' },
      env: {},
      profile: {},
      expected: 'https://flag.example.com/api',
    },
    {
      name: 'from B2BCTL_BASE_URL',
      flags: {},
      env: { B2BCTL_BASE_URL: 'http://127.0.0.1:4010' },
      profile: {},
      expected: 'http://127.0.0.1:4010',
    },
    {
      name: 'from the profile',
      flags: {},
      env: {},
      profile: { baseUrl: 'https://store.example.com' },
      expected: 'https://store.example.com',
    },
  ])('$name', ({ flags, env, profile, expected }) => {
    store.update('default', profile);
    expect(openSession({ store, profileFlag: undefined, flags, env }).requireBaseUrl()).toBe(expected);
  });

  it.each([
    {
      name: 'default profile',
      profileFlag: undefined,
      expected:
        'No base URL for profile "default". Pass --base-url URL, set B2BCTL_BASE_URL, or run b2bctl login --base-url URL.',
    },
    {
      name: 'named profile',
      profileFlag: 'prod',
      expected:
        'No base URL for profile "prod". Pass --base-url URL, set B2BCTL_BASE_URL, or run b2bctl login --base-url URL --profile prod.',
    },
  ])('a missing base URL names --base-url and B2BCTL_BASE_URL ($name)', ({ profileFlag, expected }) => {
    const session = openSession({ store, profileFlag, flags: {}, env: {}, allowNewProfile: true });
    const error = thrownBy(() => session.requireBaseUrl());
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(expected);
  });

  it.each([
    {
      value: 'ftp://example.com',
      source: 'env',
      expected: 'Setting "baseUrl" must be an http:// or https:// URL, not "ftp://example.com" (from B2BCTL_BASE_URL).',
    },
    {
      value: 'store.example.com',
      source: 'flag',
      expected:
        'Setting "baseUrl" must be an absolute URL such as https://store.example.com, not "store.example.com" (from the --base-url flag). It has no scheme: did you mean https://store.example.com?',
    },
    {
      value: 'mailto:erp@example.com',
      source: 'profile',
      expected:
        'Setting "baseUrl" must be an http:// or https:// URL, not "mailto:erp@example.com" (from profile "prod"; change it with b2bctl config set baseUrl VALUE --profile prod).',
    },
  ])('rejects $value', ({ value, source, expected }) => {
    const flags = source === 'flag' ? { baseUrl: value } : {};
    const env = source === 'env' ? { B2BCTL_BASE_URL: value } : {};
    if (source === 'profile') store.update('prod', { baseUrl: value });
    const profileFlag = source === 'profile' ? 'prod' : undefined;
    const error = thrownBy(() => openSession({ store, profileFlag, flags, env }).requireBaseUrl());
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(expected);
  });
});

describe('Session.notLoggedIn', () => {
  it('names the profile and the command that fixes it', () => {
    const error = openSession({ store, profileFlag: 'prod', flags: {}, env: {}, allowNewProfile: true }).notLoggedIn();
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toBe(
      'Not logged in for profile "prod": no token is cached. Run b2bctl login --profile prod.',
    );
  });

  it('tells an expired token, a token for another base URL and a refused one apart', () => {
    const session = openSession({ store, profileFlag: 'prod', flags: {}, env: {}, allowNewProfile: true });
    expect(session.notLoggedIn('refused').message).toBe(
      'Not logged in for profile "prod": the platform refused its token. Run b2bctl login --profile prod (or set B2BCTL_PASSWORD so b2bctl logs in again by itself).',
    );
    expect(session.notLoggedIn('expired').message).toContain('its token expired at');
    expect(session.notLoggedIn('other base URL').message).toContain('its token was issued for');
  });

  it('a refused B2BCTL_TOKEN is named, with the fix that works (a login would not change what is sent)', () => {
    const session = openSession({
      store,
      profileFlag: 'prod',
      flags: {},
      env: { B2BCTL_TOKEN: 't-1' },
      allowNewProfile: true,
    });
    expect(session.notLoggedIn('refused').message).toBe(
      'Not logged in for profile "prod": the platform refused the token in B2BCTL_TOKEN. Give a valid token, or unset B2BCTL_TOKEN to use the profile\'s (b2bctl login).',
    );
  });
});
