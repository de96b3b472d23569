import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/config/cli.js';
import { everySetting } from '../../../src/config/settings.js';
import { helpWithGroup, parseWithGroup } from '../../support/parse-group.js';

describe('config cli', () => {
  it.each([
    [['config', 'get', 'baseUrl'], { key: 'baseUrl' }],
    [['config', 'set', 'http.retries', '5'], { key: 'http.retries', value: '5' }],
    [['config', 'set', 'baseUrl', ''], { key: 'baseUrl', value: '' }],
    [['config', 'list'], {}],
  ])('%j hands %j', async (argv, expected) => {
    expect(await parseWithGroup(register, argv)).toEqual(expected);
  });

  it.each([
    [['config', 'get'], "missing required argument 'key'"],
    [['config', 'set', 'baseUrl'], "missing required argument 'value'"],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parseWithGroup(register, argv)).rejects.toThrow(message);
  });

  it('config set --help lists every key it accepts, from the settings table, and none that login writes', async () => {
    const help = await helpWithGroup(register, ['config', 'set', '--help']);
    const listed = [...help.matchAll(/^ {2}([\w.]+) {2,}(.+)$/gm)].map((match) => match[1]);
    const settable = everySetting.filter((definition) => !definition.secret && !definition.managed);
    expect(listed).toEqual(['key', 'value', ...settable.map((definition) => definition.key)]);
    expect(help).toContain('  auth.style                   json, form, basic (default json)\n');
    expect(help).toContain(
      '  http.timeout                 milliseconds of at least 100 (or 30s, 5m or 1h) (default 30000)\n',
    );
    expect(listed).not.toContain('token');
  });
});
