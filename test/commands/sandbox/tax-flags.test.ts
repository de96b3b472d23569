import { afterAll, describe, expect, it } from 'vitest';
import { run, type SandboxCommandOptions } from '../../../src/commands/sandbox/run.js';
import { ExitCode, type B2bctlError } from '../../../src/base/errors.js';
import { seedDirectory } from '../../support/sandbox.js';
import { type ErpAnswer, type ErpRequest, standInErp } from '../../support/stand-in-erp.js';
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

/** Echoes each request whole: a token endpoint its Authorization and body, the callback its Authorization. */
const echoWhole = (request: ErpRequest): ErpAnswer =>
  request.url.startsWith('/oauth/token')
    ? { status: 400, body: JSON.stringify({ message: `bad client ${request.authorization} body ${request.body}` }) }
    : { status: 401, body: JSON.stringify({ message: `bad credential ${request.authorization}` }) };

/** The client secret a token request carried, in its body (JSON or a form). */
const sentSecret = (request: ErpRequest) =>
  request.body.includes('clientSecret')
    ? (JSON.parse(request.body) as { clientSecret: string }).clientSecret
    : (new URLSearchParams(request.body).get('client_secret') ?? '');

/**
 * A user test: an auth layer echoing what it was sent (`bad credential Bearer …`, a token endpoint quoting the request),
 * relayed whole in the 502 to whoever posts /_sandbox/orders, which needs no credential.
 */
describe('sandbox --tax-callback: what the callback echoes of its secrets is masked in the 502', () => {
  const taxToken = 'sbTaxTokenSECRET0123456789abcdefXYZ';
  // Random-looking, as a real one is: a run of 8 characters of a secret is masked wherever it stands, so a secret
  // spelling `ClientSecret` would mask the key `clientSecret` of the body it is quoted in too.
  const clientSecret = 'Sb7qXm2Rv9Tk0123456789abcdef0123456789ab';
  const basic = Buffer.from(`plat:${clientSecret}`).toString('base64');
  const cart = {
    customer: { document: '12.345.678/0001-95', paysIcms: true },
    state: 'MG',
    items: [{ sku: 'A', ncm: '84713012', quantity: 1, unitPrice: 10 }],
  };

  /** The sandbox with `flags` and `env` in process, its callback a stand-in answering as `erpAnswer` says: one cart posted. */
  async function postedCart(
    flags: Partial<SandboxCommandOptions>,
    env: Record<string, string>,
    erpAnswer: (request: ErpRequest) => ErpAnswer = echoWhole,
  ) {
    const erp = await standInErp(erpAnswer);
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

  // A user test: a secret quoted cut, upper-cased or in base64 was shown; only a whole one was masked.
  const oddSecret = 'Sé+cr/et=with&odd chars:0123456789abcdef';
  it.each([
    ['cut to 20 characters', (secret: string) => `invalid client secret ${secret.slice(0, 20)}...`],
    ['upper-cased and cut', (secret: string) => `bad secret ${secret.toUpperCase().slice(0, 34)}…`],
    ['in base64, cut', (secret: string) => `bad secret ${Buffer.from(secret).toString('base64').slice(0, 28)}…`],
  ])('the client secret a token endpoint quotes %s', async (_case, quote) => {
    const { status, body } = await postedCart(
      { taxClientId: 'plat', taxStyle: 'body' },
      { B2BCTL_TAX_CLIENT_SECRET: oddSecret },
      (request) => ({ status: 401, body: JSON.stringify({ error_description: quote(sentSecret(request)) }) }),
    );
    expect(status).toBe(502);
    const message = (JSON.parse(body) as { message: string }).message;
    expect(message).toContain('[redacted]');
    const shown = JSON.parse(message.slice(message.indexOf('{'))) as { error_description: string };
    for (const piece of [oddSecret, oddSecret.toUpperCase(), Buffer.from(oddSecret).toString('base64')])
      for (let start = 0; start + 8 <= piece.length; start++)
        expect(shown.error_description).not.toContain(piece.slice(start, start + 8));
  });

  it('the first 12 characters of the token it issued, which the callback quotes', async () => {
    const issued = 'tok-SECRET-ISSUED-0123456789abcdef';
    const { status, body } = await postedCart(
      { taxClientId: 'plat', taxStyle: 'body' },
      { B2BCTL_TAX_CLIENT_SECRET: clientSecret },
      (request) =>
        request.url.startsWith('/oauth/token')
          ? { status: 200, type: 'application/json', body: JSON.stringify({ access_token: issued, expires_in: 3600 }) }
          : { status: 401, body: JSON.stringify({ message: `bad credential ${issued.slice(0, 12)}` }) },
    );
    expect(status).toBe(502);
    expect(JSON.parse(body)).toMatchObject({
      message: 'the tax callback answered HTTP 401: {"message":"bad credential [redacted]"}',
    });
  });

  it('words of the answer that hold no run of 8 characters of a secret are left as they were', async () => {
    const { body } = await postedCart(
      { taxClientId: 'plat', taxStyle: 'body' },
      { B2BCTL_TAX_CLIENT_SECRET: oddSecret },
      () => ({
        status: 401,
        body: JSON.stringify({ error_description: 'invalid secret Sé+cr/e (0123456 chars)' }),
      }),
    );
    expect(body).toContain('invalid secret Sé+cr/e (0123456 chars)');
  });
});
