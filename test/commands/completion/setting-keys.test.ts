/**
 * `config get|set|unset KEY`: the keys come from the settings table at every TAB (some 80 dotted keys the error
 * lines tell users to set, such as paths.token), through `b2bctl __complete` as every shell asks it.
 */
import { expect, it } from 'vitest';
import { everySetting } from '../../../src/config/settings.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';

async function complete(...words: string[]): Promise<string[]> {
  const result = await runCommandLine(['__complete', '--', ...words], { configDir: freshConfigDir() });
  expect(result.code).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '');
}

const settable = everySetting.filter((setting) => !setting.secret && !setting.managed).map((setting) => setting.key);

it('config set and unset offer every key a user sets, from the settings table', async () => {
  expect(await complete('config', 'set', '')).toEqual(settable);
  expect(await complete('config', 'unset', '')).toEqual(settable);
  expect(await complete('config', 'set', 'paths.tok')).toEqual(['paths.token']);
  expect(await complete('config', 'set', 'answers.stockB')).toEqual(
    settable.filter((key) => key.startsWith('answers.stockB')),
  );
  expect(settable).toContain('answers.stockBatch.results');
});

it('config get offers the keys login writes too, never a secret; set offers neither', async () => {
  const got = await complete('config', 'get', 'token');
  expect(got).toEqual(['tokenExpiresAt', 'tokenObtainedAt']);
  expect(await complete('config', 'set', 'token')).toEqual([]);
});

it('each key with what it is, for zsh and fish', async () => {
  const result = await runCommandLine(['__complete', '--descriptions', '--', 'config', 'set', 'paths.token'], {
    configDir: freshConfigDir(),
  });
  expect(result.stdout).toBe('paths.token\tToken route (not described by the platform document)\n');
});

it('the value after the key and config list take no key', async () => {
  expect(await complete('config', 'set', 'paths.token', '')).toEqual([]);
  expect(await complete('config', 'list', '')).toEqual([]);
});
