import { afterAll, describe, expect, it } from 'vitest';
import { run, type SandboxCommandOptions } from '../../../src/commands/sandbox/run.js';
import { ExitCode, type B2bctlError } from '../../../src/base/errors.js';
import { seedDirectory } from '../../support/sandbox.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeTemporaryFolders);

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

/**
 * A user test: an auth layer echoing what it was sent (`bad credential Bearer …`, a token endpoint quoting the request),
 * relayed whole in the 502 to whoever posts /_sandbox/orders, which needs no credential.
 */
describe('sandbox --tax-callback: what the callback echoes of its secrets is masked in the 502', () => {
  const taxToken = 'sbTaxTokenSECRET0123456789abcdefXYZ';
  const clientSecret = 'SbClientSecret0123456789abcdef0123456789ab';
  const basic = Buffer.from(`plat:${clientSecret}`).toString('base64');
  const cart = {
    customer: { document: '12.345.678/0001-95', paysIcms: true },
    state: 'MG',
    items: [{ sku: 'A', ncm: '84713012', quantity: 1, unitPrice: 10 }],
  };

  /** The sandbox with `flags` and `env` in process, its callback a stand-in echoing each request: one cart posted. */
  async function postedCart(flags: Partial<SandboxCommandOptions>, env: Record<string, string>) {
    const erp = await standInErp((request) =>
      request.url.startsWith('/oauth/token')
        ? { status: 400, body: JSON.stringify({ message: `bad client ${request.authorization} body ${request.body}` }) }
        : { status: 401, body: JSON.stringify({ message: `bad credential ${request.authorization}` }) },
    );
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder(), ...env } });
    const running = run({ port: 0, seed: seedDirectory, taxCallback: `${erp.url}/tax`, ...flags }, memory.context);
    const url = (await memory.firstLine()).trim();
    const answer = await fetch(`${url}/_sandbox/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(cart),
    });
    const body = await answer.text();
    memory.interrupt();
    await running;
    await erp.close();
    return { status: answer.status, body, sent: erp.received };
  }

  it('the tax token a 401 quotes', async () => {
    const { status, body, sent } = await postedCart({}, { B2BCTL_TAX_TOKEN: taxToken });
    expect(sent.map((request) => request.authorization)).toEqual([`Bearer ${taxToken}`]);
    expect(status).toBe(502);
    expect(JSON.parse(body)).toMatchObject({
      message: 'the tax callback answered HTTP 401: {"message":"bad credential Bearer [redacted]"}',
    });
    expect(body).not.toContain(taxToken);
  });

  it.each([
    ['basic', `bad client Basic [redacted] body grant_type=client_credentials`],
    ['body', `bad client undefined body {\\"clientId\\":\\"plat\\",\\"clientSecret\\":\\"[redacted]\\"}`],
  ] as const)(
    'the client secret (and its Basic header) a token endpoint quotes, --tax-style %s',
    async (style, said) => {
      const { status, body, sent } = await postedCart(
        { taxClientId: 'plat', taxStyle: style },
        { B2BCTL_TAX_CLIENT_SECRET: clientSecret },
      );
      expect(sent).toHaveLength(1);
      expect(status).toBe(502);
      expect(JSON.parse(body)).toMatchObject({
        message: expect.stringContaining(`gave no token: HTTP 400: {"message":"${said}"}`),
      });
      expect(body).not.toContain(clientSecret);
      expect(body).not.toContain(basic);
    },
  );
});
