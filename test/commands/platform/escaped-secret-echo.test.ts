/**
 * An answer that quotes the bearer token, or the proxy's credential, in a spelling other than the one sent: JSON with
 * `/` as `\/` (PHP's json_encode default), a token a fixed-width message wraps over two lines, an HTML page's
 * character references, a redirect's Location with the token in its path, a proxy's refusal quoting the
 * `Proxy-Authorization: Basic …` it got. Every command's error line, `api`'s body line, the `--verbose` trace and
 * stack and the `--log-format json` object show `[redacted]`, never the secret in any form (user tests).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

/** An opaque token in the base64 alphabet: it holds `/` and `+`. */
const token = 'AbCdEfGh/IjKlMnOp+QrStUvWx/YzTOKSECRET1234567890';

/** The token as PHP's json_encode writes it in a string: `/` as `\/`. */
const tokenAsPhpWritesIt = token.replaceAll('/', '\\/');

/** Every spelling of the token none of these lines may hold. */
const tokenSpellings = [token, tokenAsPhpWritesIt, token.replaceAll('/', ''), 'YzTOKSECRET1234567890'];

/** A config folder logged in to the scripted platform, its token `token`. */
async function loggedIn(): Promise<string> {
  routes['POST /v1/auth/token'] = (_request, _body, response) =>
    answerJson(response, 200, { access_token: token, expires_in: 3600 });
  const configDir = freshConfigDir();
  const login = await runCommandLine(
    ['login', '--base-url', platform.url, '--username', 'erp@x.com', '--password-stdin'],
    { configDir, stdin: 'pw\n' },
  );
  expect(login.code).toBe(0);
  received.length = 0;
  return configDir;
}

function expectNoSpellingOf(text: string, spellings: readonly string[]): void {
  for (const spelling of spellings) expect(text).not.toContain(spelling);
}

/** A route answering `status` with `raw` as its body, as written. */
function answerRaw(route: string, status: number, raw: string, contentType = 'application/json'): void {
  routes[route] = (_request, _body, response) => response.writeHead(status, { 'content-type': contentType }).end(raw);
}

describe('the token quoted as PHP writes it, `/` as `\\/` (a user test)', () => {
  it('sellers list: the error line is masked; exit 1', async () => {
    const configDir = await loggedIn();
    answerRaw('GET /sellerModule/listSellers', 400, `{"message":"token ${tokenAsPhpWritesIt} is not allowed"}`);
    const result = await runCommandLine(['sellers', 'list'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('failed with HTTP 400: token [redacted] is not allowed');
    expectNoSpellingOf(result.stderr, tokenSpellings);
    expect(received).toEqual(['GET /sellerModule/listSellers']);
  });

  it('sellers list --verbose: the trace, the error line and the stack under it are masked', async () => {
    const configDir = await loggedIn();
    answerRaw('GET /sellerModule/listSellers', 400, `{"message":"token ${tokenAsPhpWritesIt} is not allowed"}`);
    const result = await runCommandLine(['--verbose', 'sellers', 'list'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: .*token \[redacted\] is not allowed/);
    expect(result.stderr).toMatch(/PlatformError: .*token \[redacted\] is not allowed/);
    expectNoSpellingOf(result.stderr, tokenSpellings);
  });

  it('api, plain and --log-format json: the body line is masked, after `Authorization: Bearer` too', async () => {
    const configDir = await loggedIn();
    const raw = `{"error":"forbidden","detail":"Authorization: Bearer ${tokenAsPhpWritesIt} lacks scope orders"}`;
    answerRaw('GET /v1/orders', 403, raw);
    const plain = await runCommandLine(['api', '/v1/orders'], { configDir });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('"detail":"Authorization: Bearer [redacted] lacks scope orders"');
    expectNoSpellingOf(plain.stderr, tokenSpellings);
    const json = await runCommandLine(['--log-format', 'json', 'api', '/v1/orders'], { configDir });
    expect(json.code).toBe(1);
    const bodies = json.stderr
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { fields?: { body?: string } }).fields?.body)
      .filter((body) => body !== undefined);
    expect(bodies).toEqual([raw.replace(tokenAsPhpWritesIt, '[redacted]')]);
    expectNoSpellingOf(json.stderr, tokenSpellings);
  });
});

describe('the token wrapped over two lines by the message (a user test)', () => {
  const wrapped = `{"message":"Invalid token:\\n${token.slice(0, 10)}\\n${token.slice(10)}\\n(expired)"}`;

  it('sellers list and --log-format json: the whole token is one [redacted], no half of it left', async () => {
    const configDir = await loggedIn();
    answerRaw('GET /sellerModule/listSellers', 400, wrapped);
    const plain = await runCommandLine(['sellers', 'list'], { configDir });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('failed with HTTP 400: Invalid token: [redacted] (expired)');
    expectNoSpellingOf(plain.stderr, [...tokenSpellings, token.slice(0, 10), token.slice(10)]);
    const json = await runCommandLine(['--log-format', 'json', 'sellers', 'list'], { configDir });
    expect(json.code).toBe(1);
    expect(json.stderr).toContain('Invalid token: [redacted] (expired)');
    expectNoSpellingOf(json.stderr, [...tokenSpellings, token.slice(0, 10), token.slice(10)]);
  });

  it('api: the body line keeps the line breaks around the mask', async () => {
    const configDir = await loggedIn();
    answerRaw('GET /sellerModule/listSellers', 400, wrapped);
    const result = await runCommandLine(['api', '/sellerModule/listSellers'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('{"message":"Invalid token:\\n[redacted]\\n(expired)"}');
    expectNoSpellingOf(result.stderr, [...tokenSpellings, token.slice(10)]);
  });
});

describe('the token in an HTML page, `/` and `+` as character references (a user test)', () => {
  it('api: the page b2bctl reads out is masked, not decoded into the token', async () => {
    const configDir = await loggedIn();
    const referenced = token.replaceAll('/', '&#x2f;').replace('+', '&#43;');
    answerRaw(
      'GET /v1/contracts',
      403,
      `<html><head><title>Forbidden</title></head><body><p>The access token ${referenced} lacks the scope contracts.</p></body></html>`,
      'text/html',
    );
    const result = await runCommandLine(['--verbose', 'api', '/v1/contracts'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The access token [redacted] lacks the scope contracts.');
    expectNoSpellingOf(result.stderr, [...tokenSpellings, referenced]);
  });
});

describe('the token in an HTML page, broken where its reader does not see it', () => {
  it('api and sellers list --verbose: a tag, a soft hyphen or a decimal reference inside it is masked with it', async () => {
    const configDir = await loggedIn();
    const [head, tail] = [token.slice(0, 10), token.slice(10)];
    answerRaw(
      'GET /sellerModule/listSellers',
      403,
      `<html><head><title>403 Forbidden</title></head><body><p>A: ${head}<wbr>${tail}</p><p>B: <span>${head}</span>${tail}</p><p>C: ${head}&shy;${tail}</p><p>D: ${head}&#${tail.charCodeAt(0)};${tail.slice(1)}</p></body></html>`,
      'text/html',
    );
    const api = await runCommandLine(['api', '/sellerModule/listSellers'], { configDir });
    expect(api.code).toBe(1);
    expect(api.stderr).toContain('A: [redacted] B: [redacted] C: [redacted] D: [redacted]');
    expectNoSpellingOf(api.stderr, [...tokenSpellings, tail.slice(1)]);
    const verbose = await runCommandLine(['--verbose', 'sellers', 'list'], { configDir });
    expect(verbose.code).toBe(77);
    expect(verbose.stderr).toContain('<p>A: [redacted]</p><p>B: <span>[redacted]</p><p>C: [redacted]</p>');
    expectNoSpellingOf(verbose.stderr, [...tokenSpellings, tail.slice(1)]);
  });
});

describe('a redirect whose Location holds the token in its path (a user test)', () => {
  const location = `https://sso.example.com/login/${token}/x?a=1`;

  it('sellers list, --verbose and api: the Location is shown with the token masked; exit 69 and 1', async () => {
    const configDir = await loggedIn();
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(302, { location }).end();
    const list = await runCommandLine(['sellers', 'list'], { configDir });
    expect(list.code).toBe(69);
    expect(list.stderr).toContain(
      'a redirect to https://sso.example.com/login/[redacted]/x?a=[redacted], not followed',
    );
    expectNoSpellingOf(list.stderr, tokenSpellings);
    const verbose = await runCommandLine(['--verbose', 'sellers', 'list'], { configDir });
    expect(verbose.stderr).toMatch(/RedirectAnswerError: .*login\/\[redacted\]\/x/);
    expectNoSpellingOf(verbose.stderr, tokenSpellings);
    const api = await runCommandLine(['api', '/sellerModule/listSellers'], { configDir });
    expect(api.code).toBe(1);
    expect(api.stderr).toContain('a redirect to https://sso.example.com/login/[redacted]/x?a=[redacted]');
    expectNoSpellingOf(api.stderr, tokenSpellings);
    // Never followed.
    expect(received).toEqual([
      'GET /sellerModule/listSellers',
      'GET /sellerModule/listSellers',
      'GET /sellerModule/listSellers',
    ]);
  });
});

describe("a proxy's refusal quoting the credentials HTTP_PROXY gave it (a user test)", () => {
  const proxyPassword = 'Pr0xyPass';
  const basic = Buffer.from(`svc:${proxyPassword}`).toString('base64');

  /** A proxy answering every request with `answer` (given the Proxy-Authorization it got). */
  async function quotingProxy(
    answer: (credential: string) => { status: number; type: string; body: string } = (credential) => ({
      status: 400,
      type: 'application/json',
      body: `{"message":"proxy policy refused Proxy-Authorization ${credential} raw ${credential.split(' ')[1]} password '${proxyPassword}'"}`,
    }),
  ): Promise<{ url: string; seen: string[]; close: () => void }> {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      const { status, type, body } = answer(request.headers['proxy-authorization'] ?? '');
      response.writeHead(status, { 'content-type': type }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://svc:${proxyPassword}@127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => server.close(),
    };
  }

  // A proxy that refuses with a 401 page (tinyproxy) rather than a 407, which undici answers itself.
  it("a proxy's 401 page whose title quotes them: the line naming the proxy's page masks them; exit 69", async () => {
    const configDir = await loggedIn();
    const proxy = await quotingProxy((credential) => ({
      status: 401,
      type: 'text/html',
      body: `<html><head><title>Denied: ${credential} (svc/${proxyPassword})</title></head><body>no</body></html>`,
    }));
    try {
      const result = await runCommandLine(['sellers', 'list'], { configDir, env: { http_proxy: proxy.url } });
      expect(result.code).toBe(69);
      expect(result.stderr).toContain('with an HTML page ("Denied: Basic [redacted] (svc/[redacted])")');
      expectNoSpellingOf(result.stderr, [basic, proxyPassword]);
    } finally {
      proxy.close();
    }
  });

  it('sellers list, --verbose and api: the Basic credential and the password are [redacted]; exit 1', async () => {
    const configDir = await loggedIn();
    const proxy = await quotingProxy();
    try {
      const env = { http_proxy: proxy.url, NO_PROXY: '' };
      const masked = "proxy policy refused Proxy-Authorization Basic [redacted] raw [redacted] password '[redacted]'";
      const list = await runCommandLine(['sellers', 'list'], { configDir, env });
      expect(list.code).toBe(1);
      expect(list.stderr).toContain(`failed with HTTP 400: ${masked}`);
      expectNoSpellingOf(list.stderr, [basic, proxyPassword]);
      const verbose = await runCommandLine(['--verbose', 'sellers', 'list'], { configDir, env });
      expect(verbose.stderr).toContain(`< {"message":"${masked}"}`);
      expect(verbose.stderr).toContain(`PlatformError: GET ${platform.url}/sellerModule/listSellers?limit=20 failed`);
      expectNoSpellingOf(verbose.stderr, [basic, proxyPassword]);
      const api = await runCommandLine(['api', '/sellerModule/listSellers'], { configDir, env });
      expect(api.code).toBe(1);
      expect(api.stderr).toContain(`answered with this body: {"message":"${masked}"}`);
      expectNoSpellingOf(api.stderr, [basic, proxyPassword]);
      // Through the proxy, and only there.
      expect(proxy.seen).toHaveLength(3);
      expect(received).toEqual([]);
    } finally {
      proxy.close();
    }
  });
});
