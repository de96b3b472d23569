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
  `error: HTTP_PROXY is not a proxy address (${shown}); write it as http://host:port or http://user:password@host:port, with a / : @ or % in the password written %2F %3A %40 %25.`;

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
    for (const args of [
      ['api', '/v1/ping'],
      ['doctor', '-o', 'json'],
      ['sellers', 'list'],
      ['login', '--username', 'a@b.com', '--password-stdin'],
    ]) {
      const result = await runCommandLine(args, {
        configDir: freshConfigDir(),
        stdin: 'login-password\n',
        env: { HTTP_PROXY: value, B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'TOK-0123456789abcdef' },
      });
      const command = args.join(' ');
      expect({ command, code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
        command,
        code: 2,
        stderr: `${refusal(shown)}\n`,
        stdout: '',
      });
      expect(`${result.stdout}${result.stderr}`).not.toContain('SECRET');
    }
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
