import { describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/auth/cli.js';
import { parseWithGroup } from '../../support/parse-group.js';

describe('auth cli (login, logout, whoami)', () => {
  it.each([
    [['login'], { username: undefined, passwordStdin: false, tokenStdin: false, verify: true, allowHttp: false }],
    [
      ['login', '--username', 'erp@store.test', '--password-stdin'],
      { username: 'erp@store.test', passwordStdin: true, tokenStdin: false, verify: true, allowHttp: false },
    ],
    [
      ['login', '--token-stdin', '--no-verify'],
      { username: undefined, passwordStdin: false, tokenStdin: true, verify: false, allowHttp: false },
    ],
    [['logout'], {}],
    [['whoami'], {}],
  ])('%j hands %j', async (argv, expected) => {
    expect(await parseWithGroup(register, argv)).toEqual(expected);
  });

  it('refuses a password as an argument (there is no such flag)', async () => {
    await expect(parseWithGroup(register, ['login', '--password', 'secret'])).rejects.toThrow(
      "unknown option '--password'",
    );
  });
});
