/**
 * A proxy variable that is no proxy address: a `%` in the password not written `%25` (`100%-off`, `%zz`), or a path,
 * query or fragment after the port. undici took the first for an address and failed at the first request with
 * `URI malformed`, the second with `invalid url` (exit 1, doctor printing nothing); b2bctl refuses both before anything
 * is sent, as it refuses an unencoded `/`: exit 2, naming the variable, the password masked (docs/networks.md).
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();

/** A listener standing for the proxy: it counts the connections made to it. */
let proxy: Server;
let proxyPort: number;
let proxyConnections = 0;
beforeAll(async () => {
  proxy = createServer((socket) => {
    proxyConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  removeTemporaryFolders();
});

const refusal = (shown: string) =>
  `HTTP_PROXY is not a proxy address (${shown}); write it as http://host:port or http://user:password@host:port, with a / : @ or % in the password written %2F %3A %40 %25.`;

/**
 * Every command refuses the proxy variables in `env` with `refused`, exit 2, before sending anything; doctor prints its
 * findings, the proxy's failed with it, and exits 2 (a user test: doctor printed no finding at all). No secret shown.
 */
async function expectRefusedEverywhere(env: Record<string, string>, refused: string, baseUrl = platform.url) {
  for (const args of [
    ['api', '/v1/ping'],
    ['sellers', 'list'],
    ['login', '--username', 'a@b.com', '--password-stdin'],
  ]) {
    const result = await runCommandLine(args, {
      configDir: freshConfigDir(),
      stdin: 'login-password\n',
      env: { ...env, B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'TOK-0123456789abcdef' },
    });
    const command = args.join(' ');
    expect({ command, code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
      command,
      code: 2,
      stderr: `error: ${refused}\n`,
      stdout: '',
    });
    expect(`${result.stdout}${result.stderr}`).not.toContain('SECRET');
  }
  const doctor = await runCommandLine(['doctor', '-o', 'json'], {
    configDir: freshConfigDir(),
    env: { ...env, B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'TOK-0123456789abcdef' },
  });
  const findings = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
  expect(findings.filter((finding) => ['proxy', 'token and routes'].includes(finding.check))).toEqual([
    { check: 'proxy', result: 'fail', detail: refused },
    { check: 'token and routes', result: 'skip', detail: 'nothing was sent: no command goes out with that proxy' },
  ]);
  expect(doctor.stderr).toBe(`error: doctor: 1 check failed (each finding’s "result" says which); proxy: ${refused}\n`);
  expect(doctor.code).toBe(2);
  expect(`${doctor.stdout}${doctor.stderr}`).not.toContain('SECRET');
}

describe('HTTP_PROXY that is no proxy address, for every command and doctor', () => {
  it.each([
    ['a bare % in the password', (port: number) => `http://u:100%-SECRET@127.0.0.1:${port}`, ''],
    ['a % and no hex digits in the password', (port: number) => `http://u:%zz-SECRET@127.0.0.1:${port}`, ''],
    ['a % in the user name', (port: number) => `http://u%-x:pw-SECRET@127.0.0.1:${port}`, ''],
    ['a path and a query', (port: number) => `http://u:pw-SECRET@127.0.0.1:${port}/path?x=1`, '/path?x=1'],
    ['a fragment', (port: number) => `http://u:pw-SECRET@127.0.0.1:${port}/#top`, '/#top'],
  ])('%s: exit 2 naming HTTP_PROXY, the password masked, nothing sent', async (_case, proxyValue, after) => {
    const value = proxyValue(proxyPort);
    const user = value.slice('http://'.length, value.indexOf(':', 'http://'.length));
    const shown = `http://${user}:[redacted]@127.0.0.1:${proxyPort}${after}`;
    await expectRefusedEverywhere({ HTTP_PROXY: value }, refusal(shown));
    expect(proxyConnections).toBe(0);
    expect(platform.received).toEqual([]);
  });

  it('a % written %25 and a trailing / are an address: the request goes to the proxy', async () => {
    const result = await runCommandLine(['api', '/v1/ping'], {
      configDir: freshConfigDir(),
      env: {
        HTTP_PROXY: `http://u:100%25-SECRET@127.0.0.1:${proxyPort}/`,
        B2BCTL_BASE_URL: platform.url,
        B2BCTL_TOKEN: 'TOK-0123456789abcdef',
        B2BCTL_RETRIES: '0',
      },
    });
    // The stand-in proxy hangs up: what matters is that the request was made through it.
    expect(result.code).toBe(69);
    expect(result.stderr).not.toContain('not a proxy address');
    expect(result.stderr).not.toContain('SECRET');
    expect(proxyConnections).toBeGreaterThan(0);
  });
});

describe('a proxy variable of another scheme than http:// (a user test: undici\'s "Invalid URL protocol", exit 1)', () => {
  it.each([
    ['HTTP_PROXY', 'ftp'],
    ['HTTP_PROXY', 'socks4'],
    ['HTTP_PROXY', 'socks5'],
    ['HTTP_PROXY', 'https'],
    ['http_proxy', 'socks5h'],
  ])('%s=%s://…: refused at start, exit 2, naming the variable and the scheme taken', async (variable, scheme) => {
    const value = `${scheme}://u:pw-SECRET@127.0.0.1:${proxyPort}`;
    const before = proxyConnections;
    await expectRefusedEverywhere(
      { [variable]: value },
      `${variable} is not an http:// proxy address (${scheme}://u:[redacted]@127.0.0.1:${proxyPort}): b2bctl reaches a proxy by http:// only, not ${scheme}://; write it as http://host:port (the proxy's plain-HTTP port), or unset it.`,
    );
    expect(proxyConnections).toBe(before);
    expect(platform.received).toEqual([]);
  });

  it('HTTPS_PROXY=socks4://… for an https base URL: the same refusal, naming HTTPS_PROXY', async () => {
    const before = proxyConnections;
    await expectRefusedEverywhere(
      { HTTPS_PROXY: `socks4://127.0.0.1:${proxyPort}` },
      `HTTPS_PROXY is not an http:// proxy address (socks4://127.0.0.1:${proxyPort}): b2bctl reaches a proxy by http:// only, not socks4://; write it as http://host:port (the proxy's plain-HTTP port), or unset it.`,
      'https://localhost:9',
    );
    expect(proxyConnections).toBe(before);
  });
});

describe('ALL_PROXY, which curl reads and b2bctl does not', () => {
  it('requests go direct, and doctor warns that it is set and not read', async () => {
    const before = proxyConnections;
    const env = {
      ALL_PROXY: `http://127.0.0.1:${proxyPort}`,
      B2BCTL_BASE_URL: platform.url,
      B2BCTL_TOKEN: 'TOK-0123456789abcdef',
    };
    platform.routes['GET /v1/ping'] = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    };
    const api = await runCommandLine(['api', '/v1/ping'], { configDir: freshConfigDir(), env });
    expect(api.code).toBe(0);
    const doctor = await runCommandLine(['doctor', '-o', 'json'], { configDir: freshConfigDir(), env });
    const findings = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
    expect(findings.find((finding) => finding.check === 'proxy')).toEqual({
      check: 'proxy',
      result: 'warn',
      detail:
        'direct (no HTTPS_PROXY or HTTP_PROXY set); ALL_PROXY is set, and b2bctl does not read it (curl does): set HTTPS_PROXY or HTTP_PROXY to go through a proxy',
    });
    expect(platform.received[0]).toBe('GET /v1/ping');
    expect(proxyConnections).toBe(before);
  });
});
