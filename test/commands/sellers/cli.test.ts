import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/sellers/cli.js';
import { parseWithGroup } from '../../support/parse-group.js';

describe('sellers cli', () => {
  it.each([
    [['sellers', 'list'], { email: undefined, limit: undefined, offset: undefined, all: false }],
    [
      ['sellers', 'list', '--email', 'ana', '--limit', '50', '--offset', '0', '--all'],
      { email: 'ana', limit: 50, offset: 0, all: true },
    ],
  ])('%j hands %j', async (argv, expected) => {
    expect(await parseWithGroup(register, argv)).toEqual(expected);
  });

  it.each([
    [['sellers', 'list', '--limit', '0'], 'expected a whole number of at least 1.'],
    [['sellers', 'list', '--offset', '-1'], 'expected a whole number (0 or more).'],
    [['sellers', 'list', '--limit', '2.5'], 'expected a whole number of at least 1.'],
    // `--email "$EMAIL"` with the variable unset would list anyone, and a script taking the first rep, take anyone.
    [['sellers', 'list', '--email', ''], 'expected some text to look for; leave the flag out to list every one.'],
    [['sellers', 'list', '--email', '  '], 'expected some text to look for; leave the flag out to list every one.'],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parseWithGroup(register, argv)).rejects.toThrow(message);
  });
});
