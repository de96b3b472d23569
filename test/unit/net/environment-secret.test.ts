/**
 * secretFromEnvironment, the one reading of a secret given in an environment variable: one line end dropped, any
 * other control character refused (exit 2, naming the variable), for every variable b2bctl reads a secret from.
 */
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../../src/base/errors.js';
import { secretFromEnvironment } from '../../../src/net/environment-secret.js';

/** Each variable, and whether its secret goes as written in a header (a Bearer token). */
const variables = [
  ['B2BCTL_PASSWORD', false],
  ['B2BCTL_SANDBOX_PASSWORD', false],
  ['B2BCTL_TAX_TOKEN', true],
  ['B2BCTL_TAX_USER', false],
  ['B2BCTL_TAX_PASSWORD', false],
  ['B2BCTL_TAX_CLIENT_SECRET', false],
  ['B2BCTL_WEBHOOK_CLIENT_SECRET', false],
  ['B2BCTL_WEBHOOK_FORWARD_TOKEN', true],
  ['B2BCTL_WEBHOOK_FORWARD_BASIC', false],
  ['B2BCTL_TAX_FORWARD_TOKEN', true],
  ['B2BCTL_TAX_FORWARD_BASIC', false],
] as const;

describe.each(variables)('%s', (name, sentInHeader) => {
  const read = (value: string | undefined) => secretFromEnvironment({ [name]: value }, name, { sentInHeader });

  it.each([
    ["$'x\\r'", 'x\r'],
    ["$'x\\n'", 'x\n'],
    ["$'x\\r\\n'", 'x\r\n'],
    ['x', 'x'],
  ])('%s is x', (_, value) => {
    expect(read(value)).toBe('x');
  });

  it("$'a\\nb' is refused, exit 2, naming the variable", () => {
    const refusal = (() => {
      try {
        read('a\nb');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as UsageError).exitCode).toBe(ExitCode.usage);
    expect((refusal as UsageError).message).toBe(
      `${name} holds a line feed (LF), which ${sentInHeader ? 'no HTTP header can carry' : 'no credential is made of'}: give the credential alone, on one line.`,
    );
  });

  it('unset, empty or a line end alone is no secret', () => {
    expect([read(undefined), read(''), read('\n')]).toEqual([undefined, undefined, undefined]);
  });
});
