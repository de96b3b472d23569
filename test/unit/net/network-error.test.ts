import { describe, expect, it } from 'vitest';
import { certificateRemedy, describeNetworkProblem } from '../../../src/net/network-error.js';
import { ProxyConnectError } from '../../../src/net/tls-probe.js';
import { proxyRouteFor } from '../../../src/net/proxy-route.js';
import { intermediaryAnswer, proxyOwnAnswerMark } from '../../../src/platform/intermediary.js';

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
    // tinyproxy's 500 "Unable to connect" to a CONNECT when the platform is down: the proxy could not reach it.
    [
      new Error('Proxy response (500) !== 200 when HTTP Tunneling'),
      proxied,
      'the proxy http://bob:[redacted]@proxy.corp:3128 could not connect to store.example:8443 (HTTP 500 to CONNECT)',
      'the platform may be down or unreachable from the proxy: check the base URL',
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

// A run stopped by a certificate resumes once it is set right, never "when the platform is back" (a user test).
describe('what to set right before a request a certificate refused goes through', () => {
  it.each([
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      /^NODE_EXTRA_CA_CERTS points at the certificate of the authority that issued it/,
    ],
    ['SELF_SIGNED_CERT_IN_CHAIN', /^NODE_EXTRA_CA_CERTS points at/],
    ['CERT_HAS_EXPIRED', /^the server's operator renews it \(or this machine's clock is set right\)$/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /^the base URL names a host the certificate is for$/],
  ])('%s', (code, remedy) => {
    expect(certificateRemedy(coded(code))).toMatch(remedy);
  });

  it.each(['ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND'])('none for %s, which waiting may mend', (code) => {
    expect(certificateRemedy(coded(code))).toBeUndefined();
  });
});

describe('answers from a proxy or gateway', () => {
  const html = { 'content-type': 'text/html' };
  const answeredUrl = `${store.href}/x`;
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
    expect(intermediaryAnswer({ status, headers, text, url: answeredUrl }, route)).toMatch(expected);
  });

  it('a 401 HTML page through a proxy (tinyproxy refusing wrong credentials) names the proxy', () => {
    expect(
      intermediaryAnswer({ status: 401, headers: html, text: page('401 Unauthorized'), url: answeredUrl }, proxied),
    ).toMatch(
      /^was answered HTTP 401 with an HTML page \("401 Unauthorized"\) by the proxy http:\/\/bob:\[redacted\]@proxy\.corp:3128: it refused the credentials given/,
    );
    expect(
      intermediaryAnswer({ status: 401, headers: html, text: page('401 Unauthorized'), url: answeredUrl }, direct),
    ).toBeUndefined();
    expect(
      intermediaryAnswer({ status: 401, headers: {}, text: '{"error":"invalid_token"}', url: answeredUrl }, proxied),
    ).toBeUndefined();
  });

  it.each([
    [503, { 'content-type': 'application/json' }, '{"message":"down"}'],
    [500, { 'content-type': 'text/html' }, page('Error')],
    [404, { 'content-type': 'text/html' }, page('Not found')],
  ])('%i from the platform itself is not blamed on a proxy', (status, headers, text) => {
    expect(intermediaryAnswer({ status, headers, text, url: answeredUrl }, direct)).toBeUndefined();
  });
});

describe("a plain-http proxy's own error page, told by where it came from", () => {
  const plain = new URL('http://erp.example:9749');
  const byUrl = proxyRouteFor(plain, { HTTP_PROXY: 'http://127.0.0.1:3128' });
  const xhtml = `<?xml version="1.0" encoding="UTF-8" ?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "x.dtd">\n${page('500 Unable to connect')}`;
  const answer = (status: number, headers: Record<string, string>, url = `${plain.href}x`) => ({
    status,
    headers: { 'content-type': 'text/html', ...headers },
    text: xhtml,
    url,
  });

  it.each([
    [{ server: 'tinyproxy/1.11.1' }, 'Server: tinyproxy/1.11.1'],
    [{ 'x-squid-error': 'ERR_CONNECT_FAIL 111', server: 'squid/6.1' }, 'X-Squid-Error: ERR_CONNECT_FAIL 111'],
    [{ server: 'cache-fw/2.0', via: '1.1 edge (nginx), 1.1 cache (cache-fw/2.0)' }, 'Server: cache-fw/2.0'],
    [{ server: 'nginx', via: '1.1 tinyproxy (tinyproxy/1.11.1)' }, undefined],
    [{ server: 'Apache' }, undefined],
    [{}, undefined],
  ])('%j: %s', (headers, mark) => {
    expect(proxyOwnAnswerMark(headers)).toBe(mark);
  });

  it('a 500 the proxy wrote names it, its mark and the host it could not reach; an XHTML page by its title', () => {
    expect(intermediaryAnswer(answer(500, { server: 'tinyproxy/1.11.1' }), byUrl)).toBe(
      'was answered HTTP 500 with an HTML page ("500 Unable to connect") by the proxy http://127.0.0.1:3128 (HTTP_PROXY) itself (Server: tinyproxy/1.11.1), not by the platform: the proxy could not get an answer from erp.example:9749. Try again later; if it persists, check the base URL and HTTP_PROXY (or add the host to NO_PROXY if this machine reaches it directly), and ask the proxy\'s operator.',
    );
    expect(intermediaryAnswer(answer(403, { server: 'tinyproxy/1.11.1' }), byUrl)).toMatch(
      /itself \(Server: tinyproxy\/1\.11\.1\), not by the platform: the proxy refused to pass the request on to erp\.example:9749\./,
    );
  });

  it("the same page is the platform's when no proxy is asked by URL: direct, or inside a CONNECT tunnel", () => {
    expect(intermediaryAnswer(answer(500, { server: 'tinyproxy/1.11.1' }), proxyRouteFor(plain, {}))).toBeUndefined();
    expect(intermediaryAnswer(answer(500, { server: 'tinyproxy/1.11.1' }, `${store.href}/x`), proxied)).toBeUndefined();
  });
});
