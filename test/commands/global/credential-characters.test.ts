/**
 * A credential b2bctl sends for someone else (the webhook sender's client secret in `webhook trigger` and the
 * sandbox, the sandbox's tax token, the ERP's forward credential of the receiver, `webhook replay` and `tax serve`)
 * with a line break or another control character inside (a file's second line, a Windows line end): refused at start,
 * exit 2, one line naming the variable or file, nothing sent; as `--token` with a line break is. Before, it failed
 * each request as a network that could not be reached (`UND_ERR_INVALID_ARG`), or, a token sent as written, could add
 * a header of its own to each request.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deliverWebhook, sampleEvent } from '../../../src/webhook/sender.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { clientSecret, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** A server that counts the requests it gets, answering each with `answer` (200, empty, by default). */
async function countingServer(answer: (url: string) => [number, string] = () => [200, '']) {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    const [status, body] = answer(request.url ?? '');
    request.resume().on('end', () => response.writeHead(status, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Runs `args` as the command line does; a server that starts anyway (the refusal missing) is stopped once it prints
 * its first line, so the run always ends.
 */
async function startRefused(args: string[], env: Record<string, string>, cwd?: string) {
  const result = await runCommandLine(args, {
    configDir: freshConfigDir(),
    env,
    cwd,
    started: (test) => void test.firstLine().then(() => test.interrupt()),
  });
  return { code: result.code, stdout: result.stdout, errorLines: result.stderr.trim().split('\n') };
}

/** The one error line of a refused credential, as `--token` with a line break says it. */
const refusal = (source: string, character: string, header = false) =>
  `error: ${source} holds ${character}, which ${header ? 'no HTTP header can carry' : 'no credential is made of'}: give the credential alone, on one line.`;

const lineFeed = 'a line feed (LF)';
const carriageReturn = 'a carriage return (CR)';

describe('webhook trigger and the sandbox: the client secret they send', () => {
  it('a client secret file with a second line: exit 2, naming the file, no token asked', async () => {
    const receiver = await countingServer();
    const file = join(temporaryFolder(), 'webhook-secret');
    writeFileSync(file, `${clientSecret}\nsecond line\n`);
    chmodSync(file, 0o600);
    const refused = await startRefused(
      ['webhook', 'trigger', 'orders', '--url', receiver.url, '--style', 'headers', '--client-id', 'erp'].concat([
        '--client-secret-file',
        file,
      ]),
      {},
    );
    await receiver.close();
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      errorLines: [refusal(`The client secret file ${file}`, lineFeed)],
    });
    expect(receiver.received).toEqual([]);
  });

  it('B2BCTL_WEBHOOK_CLIENT_SECRET with a Windows line end inside: exit 2, naming it, no token asked', async () => {
    const receiver = await countingServer();
    const refused = await startRefused(['webhook', 'trigger', 'orders', '--url', receiver.url, '--client-id', 'erp'], {
      B2BCTL_WEBHOOK_CLIENT_SECRET: `${clientSecret}\r\nX-Forged: 1`,
    });
    await receiver.close();
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      errorLines: [refusal('B2BCTL_WEBHOOK_CLIENT_SECRET', carriageReturn)],
    });
    expect(receiver.received).toEqual([]);
  });

  it.each([
    ['B2BCTL_WEBHOOK_CLIENT_SECRET', [], carriageReturn, false],
    ['B2BCTL_TAX_CLIENT_SECRET', ['--tax-client-id', 'plataforma'], lineFeed, false],
    ['B2BCTL_TAX_TOKEN', [], lineFeed, true],
  ] as const)(
    'sandbox with %s holding a line break: exit 2, naming it, not started',
    async (variable, flags, shown, header) => {
      const target = await countingServer();
      const refused = await startRefused(
        [
          'sandbox',
          '--port',
          '0',
          '--webhook-url',
          target.url,
          '--tax-callback',
          `${target.url}/tax`,
          '--webhook-client-id',
          'erp',
          ...flags,
        ],
        {
          B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret,
          [variable]: `secret-part${shown === lineFeed ? '\n' : '\r'}X-Forged: 1`,
        },
      );
      await target.close();
      expect(refused).toEqual({ code: 2, stdout: '', errorLines: [refusal(variable, shown, header)] });
      expect(target.received).toEqual([]);
    },
  );
});

describe("the ERP's forward credential", () => {
  it.each([
    [
      'B2BCTL_WEBHOOK_FORWARD_TOKEN with a line feed',
      { B2BCTL_WEBHOOK_FORWARD_TOKEN: 'erp-token\nX-Forged: 1' },
      '',
      refusal('B2BCTL_WEBHOOK_FORWARD_TOKEN', lineFeed, true),
    ],
    [
      'B2BCTL_WEBHOOK_FORWARD_BASIC with a carriage return inside',
      { B2BCTL_WEBHOOK_FORWARD_BASIC: 'erp:pass\rword' },
      '',
      refusal('B2BCTL_WEBHOOK_FORWARD_BASIC', carriageReturn),
    ],
    [
      'a --forward-to password holding %0A',
      {},
      'erp:pass%0Aword@',
      refusal('The password in the --forward-to URL', lineFeed),
    ],
  ])('webhook listen, %s: exit 2, naming it, not listening', async (_case, env, userInfo, line) => {
    const erp = await countingServer();
    const refused = await startRefused(
      ['webhook', 'listen', '--port', '0', '--client-id', 'erp', '--inbox', temporaryFolder()].concat([
        '--forward-to',
        erp.url.replace('//', `//${userInfo}`),
      ]),
      { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret, ...env },
    );
    await erp.close();
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    // The credential written in the URL is also warned about (the process list shows it): the refusal is the error.
    expect(refused.errorLines.filter((each) => each.startsWith('error:'))).toEqual([line]);
    expect(erp.received).toEqual([]);
  });

  it('webhook replay --to with B2BCTL_WEBHOOK_FORWARD_TOKEN holding a line break: exit 2, nothing replayed', async () => {
    const inbox = await inboxWithOneEvent();
    const erp = await countingServer();
    const refused = await startRefused(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', `${erp.url}/hooks`],
      {
        B2BCTL_WEBHOOK_FORWARD_TOKEN: 'erp-token\nX-Forged: 1',
      },
    );
    await erp.close();
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      errorLines: [refusal('B2BCTL_WEBHOOK_FORWARD_TOKEN', lineFeed, true)],
    });
    expect(erp.received).toEqual([]);
  });

  it('tax serve --forward-to with B2BCTL_TAX_FORWARD_BASIC holding a line break: exit 2, not started', async () => {
    const erp = await countingServer();
    const refused = await startRefused(
      ['tax', 'serve', '--rules', join(repoRoot, 'samples', 'impostos.csv'), '--port', '0', '--auth', 'none'].concat([
        '--forward-to',
        `${erp.url}/tax`,
      ]),
      { B2BCTL_TAX_FORWARD_BASIC: 'erp:pass\nword' },
    );
    await erp.close();
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      errorLines: [refusal('B2BCTL_TAX_FORWARD_BASIC', lineFeed)],
    });
    expect(erp.received).toEqual([]);
  });
});

describe("the webhook sender and a token endpoint's answer", () => {
  it('a token holding a line break is said of the token step, not as a network that cannot be reached; no event sent', async () => {
    const receiver = await countingServer((url) =>
      url.startsWith('/oauth/token') ? [200, JSON.stringify({ access_token: 'tok\nX-Forged: 1' })] : [200, ''],
    );
    const outcome = await deliverWebhook(
      {
        url: receiver.url,
        style: 'basic',
        clientId: 'erp',
        clientSecret,
        tokenPath: '/oauth/token',
        customersPath: '/webhooks/customers',
        ordersPath: '/webhooks/orders',
      },
      'orders',
      sampleEvent('orders', new Date('2026-11-23T06:00:00Z')),
      { urlFlag: '--url', env: {} },
    );
    await receiver.close();
    expect(outcome).toEqual({
      delivered: false,
      steps: [
        {
          step: 'token',
          url: `${receiver.url}/oauth/token`,
          status: 200,
          error: "the answer's access_token holds a line feed (LF), which no HTTP header can carry",
        },
      ],
    });
    expect(receiver.received).toEqual(['POST /oauth/token']);
  });
});
