import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/webhook/trigger.js';
import { InputError } from '../../../src/base/errors.js';
import { ProfileStore } from '../../../src/config/profile-store.js';
import {
  clientId,
  clientSecret,
  removeReceiverFolders,
  startTestReceiver,
  temporaryFolder,
} from '../../support/webhook-receiver.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeReceiverFolders);

/** A server that counts the requests it gets and answers 500 (it should never be reached). */
async function countingServer(): Promise<{ url: string; count: () => number; server: Server }> {
  let count = 0;
  const server = createServer((_request, response) => {
    count++;
    response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, count: () => count, server };
}

const env = () => ({ B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret });

describe('webhook trigger (in process)', () => {
  it('sends the --data file byte for byte after the token, and prints each step on a terminal', async () => {
    const receiver = await startTestReceiver();
    const data = join(temporaryFolder(), 'event.json');
    writeFileSync(data, '{\n  "id": 7, "orderId": 7, "lastUpdated": "2026-11-23T06:00:00.000Z", "extra": "kept"\n}\n');
    const memory = testContext({ env: env(), tty: { stdout: true } });
    await run({ kind: 'orders', url: receiver.url, style: 'body', clientId, data }, memory.context);
    await receiver.close();
    expect(memory.stdout().split('\n')[0]).toBe(`token  HTTP 200  ${receiver.url}/oauth/token`);
    expect(memory.stdout().split('\n')[1]).toMatch(/^event  HTTP 200  .*\/webhooks\/orders  \{"status":"stored"/);
    const [stored] = receiver.onDisk();
    expect(stored?.event).toEqual({ id: 7, orderId: 7, lastUpdated: '2026-11-23T06:00:00.000Z', extra: 'kept' });
    expect(stored?.flags).toContain('status missing');
  });

  it('prints the steps in the -o format asked: NDJSON when piped, one array with -o json, rows with -o csv', async () => {
    const receiver = await startTestReceiver();
    const printed = async (output?: 'json' | 'csv') => {
      const memory = testContext({ env: env(), globals: { output } });
      await run({ kind: 'customers', url: receiver.url, style: 'basic', clientId }, memory.context);
      return memory.stdout();
    };
    const piped = await printed();
    const asJson = await printed('json');
    const asCsv = await printed('csv');
    await receiver.close();
    expect(
      piped
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { step: string }).step),
    ).toEqual(['token', 'event']);
    expect(JSON.parse(asJson)).toEqual([
      { step: 'token', url: `${receiver.url}/oauth/token`, status: 200 },
      { step: 'event', url: `${receiver.url}/webhooks/customers`, status: 200, answer: expect.any(String) },
    ]);
    // CSV rows end in CRLF (RFC 4180), as every CSV b2bctl writes.
    expect(asCsv.split('\r\n').slice(0, 2)).toEqual([
      'step,url,status,error,answer',
      `token,${receiver.url}/oauth/token,200,,`,
    ]);
    expect(asCsv).toMatch(new RegExp(`\\r\\nevent,${receiver.url}/webhooks/customers,200,,"\\{""status"":""stored""`));
  });

  it('--verbose traces each request and answer on stderr: method, URL, status and time, never the secret or token', async () => {
    const receiver = await startTestReceiver();
    const memory = testContext({ env: env(), globals: { verbose: true } });
    await run({ kind: 'customers', url: receiver.url, style: 'body', clientId }, memory.context);
    await receiver.close();
    const traced = memory
      .stderr()
      .split('\n')
      .filter((line) => /^[<>] /.test(line.replace(/^\S+Z /, '')));
    expect(traced.map((line) => line.replace(/^\S+Z /, '').replace(/in \d+ ms/, 'in N ms'))).toEqual([
      `> POST ${receiver.url}/oauth/token (token, body style)`,
      '< HTTP 200 in N ms',
      `> POST ${receiver.url}/webhooks/customers (customers event)`,
      '< HTTP 200 in N ms',
    ]);
    expect(memory.stderr()).not.toContain(clientSecret);
  });

  it.each([
    ['{"id": 1,', /event\.json: not valid JSON \(.+\); --data takes one JSON event\./],
    // JSON.parse quotes the text around the fault: its line break is written \n, the error one line.
    ['not json\n', /^[^\n]*event\.json: not valid JSON \([^\n]*"not json\\n"[^\n]*\); --data takes one JSON event\.$/],
    [undefined, /event\.json: cannot read the event file \(ENOENT\)\./],
  ])('refuses a bad --data file (%j) and sends nothing', async (content, message) => {
    const target = await countingServer();
    const data = join(temporaryFolder(), 'event.json');
    if (content !== undefined) writeFileSync(data, content);
    const memory = testContext({ env: env() });
    const failure = await run(
      { kind: 'orders', url: target.url, style: 'basic', clientId, data },
      memory.context,
    ).catch((error: unknown) => error);
    await new Promise((resolve) => target.server.close(resolve));
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as Error).message).toMatch(message);
    expect(target.count()).toBe(0);
    expect(memory.stdout()).toBe('');
  });

  it.each([
    [
      'a FIFO no program writes to',
      (folder: string) => {
        const fifo = join(folder, 'event.json');
        execFileSync('mkfifo', ['-m', '600', fifo]);
        return fifo;
      },
      'no program is writing to the pipe: start the program that writes it first, or pass a file',
    ],
    ['a device', () => '/dev/zero', 'it is a device, not a file'],
  ])('--data naming %s: refused at once (exit 66), sending nothing', async (_what, dataIn, reason) => {
    const target = await countingServer();
    const data = dataIn(temporaryFolder());
    const memory = testContext({ env: env() });
    const failure = await run(
      { kind: 'orders', url: target.url, style: 'basic', clientId, data },
      memory.context,
    ).catch((error: unknown) => error);
    await new Promise((resolve) => target.server.close(resolve));
    expect(failure).toBeInstanceOf(InputError);
    expect((failure as InputError).exitCode).toBe(66);
    expect((failure as Error).message).toBe(`${data}: cannot read the event file (${reason}).`);
    expect(target.count()).toBe(0);
    expect(memory.stdout()).toBe('');
  });

  it('refuses to run without a secret from the environment or a file, sending nothing', async () => {
    const target = await countingServer();
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    const failure = await run({ kind: 'customers', url: target.url, style: 'basic', clientId }, memory.context).catch(
      (error: unknown) => error,
    );
    await new Promise((resolve) => target.server.close(resolve));
    expect((failure as Error).message).toBe(
      "No webhook client secret: set B2BCTL_WEBHOOK_CLIENT_SECRET, pass --client-secret-file FILE, or name the file in the profile's webhook.clientSecretFile setting (b2bctl config set webhook.clientSecretFile /path/to/secret); never the secret itself on the command line.",
    );
    expect(target.count()).toBe(0);
  });
});

/** A config folder whose profile lojaB holds the receiver's client id and secret file, as `config set` writes them. */
function profileWithReceiverSettings(): string {
  const folder = temporaryFolder();
  const secretFile = join(folder, 'webhook-secret');
  writeFileSync(secretFile, `${clientSecret}\n`, { mode: 0o600 });
  const configDir = join(folder, 'config');
  new ProfileStore(configDir).update('lojaB', {
    'webhook.clientId': clientId,
    'webhook.clientSecretFile': secretFile,
  });
  return configDir;
}

describe('webhook trigger reads the receiver settings of its profile (a user test)', () => {
  it('no --client-id: the webhook.clientId setting, beside the webhook.clientSecretFile it already read', async () => {
    const receiver = await startTestReceiver();
    const memory = testContext({
      env: { B2BCTL_CONFIG_DIR: profileWithReceiverSettings() },
      globals: { profile: 'lojaB' },
    });
    const code = await memory.run(run, { kind: 'orders', url: receiver.url, style: 'basic' });
    await receiver.close();
    expect(code).toBe(0);
    expect(memory.stdout()).toMatch(/"step":"token".*"status":200/);
    expect(receiver.onDisk()).toHaveLength(1);
  });

  it('--client-id wins over the setting: the receiver refuses another id, and no event is sent', async () => {
    const receiver = await startTestReceiver();
    const memory = testContext({
      env: { B2BCTL_CONFIG_DIR: profileWithReceiverSettings() },
      globals: { profile: 'lojaB' },
    });
    const code = await memory.run(run, { kind: 'orders', url: receiver.url, style: 'basic', clientId: 'other-id' });
    await receiver.close();
    expect(code).not.toBe(0);
    expect(memory.stdout()).toMatch(/"step":"token".*"status":401/);
    expect(receiver.onDisk()).toEqual([]);
  });

  it('no client id anywhere: exit 2, one line naming the flag and the setting, nothing sent', async () => {
    const target = await countingServer();
    const memory = testContext({ env: env() });
    const code = await memory.run(run, { kind: 'orders', url: target.url, style: 'basic' });
    await new Promise((resolve) => target.server.close(resolve));
    expect(code).toBe(2);
    expect(memory.stderr()).toBe(
      'error: Give the client id the receiver checks: --client-id ID (or the webhook.clientId setting of the profile).\n',
    );
    expect(target.count()).toBe(0);
  });

  it('no secret under a named profile: the line names the setting and the profile to set it in', async () => {
    const target = await countingServer();
    const configDir = temporaryFolder();
    new ProfileStore(configDir).update('lojaA', { 'webhook.clientId': clientId });
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: configDir }, globals: { profile: 'lojaA' } });
    const code = await memory.run(run, { kind: 'orders', url: target.url, style: 'basic' });
    await new Promise((resolve) => target.server.close(resolve));
    expect(code).toBe(2);
    expect(memory.stderr()).toContain(
      'b2bctl config set webhook.clientSecretFile /path/to/secret --profile lojaA); never the secret itself',
    );
    expect(target.count()).toBe(0);
  });
});
