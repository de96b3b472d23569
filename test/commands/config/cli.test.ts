import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/config/cli.js';
import { parseWithGroup } from '../../support/parse-group.js';

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
});
