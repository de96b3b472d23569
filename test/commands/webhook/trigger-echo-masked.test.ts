/**
 * A receiver that refuses and quotes back what it got (a debug-style `client not allowed: <the credential>`, a
 * validation framework's `value [Bearer …] is not allowed`) had `webhook trigger` print the client secret, its Basic
 * form and the receiver's token unmasked on stdout, in every output format (a user test).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/webhook/trigger.js';
import type { TokenStyle } from '../../../src/http-server/tokens.js';
import { clientId, clientSecret, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeReceiverFolders);

const issuedToken = 'RecvTok_abcdefghijklmnop';
const basicCredential = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');

/**
 * A receiver that echoes what it was sent: its token route refuses (`refuse`) quoting the request's Authorization,
 * headers and body, or issues issuedToken; its event route refuses quoting the Authorization it got.
 */
async function echoingReceiver(refuseToken: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const json = { 'content-type': 'application/json' };
      if (request.url?.startsWith('/oauth/token') && !refuseToken)
        return response.writeHead(200, json).end(JSON.stringify({ access_token: issuedToken, expires_in: 3600 }));
      if (request.url?.startsWith('/oauth/token')) {
        const got = `${request.headers.authorization ?? ''} ${request.headers.password ?? ''} ${body}`;
        return response
          .writeHead(401, json)
          .end(JSON.stringify({ error: 'invalid_client', error_description: `client not allowed: ${got}` }));
      }
      response
        .writeHead(422, json)
        .end(JSON.stringify({ message: `value [${request.headers.authorization}] is not allowed` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Printed = 'terminal' | 'ndjson' | 'json' | 'csv';

/** `webhook trigger orders` against the receiver, printed as asked: its stdout and exit code. */
async function trigger(url: string, style: TokenStyle, printed: Printed): Promise<{ code: number; stdout: string }> {
  const memory = testContext({
    env: { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret },
    tty: { stdout: printed === 'terminal' },
    globals: { output: printed === 'json' || printed === 'csv' ? printed : undefined },
  });
  const code = await memory.run(run, { kind: 'orders', url, style, clientId });
  return { code, stdout: memory.stdout() };
}

const secretsSent = [clientSecret, basicCredential, issuedToken];

describe('webhook trigger masks what a refusing receiver quotes back of the secrets it sent', () => {
  it.each([
    ['basic', 'ndjson'],
    ['basic', 'json'],
    ['basic', 'csv'],
    ['body', 'json'],
    ['body', 'csv'],
    ['headers', 'ndjson'],
  ] as const)(
    'the token step refused (%s style), printed as %s: the client secret and its Basic form masked',
    async (style, printed) => {
      const receiver = await echoingReceiver(true);
      const { code, stdout } = await trigger(receiver.url, style, printed);
      await receiver.close();
      expect(code).toBe(77);
      expect(stdout).toContain('client not allowed: ');
      expect(stdout).toContain('[redacted]');
      for (const secret of secretsSent) expect(stdout).not.toContain(secret);
    },
  );

  it.each(['terminal', 'ndjson', 'json', 'csv'] as const)(
    'the event step refused, printed as %s: the Bearer token it quotes masked',
    async (printed) => {
      const receiver = await echoingReceiver(false);
      const { code, stdout } = await trigger(receiver.url, 'basic', printed);
      await receiver.close();
      expect(code).not.toBe(0);
      expect(stdout).toMatch(/value \[Bearer \[redacted\]\] is not allowed/);
      for (const secret of secretsSent) expect(stdout).not.toContain(secret);
    },
  );
});
