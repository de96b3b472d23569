import { EnvHttpProxyAgent } from 'undici';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeRoute,
  noProxyMatch,
  ProxySettingError,
  proxyRouteFor,
  redactProxyText,
  redactProxyUrl,
} from '../../../src/net/proxy-route.js';

const proxyOf = (url: string, env: Record<string, string>) => {
  const route = proxyRouteFor(new URL(url), env);
  return route.kind === 'proxy' ? route.proxy.host : route.kind;
};

describe('proxyRouteFor, as curl and undici read the variables', () => {
  it.each([
    ['http://store.example/', {}, 'direct'],
    ['http://store.example/', { HTTP_PROXY: 'http://upper:3128' }, 'upper:3128'],
    ['http://store.example/', { HTTP_PROXY: 'http://upper:3128', http_proxy: 'http://lower:3128' }, 'lower:3128'],
    ['https://store.example/', { HTTPS_PROXY: 'http://s:1', https_proxy: 'http://lower-s:1' }, 'lower-s:1'],
    ['https://store.example/', { HTTP_PROXY: 'http://plain:1' }, 'plain:1'],
    ['http://store.example/', { HTTPS_PROXY: 'http://s:1' }, 'direct'],
    // Set but empty, the lower-case variable hides the upper-case one.
    ['http://store.example/', { http_proxy: '', HTTP_PROXY: 'http://upper:3128' }, 'direct'],
    ['http://store.example/', { http_proxy: 'proxy.corp:8080' }, 'proxy.corp:8080'],
    ['http://127.0.0.1:8080/', { http_proxy: 'http://p:1' }, 'p:1'],
    ['http://localhost:8080/', { http_proxy: 'http://p:1' }, 'p:1'],
  ])('%s with %j: %s', (url, env, expected) => {
    expect(proxyOf(url, env)).toBe(expected);
  });

  it.each([
    ['https://api.store.example/', 'store.example', 'store.example'],
    ['https://api.store.example/', '.store.example', '.store.example'],
    ['https://api.store.example/', '*.store.example', '*.store.example'],
    ['https://store.example/', 'store.example:443', 'store.example:443'],
    ['https://store.example/', 'store.example:8443', undefined],
    ['https://notstore.example/', 'store.example', undefined],
    ['https://STORE.example/', 'localhost, store.EXAMPLE', 'store.EXAMPLE'],
    ['http://127.0.0.1:9/', '*', '*'],
    ['http://127.0.0.1:9/', '', undefined],
    // A user test: networks in CIDR, as curl reads them since 7.86, for a host written as an address.
    ['http://127.0.0.1:8600/', 'localhost,127.0.0.0/8', '127.0.0.0/8'],
    ['https://10.20.30.40/', '192.168.0.0/16, 10.0.0.0/8', '10.0.0.0/8'],
    ['https://192.168.1.7/', '192.168.1.0/24', '192.168.1.0/24'],
    ['https://192.168.2.7/', '192.168.1.0/24', undefined],
    ['https://10.0.0.1/', '10.0.0.1/32', '10.0.0.1/32'],
    ['https://10.0.0.2/', '10.0.0.1/32', undefined],
    ['https://203.0.113.9/', '0.0.0.0/0', '0.0.0.0/0'],
    ['http://[::1]:8600/', '::1/128', '::1/128'],
    ['http://[fd12:3456::7]/', 'fd00::/8', 'fd00::/8'],
    ['http://[fd12:3456::7]/', '[fd00::]/8', '[fd00::]/8'],
    ['http://[2001:db8::1]/', 'fd00::/8', undefined],
    // A name is not resolved to match a network, as curl does not: localhost is no address in 127.0.0.0/8.
    ['http://localhost:8600/', '127.0.0.0/8', undefined],
    // Of another family, or no network (a prefix past the address's bits, a name): holds nothing.
    ['http://127.0.0.1/', '::/0', undefined],
    ['http://127.0.0.1/', '127.0.0.0/33', undefined],
    ['http://127.0.0.1/', 'loopback/8', undefined],
    // An IPv6 address is an address, not a host `:` on port 1; brackets or not.
    ['http://[::1]:8600/', '::1', '::1'],
    ['http://[::1]:8600/', '[::1]', '[::1]'],
    ['http://[::1]:8600/', '[::1]:8600', '[::1]:8600'],
    ['http://[::1]:8600/', '[::1]:8601', undefined],
  ])('NO_PROXY: %s against %j matches %j', (url, noProxy, entry) => {
    expect(noProxyMatch(new URL(url), noProxy)).toBe(entry);
  });

  it('direct for an http:// URL with only HTTPS_PROXY set: the line says the variable is for https:// (doctor)', () => {
    const route = proxyRouteFor(new URL('http://store.example/'), { https_proxy: 'http://s:1' });
    expect(route).toEqual({ kind: 'direct', unused: 'https_proxy' });
    expect(describeRoute(route)).toBe(
      'direct: https_proxy is set, but it is for https:// addresses; an http:// one goes through HTTP_PROXY, which is not set',
    );
    expect(describeRoute(proxyRouteFor(new URL('http://store.example/'), {}))).toBe(
      'direct (no HTTPS_PROXY or HTTP_PROXY set)',
    );
  });

  it('no_proxy wins over NO_PROXY', () => {
    const route = proxyRouteFor(new URL('http://a.example/'), {
      http_proxy: 'http://p:1',
      no_proxy: 'b.example',
      NO_PROXY: 'a.example',
    });
    expect(route.kind).toBe('proxy');
  });

  describe('agrees with undici EnvHttpProxyAgent', () => {
    let proxy: { url: string; seen: string[]; server: Server };
    beforeAll(async () => {
      const seen: string[] = [];
      const server = createProxy(createServer());
      server.prependListener('request', (request: IncomingMessage) => seen.push(`${request.method} ${request.url}`));
      server.prependListener('connect', (request: IncomingMessage) => seen.push(`CONNECT ${request.url}`));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      proxy = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
    });
    afterAll(() => new Promise((resolve) => proxy.server.close(resolve)));

    it.each([
      ['http://a.invalid/', ''],
      ['http://api.a.invalid/', 'a.invalid'],
      ['http://api.a.invalid/', '.a.invalid'],
      ['http://a.invalid:8080/', 'a.invalid:8080'],
      ['http://a.invalid:8080/', 'a.invalid:9090'],
      ['http://127.0.0.1:9/', 'localhost'],
      ['http://127.0.0.1:9/', '127.0.0.1'],
      ['http://localhost:9/', 'localhost'],
      ['http://b.invalid/', 'a.invalid, c.invalid'],
      ['http://b.invalid/', '*'],
    ])('%s with NO_PROXY %j', async (url, noProxy) => {
      const ours = proxyRouteFor(new URL(url), { http_proxy: proxy.url, no_proxy: noProxy }).kind;
      const agent = new EnvHttpProxyAgent({ httpProxy: proxy.url, noProxy, connect: { timeout: 2000 } });
      const before = proxy.seen.length;
      const target = new URL(url);
      await agent
        .request({ origin: target.origin, path: '/', method: 'GET', headersTimeout: 2000, bodyTimeout: 2000 })
        .then(
          (answer) => answer.body.dump(),
          () => undefined,
        );
      await agent.close();
      expect(proxy.seen.length > before ? 'proxy' : 'bypassed').toBe(ours === 'proxy' ? 'proxy' : 'bypassed');
    });
  });
});

describe('redaction of proxy credentials', () => {
  it('keeps the user, hides the password', () => {
    expect(redactProxyUrl(new URL('http://alice:s3cr%40t@proxy.corp:3128'))).toBe(
      'http://alice:[redacted]@proxy.corp:3128',
    );
    expect(redactProxyText('failed via http://alice:s3cr@t@proxy:3128 now')).not.toContain('s3cr');
  });

  it.each([
    ['a / in the password', 'http://ci:pa/ss-S3CRET@proxy.corp:3128', 'http://ci:[redacted]@proxy.corp:3128'],
    [
      'a / splitting digits (parses as a port and a path)',
      'http://ci:12/34-S3CRET@proxy:3128',
      'http://ci:[redacted]@proxy:3128',
    ],
    ['no scheme and a / in the password', 'ci:pa/ss-S3CRET@proxy:3128', 'ci:[redacted]@proxy:3128'],
    ['an @ and a / in the password', 'http://ci:p@ss/S3CRET@proxy:3128', 'http://ci:[redacted]@proxy:3128'],
    ['a bad port', 'http://ci:S3CRET@proxy:port', 'http://ci:[redacted]@proxy:port'],
    ['a bare % in the password', 'http://ci:100%-S3CRET@proxy:3128', 'http://ci:[redacted]@proxy:3128'],
    ['a % not followed by hex digits', 'http://ci:%zzS3CRET@proxy:3128', 'http://ci:[redacted]@proxy:3128'],
    ['a % making no UTF-8', 'http://ci:%C3S3CRET@proxy:3128', 'http://ci:[redacted]@proxy:3128'],
    ['a bare % in the user', 'http://c%i:S3CRET@proxy:3128', 'http://c%i:[redacted]@proxy:3128'],
    ['a path', 'http://ci:S3CRET@proxy:3128/path', 'http://ci:[redacted]@proxy:3128/path'],
    ['a query', 'http://ci:S3CRET@proxy:3128?x=1', 'http://ci:[redacted]@proxy:3128?x=1'],
    ['a fragment', 'http://ci:S3CRET@proxy:3128/#top', 'http://ci:[redacted]@proxy:3128/#top'],
  ])('a proxy variable with %s is refused with its password masked', (_case, value, shown) => {
    let error: unknown;
    try {
      proxyRouteFor(new URL('https://s.example/'), { HTTPS_PROXY: value });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ProxySettingError);
    expect((error as Error).message).toContain(`HTTPS_PROXY is not a proxy address (${shown});`);
    expect((error as Error).message).not.toContain('S3CRET');
    // Free text (an error's message) is masked where the address has its scheme.
    expect(value.startsWith('http://') ? redactProxyText(`failed via ${value} now`) : '').not.toContain('S3CRET');
  });

  it.each([
    ['a % written %25', 'http://ci:100%25-off@proxy:3128'],
    ['a trailing /', 'http://ci:pw@proxy:3128/'],
    ['no scheme', 'proxy:3128'],
  ])('a proxy variable with %s is an address', (_case, value) => {
    expect(proxyRouteFor(new URL('https://s.example/'), { HTTPS_PROXY: value }).kind).toBe('proxy');
  });

  it('describeRoute names the proxy and its variable, or the NO_PROXY entry', () => {
    expect(describeRoute(proxyRouteFor(new URL('https://s.example/'), { HTTPS_PROXY: 'http://u:pw@p:3128' }))).toBe(
      'through the proxy http://u:[redacted]@p:3128 (HTTPS_PROXY)',
    );
    expect(
      describeRoute(
        proxyRouteFor(new URL('https://s.example/'), { HTTPS_PROXY: 'http://p:3128', NO_PROXY: 's.example' }),
      ),
    ).toBe('direct: NO_PROXY entry "s.example" bypasses the proxy http://p:3128');
  });
});

const readBadProxy = () => proxyRouteFor(new URL('https://s.example/'), { HTTPS_PROXY: 'http://u:hunter22@[bad' });

describe('a proxy variable that is not an address', () => {
  it('is a usage error naming the variable, its password hidden', () => {
    expect(readBadProxy).toThrow(ProxySettingError);
    expect(readBadProxy).toThrow(
      'HTTPS_PROXY is not a proxy address (http://u:[redacted]@[bad); write it as http://host:port or http://user:password@host:port, with a / : @ or % in the password written %2F %3A %40 %25.',
    );
  });
});
