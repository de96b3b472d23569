import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/sandbox/run.js';
import { ExitCode, type B2bctlError } from '../../../src/base/errors.js';
import { seedDirectory } from '../../support/sandbox.js';
import {
  clientId,
  clientSecret,
  removeReceiverFolders,
  startTestReceiver,
  temporaryFolder,
} from '../../support/webhook-receiver.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeReceiverFolders);

describe('sandbox --webhook-* flags', () => {
  it('--webhook-client-id without --webhook-url is a usage error, not taken and ignored', async () => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: '/nonexistent' } });
    const failure = (await run({ port: 0, seed: seedDirectory, webhookClientId: clientId }, memory.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.usage);
    expect(failure.message).toContain('--webhook-client-id is the client the sandbox logs in as at --webhook-url');
    expect(memory.stdout()).toBe('');
  });

  it('--seed of a folder that is not there exits 66 naming --seed', async () => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: '/nonexistent' } });
    const failure = (await run({ port: 0, seed: '/nonexistent/seed' }, memory.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.inputMissing);
    expect(failure.message).toBe(
      '--seed /nonexistent/seed: no such folder; give a folder shaped as the samples (docs/sandbox.md).',
    );
  });

  it.each([
    [{ webhookClientId: clientId }, { B2BCTL_CONFIG_DIR: '/nonexistent' }],
    [{}, { B2BCTL_CONFIG_DIR: '/nonexistent', B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret }],
  ])('--webhook-url needs a client id and the secret in the environment (%j)', async (flags, env) => {
    const memory = testContext({ env });
    const failure = (await run(
      { port: 0, seed: seedDirectory, webhookUrl: 'http://127.0.0.1:9/', ...flags },
      memory.context,
    ).catch((error: unknown) => error)) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.usage);
    expect(failure.message).toBe(
      '--webhook-url needs --webhook-client-id ID and the secret in B2BCTL_WEBHOOK_CLIENT_SECRET (never on the command line).',
    );
    expect(memory.stdout()).toBe('');
  });

  // The one rule of routes (the paths.* settings'): `/\\host` passed the sandbox's own check and reads as a host.
  it.each(['http://127.0.0.2:9/oauth/token', '//127.0.0.2:9/oauth/token', '/\\127.0.0.2:9/oauth/token'])(
    '--webhook-token-path %s is refused (exit 2) before the sandbox starts',
    async (path) => {
      const memory = testContext({
        env: { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret },
      });
      const failure = (await run(
        {
          port: 0,
          seed: seedDirectory,
          webhookUrl: 'http://127.0.0.1:9',
          webhookClientId: clientId,
          webhookTokenPath: path,
        },
        memory.context,
      ).catch((error: unknown) => error)) as B2bctlError;
      expect(failure.exitCode).toBe(ExitCode.usage);
      expect(failure.message).toMatch(/^--webhook-token-path \S+: must start with .*; give a path on the same host/);
      expect(memory.stdout()).toBe('');
    },
  );

  it('configures the sender from the flags, and shows it without the secret', async () => {
    const receiver = await startTestReceiver();
    const memory = testContext({
      env: { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret },
    });
    const running = run(
      {
        port: 0,
        seed: seedDirectory,
        webhookUrl: receiver.url,
        webhookStyle: 'headers',
        webhookClientId: clientId,
        webhookTokenPath: '/oauth/token',
      },
      memory.context,
    );
    const url = await memory.firstLine();
    const config = (await (await fetch(`${url}/_sandbox/webhook-config`)).json()) as Record<string, unknown>;
    expect(config).toEqual({
      url: receiver.url,
      style: 'headers',
      clientId,
      tokenPath: '/oauth/token',
      customersPath: '/webhooks/customers',
      ordersPath: '/webhooks/orders',
    });
    memory.interrupt();
    await running;
    await receiver.close();
  });
});
