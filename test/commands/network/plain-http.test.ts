/**
 * A credential never goes over plain HTTP to another machine unless the user says --allow-http: the login password,
 * a webhook client secret, a --forward-to or --to URL with user-info or a key in its query. A listener on every
 * interface stands in for the other machine, reached at this machine's own non-loopback address, and counts what
 * reached it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkTls } from '../../../src/commands/doctor/network-checks.js';
import { isLoopbackHost } from '../../../src/net/plain-http.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { temporaryFolder } from '../../support/temporary.js';

const address = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && !entry.internal && entry.family === 'IPv4')?.address;
const network = requireThat(address !== undefined, 'this machine has no non-loopback IPv4 address');

let server: Server;
let port: number;
const received: string[] = [];
/** The requests that carried an Authorization header. */
const authorized: string[] = [];

beforeAll(async () => {
  server = createServer((request, answer) => {
    received.push(`${request.method} ${request.headers.host}${request.url}`);
    if (request.headers.authorization !== undefined) authorized.push(`${request.method} ${request.url}`);
    // A token for a login, 401 for anything else: enough to tell what was sent.
    if (request.method === 'POST' && request.url === '/v1/auth/token')
      answer
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"access_token":"t-1","token_type":"Bearer","expires_in":3600}');
    else answer.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received.length = 0;
  authorized.length = 0;
});

const secretEnv = { B2BCTL_WEBHOOK_CLIENT_SECRET: 'a'.repeat(64) };
const refusal =
  /^error: Refusing to send (.+) to http:\/\/([\d.]+):(\d+)(\S*) over plain HTTP: anyone on the network between here and \2 can read it\. Use the https:\/\/ address, or pass --allow-http if that network is trusted\.$/m;

/** The other machine's address, once its server listens. */
const remoteBase = () => `http://${address}:${port}`;

describe.skipIf(network.missing)(`plain HTTP to another machine${network.note}`, () => {
  it('login refuses to send the password (exit 2), before asking for it; nothing reaches the server', async () => {
    const result = await runCommandLine(['login', '--base-url', remoteBase(), '--username', 'erp@store.test'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_PASSWORD: 'Senha#2001' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(refusal);
    expect(result.stderr).toContain('Refusing to send the password to');
    expect(result.stderr).not.toContain('Senha#2001');
    expect(received).toEqual([]);
  });

  it('login --token-stdin refuses to send the token to be checked; --no-verify sends nothing and is allowed', async () => {
    const configDir = freshConfigDir();
    const checked = await runCommandLine(['login', '--base-url', remoteBase(), '--token-stdin'], {
      configDir,
      stdin: 'pre-issued-token\n',
    });
    expect(checked.code).toBe(2);
    expect(checked.stderr).toContain('Refusing to send the token to');
    const stored = await runCommandLine(['login', '--base-url', remoteBase(), '--token-stdin', '--no-verify'], {
      configDir,
      stdin: 'pre-issued-token\n',
    });
    expect(stored.code).toBe(0);
    expect(received).toEqual([]);
  });

  it('login --allow-http sends it and lets the profile log in again by itself over plain HTTP', async () => {
    const configDir = freshConfigDir();
    const result = await runCommandLine(
      ['login', '--base-url', remoteBase(), '--username', 'erp@store.test', '--allow-http'],
      { configDir, env: { B2BCTL_PASSWORD: 'Senha#2001' } },
    );
    expect(result.stderr).not.toContain('Refusing');
    expect(result.code).toBe(0);
    expect(received).toEqual([`POST ${address}:${port}/v1/auth/token`]);
    expect((await runCommandLine(['config', 'get', 'http.allowPlain'], { configDir })).stdout.trim()).toBe('true');
  });

  it('an automatic login with B2BCTL_PASSWORD is refused too (exit 2), unless http.allowPlain', async () => {
    const env = { B2BCTL_BASE_URL: remoteBase(), B2BCTL_USERNAME: 'erp@store.test', B2BCTL_PASSWORD: 'Senha#2001' };
    const refused = await runCommandLine(['sellers', 'list'], { configDir: freshConfigDir(), env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `Refusing to send the password (B2BCTL_PASSWORD) to ${remoteBase()}/ over plain HTTP: anyone on the network between here and ${address} can read it. Use the https:// address, or set http.allowPlain (B2BCTL_ALLOW_HTTP=true) if that network is trusted.`,
    );
    expect(received).toEqual([]);
    await runCommandLine(['sellers', 'list'], {
      configDir: freshConfigDir(),
      env: { ...env, B2BCTL_ALLOW_HTTP: 'true' },
    });
    expect(received[0]).toBe(`POST ${address}:${port}/v1/auth/token`);
  });

  it('doctor does not try the login over plain HTTP to another machine, and says why', async () => {
    const env = { B2BCTL_BASE_URL: remoteBase(), B2BCTL_USERNAME: 'erp@store.test', B2BCTL_PASSWORD: 'Senha#2001' };
    const result = await runCommandLine(['doctor', '-o', 'json'], { configDir: freshConfigDir(), env });
    expect(result.stdout).toContain('not tried: the password would cross the network in plain HTTP');
    expect(result.stdout).not.toContain('Senha#2001');
    expect(received.filter((request) => request.startsWith('POST'))).toEqual([]);
  });

  it('doctor does not probe the routes with a token over plain HTTP to another machine (B2BCTL_TOKEN, or cached)', async () => {
    const env = { B2BCTL_BASE_URL: remoteBase(), B2BCTL_TOKEN: 'env-token-of-the-test' };
    const result = await runCommandLine(['doctor', '-o', 'json'], { configDir: freshConfigDir(), env });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('not tried: the token would cross the network in plain HTTP');
    // Its reachability check asks for / without any credential; nothing else goes.
    expect(authorized).toEqual([]);
    const allowed = await runCommandLine(['doctor', '-o', 'json'], {
      configDir: freshConfigDir(),
      env: { ...env, B2BCTL_ALLOW_HTTP: 'true' },
    });
    expect(allowed.stdout).not.toContain('not tried');
    expect(authorized.length).toBeGreaterThan(0);
  });

  it('webhook trigger refuses to send the client secret (exit 2); nothing reaches the receiver', async () => {
    const result = await runCommandLine(['webhook', 'trigger', 'orders', '--url', remoteBase(), '--client-id', 'erp'], {
      configDir: freshConfigDir(),
      env: secretEnv,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(refusal);
    expect(result.stderr).toContain('Refusing to send the client secret to');
    expect(received).toEqual([]);
  });

  it.each([
    ['user-info', (base: string) => `${base.replace('http://', 'http://erp:pw-123@')}/hook`],
    ['an api_key in the query', (base: string) => `${base}/hook?api_key=pw-123`],
  ])(
    'webhook listen --forward-to with %s is refused before listening (exit 2), the secret not shown',
    async (_name, url) => {
      const inbox = temporaryFolder();
      const result = await runCommandLine(
        ['webhook', 'listen', '--port', '0', '--client-id', 'erp', '--inbox', inbox, '--forward-to', url(remoteBase())],
        { configDir: freshConfigDir(), env: secretEnv },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Refusing to send the credential in the URL (user-info or query) to');
      expect(result.stderr).not.toContain('pw-123');
      expect(result.stdout).toBe('');
    },
  );

  it('webhook replay --to with user-info is refused (exit 2)', async () => {
    const result = await runCommandLine(
      [
        'webhook',
        'replay',
        '--id',
        '1',
        '--inbox',
        temporaryFolder(),
        '--to',
        remoteBase().replace('http://', 'http://erp:pw-123@'),
      ],
      { configDir: freshConfigDir() },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Refusing to send the credential in the URL');
  });

  // The names the logs mask as credentials are the ones refused (a user test: these went out in clear).
  it.each(['code', 'jwt', 'senha', 'chave'])(
    'webhook replay --to with ?%s= is refused (exit 2), nothing sent, the value not shown',
    async (name) => {
      const inbox = await inboxWithOneEvent();
      const result = await runCommandLine(
        ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', `${remoteBase()}/hook?${name}=pw-123`],
        { configDir: freshConfigDir() },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(refusal);
      expect(result.stderr).toContain('Refusing to send the credential in the URL (user-info or query) to');
      expect(result.stderr).not.toContain('pw-123');
      expect(received).toEqual([]);
    },
  );

  // Names the logs show are no credential (a user test: these were refused).
  it.each(['sortKey=date', 'author=ana'])('webhook replay --to with ?%s is sent, not refused', async (query) => {
    const inbox = await inboxWithOneEvent();
    const result = await runCommandLine(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--attempts', '1', '--to', `${remoteBase()}/hook?${query}`],
      { configDir: freshConfigDir() },
    );
    // The stand-in answers 401: the event was sent, and failed there.
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('Refusing');
    expect(received).toEqual([`POST ${address}:${port}/hook?${query}`]);
  });

  it('webhook listen does not send the ERP token (B2BCTL_WEBHOOK_FORWARD_TOKEN) over plain HTTP: exit 2', async () => {
    const result = await runCommandLine(
      [
        'webhook',
        'listen',
        '--port',
        '0',
        '--client-id',
        'erp',
        '--inbox',
        temporaryFolder(),
        '--forward-to',
        `${remoteBase()}/hook`,
      ],
      { configDir: freshConfigDir(), env: { ...secretEnv, B2BCTL_WEBHOOK_FORWARD_TOKEN: 'erp-token-123' } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: Refusing to send the ERP token (B2BCTL_WEBHOOK_FORWARD_TOKEN) to ${remoteBase()}/hook over plain HTTP: anyone on the network between here and ${address} can read it. Use the https:// address, or pass --allow-http if that network is trusted.\n`,
    );
    expect(result.stdout).toBe('');
  });

  it('the token is not sent over plain HTTP either (B2BCTL_TOKEN, or a base URL changed after login): exit 2, nothing sent', async () => {
    const refused = await runCommandLine(['api', '/v1/contracts'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: remoteBase(), B2BCTL_TOKEN: 'pre-issued-token' },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `error: Refusing to send the token to ${remoteBase()}/ over plain HTTP: anyone on the network between here and ${address} can read it. Use the https:// address, or set http.allowPlain (B2BCTL_ALLOW_HTTP=true) if that network is trusted.`,
    );
    expect(refused.stderr).not.toContain('pre-issued-token');
    expect(received).toEqual([]);
    // A profile logged in on this machine whose base URL is then set to another: the token cached for the first is
    // forgotten, so nothing is sent and the user is told to log in.
    const configDir = freshConfigDir();
    await runCommandLine(['login', '--base-url', `http://127.0.0.1:${port}`, '--username', 'erp@store.test'], {
      configDir,
      env: { B2BCTL_PASSWORD: 'Senha#2001' },
    });
    received.length = 0;
    const moved = await runCommandLine(['config', 'set', 'baseUrl', remoteBase()], { configDir });
    expect(moved.stderr).toContain(
      `The token cached for http://127.0.0.1:${port} is forgotten: it was issued there. Run b2bctl login for the new base URL.`,
    );
    const after = await runCommandLine(['api', '/v1/contracts'], { configDir });
    expect(after.code).toBe(77);
    expect(received).toEqual([]);
  });

  it('a password for this machine through a proxy on another is refused: it would cross the network to the proxy', async () => {
    const result = await runCommandLine(
      ['login', '--base-url', `http://127.0.0.1:${port}`, '--username', 'erp@store.test'],
      { configDir: freshConfigDir(), env: { B2BCTL_PASSWORD: 'Senha#2001', HTTP_PROXY: remoteBase() } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `error: Refusing to send the password to http://127.0.0.1:${port}/ over plain HTTP: anyone on the network between here and the proxy ${address} (set NO_PROXY=127.0.0.1 to go direct) can read it.`,
    );
    expect(received).toEqual([]);
    // NO_PROXY naming this machine: direct, on loopback, allowed.
    const direct = await runCommandLine(
      ['login', '--base-url', `http://127.0.0.1:${port}`, '--username', 'erp@store.test'],
      {
        configDir: freshConfigDir(),
        env: { B2BCTL_PASSWORD: 'Senha#2001', HTTP_PROXY: remoteBase(), NO_PROXY: '127.0.0.1' },
      },
    );
    expect(direct.code).toBe(0);
    expect(received).toEqual([`POST 127.0.0.1:${port}/v1/auth/token`]);
  });

  // A user test: a lower-case no_proxy hides NO_PROXY, so the advice names the variable that is read.
  it.each([
    [
      { NO_PROXY: '127.0.0.1', no_proxy: 'example.com' },
      'add 127.0.0.1 to no_proxy to go direct: it is read instead of NO_PROXY',
    ],
    [{ NO_PROXY: '127.0.0.1', no_proxy: '' }, 'set no_proxy=127.0.0.1 to go direct: it is read instead of NO_PROXY'],
    [{ no_proxy: 'example.com' }, 'add 127.0.0.1 to no_proxy to go direct)'],
    [{ NO_PROXY: 'example.com,.corp' }, 'add 127.0.0.1 to NO_PROXY to go direct)'],
  ])('through a proxy on another machine with %j: the advice names the variable in effect', async (noProxy, advice) => {
    const result = await runCommandLine(
      ['login', '--base-url', `http://127.0.0.1:${port}`, '--username', 'erp@store.test'],
      { configDir: freshConfigDir(), env: { B2BCTL_PASSWORD: 'Senha#2001', http_proxy: remoteBase(), ...noProxy } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`between here and the proxy ${address} (${advice}`);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(received).toEqual([]);
  });

  it('webhook listen --forward-to with user-info for this machine through a proxy on another is refused (exit 2)', async () => {
    const result = await runCommandLine(
      [
        'webhook',
        'listen',
        '--port',
        '0',
        '--client-id',
        'erp',
        '--inbox',
        temporaryFolder(),
        '--forward-to',
        `http://erp:pw-123@127.0.0.1:${port}/hook`,
      ],
      { configDir: freshConfigDir(), env: { ...secretEnv, HTTP_PROXY: remoteBase() } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`anyone on the network between here and the proxy ${address}`);
    expect(result.stderr).not.toContain('pw-123');
    expect(received).toEqual([]);
  });

  it.each([
    [['--tax-callback', 'REMOTE/tax'], { B2BCTL_TAX_TOKEN: 't'.repeat(40) }, 'the tax token (B2BCTL_TAX_TOKEN)'],
    [
      ['--tax-callback', 'REMOTE/tax', '--tax-client-id', 'plataforma'],
      { B2BCTL_TAX_CLIENT_SECRET: 's'.repeat(40) },
      'the tax client secret',
    ],
    [
      ['--webhook-url', 'REMOTE', '--webhook-client-id', 'erp'],
      { B2BCTL_WEBHOOK_CLIENT_SECRET: 'w'.repeat(40) },
      'the webhook client secret',
    ],
  ])('the sandbox refuses to send its credentials in clear to another machine (%j)', async (flags, env, credential) => {
    const result = await runCommandLine(
      ['sandbox', '--port', '0', ...flags.map((flag) => flag.replace('REMOTE', remoteBase()))],
      { configDir: freshConfigDir(), env },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Refusing to send ${credential} to ${remoteBase()}`);
    // No flag lets the sandbox's credentials through: what to do is said once (it read "Use the https:// address,
    // or use an https:// --tax-callback if that network is trusted").
    expect(result.stderr).toContain('can read it. Use the https:// address.\n');
    expect(result.stderr).not.toContain('if that network is trusted');
    expect(received).toEqual([]);
  });

  it('a name under localhost is not this machine: the resolver may ask the DNS server, so the password is refused', async () => {
    for (const host of ['evil.localhost', 'localhost.']) {
      const result = await runCommandLine(
        ['login', '--base-url', `http://${host}:${port}`, '--username', 'erp@store.test'],
        { configDir: freshConfigDir(), env: { B2BCTL_PASSWORD: 'Senha#2001' } },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        `error: Refusing to send the password to http://${host}:${port}/ over plain HTTP: anyone on the network between here and ${host} can read it.`,
      );
    }
    expect(received).toEqual([]);
  });

  it('a login to any loopback address is not refused', async () => {
    for (const host of ['127.0.0.2', '127.255.0.1', 'localhost']) {
      const result = await runCommandLine(
        ['login', '--base-url', `http://${host}:${port}`, '--username', 'erp@store.test'],
        { configDir: freshConfigDir(), env: { B2BCTL_PASSWORD: 'Senha#2001' } },
      );
      expect(result.stderr).not.toContain('Refusing');
      expect(result.code).toBe(0);
    }
    expect(received.length).toBe(3);
  });
});

describe('isLoopbackHost', () => {
  it('doctor calls plain HTTP to any 127.x address this machine, not a warning', async () => {
    const finding = await checkTls(new URL('http://127.0.0.5:8788'), { kind: 'direct' }, 1000);
    expect(finding).toMatchObject({ check: 'TLS', result: 'ok' });
    const remote = await checkTls(new URL('http://10.0.0.5:8788'), { kind: 'direct' }, 1000);
    expect(remote).toMatchObject({ check: 'TLS', result: 'warn' });
  });

  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    // Names the resolver may send to the DNS server, whose answer can be any machine.
    ['localhost.', false],
    ['app.localhost', false],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['[::1]', true],
    ['::1', true],
    [new URL('http://[::ffff:127.0.0.1]/').hostname, true],
    [new URL('http://2130706433/').hostname, true],
    ['10.0.0.5', false],
    ['128.0.0.1', false],
    ['[::2]', false],
    [new URL('http://[::ffff:10.0.0.1]/').hostname, false],
    ['localhost.example.com', false],
    ['127.0.0.1.example.com', false],
  ])('%s: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
