import { describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/sandbox/run.js';
import { ExitCode, type B2bctlError } from '../../../src/base/errors.js';
import { seedDirectory } from '../../support/sandbox.js';
import { testContext } from '../../support/test-context.js';

describe('sandbox --tax-* flags', () => {
  it.each([
    [
      { taxCallback: 'http://127.0.0.1:9/tax', taxClientId: 'plataforma' },
      '--tax-client-id needs the secret in B2BCTL_TAX_CLIENT_SECRET (never on the command line), the one tax serve was given.',
    ],
    [{ taxClientId: 'plataforma' }, '--tax-client-id needs --tax-callback URL.'],
  ])('refuses %j before it listens, with the fix', async (flags, message) => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: '/nonexistent' } });
    const failure = (await run({ port: 0, seed: seedDirectory, ...flags }, memory.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.usage);
    expect(failure.message).toBe(message);
    expect(memory.stdout()).toBe('');
  });
});
