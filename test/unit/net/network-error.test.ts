import { describe, expect, it } from 'vitest';
import { describeNetworkProblem } from '../../../src/net/network-error.js';
import { ProxyConnectError } from '../../../src/net/tls-probe.js';
import { proxyRouteFor } from '../../../src/net/proxy-route.js';
import { intermediaryAnswer } from '../../../src/platform/intermediary.js';

const store = new URL('https://store.example:8443/api');
const direct = proxyRouteFor(store, {});
const proxied = proxyRouteFor(store, { HTTPS_PROXY: 'http://bob:hunter22@proxy.corp:3128' });
const page = (title: string) => `<html><head><title>${title}</title></head><body>…</body></html>`;
const coded = (code: string) => Object.assign(new Error(`failed ${code}`), { code });

describe('one wording for network failures', () => {
  it.each([
    [coded('ENOTFOUND'), direct, 'store.example does not resolve (ENOTFOUND)', 'check the base URL'],
    [coded('ENOTFOUND'), proxied, "the proxy's host name does not resolve (ENOTFOUND)", 'check HTTPS_PROXY'],
    [coded('ECONNREFUSED'), direct, 'nothing listens at store.example:8443 (ECONNREFUSED)', 'that the server runs'],
    [
      coded('ECONNREFUSED'),
      proxied,
      'the proxy http://bob:[redacted]@proxy.corp:3128 refused the connection',
      'HTTPS_PROXY',
    ],
    [coded('UND_ERR_CONNECT_TIMEOUT'), direct, 'store.example:8443 did not answer in time', 'raise http.timeout'],
    [coded('ECONNRESET'), direct, 'the connection to store.example:8443 was cut (ECONNRESET)', 'firewall or proxy'],
    [
      coded('UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
      direct,
      'the certificate of store.example:8443 is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
      'NODE_EXTRA_CA_CERTS',
    ],
    [coded('CERT_HAS_EXPIRED'), direct, 'the certificate of store.example:8443 has expired', 'renew it'],
    [coded('ERR_TLS_CERT_ALTNAME_INVALID'), direct, 'is for another host name', 'a host name the certificate names'],
    [
      new ProxyConnectError(407, 'store.example:8443'),
      proxied,
      'refused the credentials given (HTTP 407',
      'HTTPS_PROXY=http://user:password@host:port',
    ],
    [
      new Error('Proxy response (403) !== 200 when HTTP Tunneling'),
      proxied,
      'the proxy http://bob:[redacted]@proxy.corp:3128 refused to connect to store.example:8443 (HTTP 403 to CONNECT)',
      'NO_PROXY',
    ],
  ])('%s', (error, route, what, fix) => {
    const problem = describeNetworkProblem(error, store, route);
    expect(problem.what).toContain(what);
    expect(problem.fix).toContain(fix);
    expect(`${problem.what} ${problem.fix}`).not.toContain('hunter22');
  });

  // Every word of a proxy's refusal of the credentials, with and without them in the URL, under either variable.
  it.each([
    [
      407,
      { HTTPS_PROXY: 'http://bob:hunter22@proxy.corp:3128' },
      'the proxy http://bob:[redacted]@proxy.corp:3128 refused the credentials given (HTTP 407 Proxy Authentication Required)',
      'give the right ones in the proxy URL, HTTPS_PROXY=http://user:password@host:port (percent-encode @ : / in them)',
    ],
    [
      401,
      { https_proxy: 'http://bob:hunter22@proxy.corp:3128' },
      'the proxy http://bob:[redacted]@proxy.corp:3128 refused the credentials given (HTTP 401)',
      'give the right ones in the proxy URL, https_proxy=http://user:password@host:port (percent-encode @ : / in them)',
    ],
    [
      407,
      { HTTPS_PROXY: 'http://proxy.corp:3128' },
      'the proxy http://proxy.corp:3128 wants credentials (HTTP 407 Proxy Authentication Required)',
      'give them in the proxy URL, HTTPS_PROXY=http://user:password@host:port (percent-encode @ : / in them)',
    ],
  ])('a proxy answering %i to CONNECT (%j)', (status, env, what, fix) => {
    const problem = describeNetworkProblem(
      new ProxyConnectError(status, 'store.example:8443'),
      store,
      proxyRouteFor(store, env),
    );
    expect({ what: problem.what, fix: problem.fix }).toEqual({ what, fix });
  });

  it('names the certificate when a probe saw it', () => {
    const problem = describeNetworkProblem(coded('SELF_SIGNED_CERT_IN_CHAIN'), store, direct, {
      authorized: false,
      subject: 'store.example',
      issuer: 'Acme Internal CA',
    });
    expect(problem.what).toBe(
      'the certificate of store.example:8443 is not trusted (SELF_SIGNED_CERT_IN_CHAIN; issued to store.example by Acme Internal CA)',
    );
  });
});

describe('answers from a proxy or gateway', () => {
  const html = { 'content-type': 'text/html' };
  it.each([
    [
      502,
      html,
      page('502 Bad Gateway'),
      direct,
      /^was answered HTTP 502 with an HTML page \("502 Bad Gateway"\) by a proxy or gateway in front of the platform, not by the platform/,
    ],
    [
      504,
      html,
      page('504 Gateway Time-out'),
      proxied,
      /by the proxy http:\/\/bob:\[redacted\]@proxy\.corp:3128, not by the platform/,
    ],
    [503, html, page('Maintenance'), direct, /HTTP 503 with an HTML page \("Maintenance"\)/],
    [
      407,
      {},
      '',
      proxied,
      /HTTP 407 \(Proxy Authentication Required\) by the proxy .*: it refused the credentials given\. Check them in the proxy URL, HTTPS_PROXY=/,
    ],
  ])('%i %j', (status, headers, text, route, expected) => {
    expect(intermediaryAnswer({ status, headers, text }, route)).toMatch(expected);
  });

  it('a 401 HTML page through a proxy (tinyproxy refusing wrong credentials) names the proxy', () => {
    expect(intermediaryAnswer({ status: 401, headers: html, text: page('401 Unauthorized') }, proxied)).toMatch(
      /^was answered HTTP 401 with an HTML page \("401 Unauthorized"\) by the proxy http:\/\/bob:\[redacted\]@proxy\.corp:3128: it refused the credentials given/,
    );
    expect(intermediaryAnswer({ status: 401, headers: html, text: page('401 Unauthorized') }, direct)).toBeUndefined();
    expect(
      intermediaryAnswer({ status: 401, headers: {}, text: '{"error":"invalid_token"}' }, proxied),
    ).toBeUndefined();
  });

  it.each([
    [503, { 'content-type': 'application/json' }, '{"message":"down"}'],
    [500, { 'content-type': 'text/html' }, page('Error')],
    [404, { 'content-type': 'text/html' }, page('Not found')],
  ])('%i from the platform itself is not blamed on a proxy', (status, headers, text) => {
    expect(intermediaryAnswer({ status, headers, text }, direct)).toBeUndefined();
  });
});
