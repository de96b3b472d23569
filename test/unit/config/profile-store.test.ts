import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileStore } from '../../../src/config/profile-store.js';
import { ConfigError } from '../../../src/base/errors.js';
import { requireThat } from '../../support/external-tools.js';
import { temporaryFolder } from '../../support/temporary.js';

/** root writes into a folder whatever its mode says. */
const notRoot = requireThat(process.getuid?.() !== 0, 'root may write into a read-only folder; run as another user');

let root: string;
beforeEach(() => {
  root = temporaryFolder('b2bctl-store-');
});
afterEach(() => {
  chmodSync(root, 0o700);
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('ProfileStore.update', () => {
  it.each([
    {
      name: 'creates a profile',
      before: undefined,
      changes: { baseUrl: 'http://a' },
      expected: { baseUrl: 'http://a' },
    },
    {
      name: 'merges into existing keys',
      before: { baseUrl: 'http://a', username: 'u' },
      changes: { token: 't' },
      expected: { baseUrl: 'http://a', username: 'u', token: 't' },
    },
    {
      name: 'overwrites a key',
      before: { baseUrl: 'http://a' },
      changes: { baseUrl: 'http://b' },
      expected: { baseUrl: 'http://b' },
    },
    {
      name: 'removes undefined keys',
      before: { baseUrl: 'http://a', token: 't', tokenExpiresAt: 'x' },
      changes: { token: undefined, tokenExpiresAt: undefined },
      expected: { baseUrl: 'http://a' },
    },
    {
      name: 'removing an absent key is harmless',
      before: { baseUrl: 'http://a' },
      changes: { token: undefined },
      expected: { baseUrl: 'http://a' },
    },
    {
      name: 'empty string is a value, not a removal',
      before: { username: 'u' },
      changes: { username: '' },
      expected: { username: '' },
    },
  ])('$name', ({ before, changes, expected }) => {
    const directory = join(root, 'b2bctl');
    const store = new ProfileStore(directory);
    if (before) store.update('prod', before);
    expect(store.update('prod', changes)).toEqual(expected);
    expect(store.read('prod')).toEqual(expected);
    // What is on disk is what a fresh process reads back.
    expect(new ProfileStore(directory).read('prod')).toEqual(expected);
    expect(JSON.parse(readFileSync(join(directory, 'config.json'), 'utf8'))).toEqual({ profiles: { prod: expected } });
  });

  it('leaves the other profiles alone and lists names sorted', () => {
    const store = new ProfileStore(join(root, 'b2bctl'));
    store.update('staging', { baseUrl: 'http://s' });
    store.update('default', { baseUrl: 'http://d' });
    store.update('staging', { username: 'u' });
    expect(store.profileNames()).toEqual(['default', 'staging']);
    expect(store.read('default')).toEqual({ baseUrl: 'http://d' });
    expect(store.read('staging')).toEqual({ baseUrl: 'http://s', username: 'u' });
  });
});

describe('ProfileStore on disk', () => {
  it('writes config.json 0600 in a 0700 folder', () => {
    const directory = join(root, 'nested', 'b2bctl');
    new ProfileStore(directory).update('default', { token: 'secret' });
    expect(modeOf(directory).toString(8)).toBe('700');
    expect(modeOf(join(directory, 'config.json')).toString(8)).toBe('600');
  });

  it('tightens an existing 0755 folder to 0700', () => {
    const directory = join(root, 'b2bctl');
    mkdirSync(directory, { mode: 0o755 });
    chmodSync(directory, 0o755);
    new ProfileStore(directory).update('default', { baseUrl: 'http://a' });
    expect(modeOf(directory).toString(8)).toBe('700');
  });

  it('reading creates nothing', () => {
    const directory = join(root, 'b2bctl');
    const store = new ProfileStore(directory);
    expect(store.read('default')).toBeUndefined();
    expect(store.profileNames()).toEqual([]);
    expect(existsSync(directory)).toBe(false);
  });

  it.each([
    { name: 'invalid JSON', content: '{"profiles": {', message: 'is not valid JSON' },
    { name: 'profiles is a list', content: '{"profiles": []}', message: 'has no "profiles" object' },
    { name: 'profiles is null', content: '{"profiles": null}', message: 'has no "profiles" object' },
  ])('a corrupt file ($name) gives a ConfigError naming the file', ({ content, message }) => {
    const directory = join(root, 'b2bctl');
    mkdirSync(directory, { mode: 0o700 });
    const file = join(directory, 'config.json');
    writeFileSync(file, content, { mode: 0o600 });
    const store = new ProfileStore(directory);
    let caught: unknown;
    try {
      store.read('default');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).file).toBe(file);
    expect((caught as ConfigError).message).toContain(`Config file ${file}`);
    expect((caught as ConfigError).message).toContain(message);
    expect((caught as ConfigError).exitCode).toBe(2);
    // The user's file is left for them to fix.
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it.skipIf(notRoot.missing)(
    `an unwritable folder gives a ConfigError naming the folder and B2BCTL_CONFIG_DIR${notRoot.note}`,
    () => {
      chmodSync(root, 0o500);
      const directory = join(root, 'b2bctl');
      expect(() => new ProfileStore(directory).update('default', { baseUrl: 'http://a' })).toThrow(
        `Cannot use the config folder ${directory} (EACCES). Set B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) to a folder this user can write.`,
      );
    },
  );

  // A config folder on a full disk: saving a token said only `ENOSPC: no space left on device, write`, exit 1.
  it('a full disk gives a ConfigError naming the file, exit 2, and the file left as it was', () => {
    const directory = join(root, 'b2bctl');
    new ProfileStore(directory).update('default', { baseUrl: 'http://a' });
    const before = readFileSync(join(directory, 'config.json'), 'utf8');
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });
    const store = new ProfileStore(directory, (options) =>
      Object.assign(new Conf(options), {
        set: () => {
          throw full;
        },
      }),
    );
    let caught: unknown;
    try {
      store.update('default', { token: 'secret' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toBe(
      `Cannot write the config file ${join(directory, 'config.json')} (ENOSPC: no space left on device): nothing was saved in it. Make room on its disk, or set B2BCTL_CONFIG_DIR (or XDG_CONFIG_HOME) to a folder on another disk.`,
    );
    expect((caught as ConfigError).exitCode).toBe(2);
    expect(readFileSync(join(directory, 'config.json'), 'utf8')).toBe(before);
  });
});

/** A store over a config file written as a person might edit it. */
function writeConfig(profiles: unknown): ProfileStore {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  writeFileSync(join(root, 'config.json'), JSON.stringify({ profiles }), { mode: 0o600 });
  return new ProfileStore(root);
}

describe('ProfileStore.read: a config file edited by hand', () => {
  it('a number or a boolean is read as its text, null as unset', () => {
    const store = writeConfig({ default: { 'http.timeout': 5000, 'report.excel': true, branch: null, baseUrl: 'x' } });
    expect(store.read('default')).toEqual({ 'http.timeout': '5000', 'report.excel': 'true', baseUrl: 'x' });
  });

  it('a list or an object is an error naming the setting and the profile', () => {
    const store = writeConfig({ night: { 'http.retries': [3] } });
    const file = join(root, 'config.json');
    expect(() => store.read('night')).toThrow(
      new ConfigError(
        `Config file ${file}: setting "http.retries" of profile "night" is a list, not a value. Fix it, or set it again with b2bctl config set http.retries VALUE --profile night.`,
        file,
      ),
    );
  });

  it('a profile that is not an object is an error naming it', () => {
    const store = writeConfig({ night: 'x' });
    expect(() => store.read('night')).toThrow(/profile "night" is not an object of settings/);
  });
});
