/**
 * The default inbox is one per profile (a user test): with one shared by every profile of the config folder,
 * `--profile lojaB webhook inbox` read store A's events and `--profile lojaB webhook replay` sent them to B's ERP.
 * The default profile keeps `webhooks/inbox`, where every inbox was, so no existing one moves.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run as inbox } from '../../../src/commands/webhook/inbox.js';
import { run as listen } from '../../../src/commands/webhook/listen.js';
import { run as replay } from '../../../src/commands/webhook/replay.js';
import { testContext } from '../../support/test-context.js';
import {
  listenInProcess,
  listenOptions,
  postWithToken,
  receiverEnv,
  removeReceiverFolders,
  sampleOrder,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** A receiver of PROFILE (no --inbox) in CONFIGDIR that stores one orders event, then stops. */
async function oneEventUnder(configDir: string, profile: string | undefined): Promise<void> {
  const receiver = await listenInProcess(
    '',
    { inbox: undefined },
    { env: { B2BCTL_CONFIG_DIR: configDir }, globals: { profile } },
  );
  expect((await postWithToken(receiver.url, 'orders', sampleOrder)).status).toBe(200);
  await receiver.stop();
}

/** `webhook inbox` under PROFILE (no --inbox) in CONFIGDIR, as JSON: its exit code, events and stderr. */
async function inboxUnder(configDir: string, profile: string | undefined) {
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: configDir }, globals: { profile, output: 'json' } });
  const code = await memory.run(inbox, {});
  const events = memory.stdout() === '' ? [] : (JSON.parse(memory.stdout()) as { key: string }[]);
  return { code, events, stderr: memory.stderr() };
}

describe('the default webhook inbox is the profile’s', () => {
  it('a named profile’s receiver stores in webhooks/inbox-<profile>; another profile reads none of it', async () => {
    const configDir = temporaryFolder();
    await oneEventUnder(configDir, 'lojaA');
    expect(existsSync(join(configDir, 'webhooks', 'inbox-lojaA', 'inbox.sqlite'))).toBe(true);
    expect(existsSync(join(configDir, 'webhooks', 'inbox'))).toBe(false);

    const ofA = await inboxUnder(configDir, 'lojaA');
    expect(ofA.code).toBe(0);
    expect(ofA.events).toHaveLength(1);
    expect(ofA.stderr).toContain(join('webhooks', 'inbox-lojaA', 'inbox.sqlite'));

    const ofB = await inboxUnder(configDir, 'lojaB');
    expect(ofB.code).toBe(66);
    expect(ofB.events).toEqual([]);
    expect(ofB.stderr).toMatch(/No webhook inbox in .*webhooks\/inbox-lojaB \(no inbox\.sqlite\)/);
  });

  it('replay under another profile sends its ERP nothing of the first profile’s events', async () => {
    const configDir = temporaryFolder();
    await oneEventUnder(configDir, 'lojaA');
    const received: string[] = [];
    const erp = createServer((request, response) => {
      received.push(request.url ?? '');
      request.resume().on('end', () => response.end('{}'));
    });
    await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
    const port = (erp.address() as { port: number }).port;
    try {
      const memory = testContext({ env: { B2BCTL_CONFIG_DIR: configDir }, globals: { profile: 'lojaB' } });
      const code = await memory.run(replay, {
        to: `http://127.0.0.1:${port}/erpB`,
        since: '2026-01-01T00:00:00Z',
        attempts: 1,
        execTimeout: 60_000,
        forwardTimeout: 30_000,
      } as Parameters<typeof replay>[0]);
      expect(code).toBe(66);
      expect(memory.stderr()).toMatch(/No webhook inbox in .*webhooks\/inbox-lojaB \(no inbox\.sqlite\)/);
      expect(received).toEqual([]);
    } finally {
      await new Promise((resolve) => erp.close(resolve));
    }
  });

  it('the default profile keeps webhooks/inbox, where an existing inbox already is', async () => {
    const configDir = temporaryFolder();
    await oneEventUnder(configDir, undefined);
    expect(readdirSync(join(configDir, 'webhooks'))).toEqual(['inbox']);
    expect((await inboxUnder(configDir, 'default')).events).toHaveLength(1);
    const ofA = await inboxUnder(configDir, 'lojaA');
    expect([ofA.code, ofA.events]).toEqual([66, []]);
  });

  it('a profile name that is no name (a "/" in it) is refused, exit 2, no folder made', async () => {
    const configDir = temporaryFolder();
    const memory = testContext({
      env: { ...receiverEnv(), B2BCTL_CONFIG_DIR: configDir, B2BCTL_PROFILE: '../../escape' },
    });
    expect(await memory.run(listen, listenOptions('', { inbox: undefined }))).toBe(2);
    expect(memory.stderr()).toMatch(/Profile name "\.\.\/\.\.\/escape" may hold only the letters a-z/);
    expect(memory.stdout()).toBe('');
    expect(readdirSync(configDir)).toEqual([]);
  });
});
