/**
 * An answer that quotes part of the bearer token: a server echoing half of it (`token AbCdEfGh/IjKl… is not valid`),
 * a gateway quoting the request's header cut at its own line's limit, or the `--verbose` trace cutting an answer's
 * body at its 2,000 characters in the middle of the token. Every command's error line, `api`'s body line and the
 * trace show `[redacted]` for any run of 8 characters or more of it, as whole (a user test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const token = 'AbCdEfGh/IjKlMnOp+QrStUvWx/YzCUTSECRET1234567890';
/** The first 12 characters and the last 12: what a server quoting half of it, or its end, shows. */
const firstHalf = token.slice(0, 12);
const lastPart = token.slice(-12);

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

function expectNoPartOfToken(text: string): void {
  for (const part of [token, firstHalf, lastPart, token.slice(0, 8), token.slice(20, 28)])
    expect(text).not.toContain(part);
}

describe('a server quoting half the token (a user test)', () => {
  const halfEchoed = { message: `token ${firstHalf}... is not valid here, nor ...${lastPart}` };

  it('sellers list: the error line masks both halves; exit 1, one request', async () => {
    const configDir = await loggedIn();
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) => answerJson(response, 400, halfEchoed);
    const result = await runCommandLine(['sellers', 'list'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('failed with HTTP 400: token [redacted]... is not valid here, nor ...[redacted]');
    expectNoPartOfToken(result.stderr);
    expect(received).toEqual(['GET /sellerModule/listSellers']);
  });

  it('sellers list --verbose: the trace of the answer is masked as the error line is', async () => {
    const configDir = await loggedIn();
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) => answerJson(response, 400, halfEchoed);
    const result = await runCommandLine(['--verbose', 'sellers', 'list'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('< {"message":"token [redacted]... is not valid here, nor ...[redacted]"}');
    expectNoPartOfToken(result.stderr);
  });

  it('api: the error body on stderr is masked, upper-cased too', async () => {
    const configDir = await loggedIn();
    routes['GET /v1/orders'] = (_request, _body, response) =>
      answerJson(response, 403, { detail: `scope missing for ${firstHalf.toUpperCase()}` });
    const result = await runCommandLine(['api', '/v1/orders'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('{"detail":"scope missing for [redacted]"}');
    expect(result.stderr).not.toContain(firstHalf.toUpperCase());
  });
});

describe('the token cut at a line limit', () => {
  it("sellers list: a gateway's quote of the header, cut at its own 64 characters, is masked; exit 1", async () => {
    const configDir = await loggedIn();
    routes['GET /sellerModule/listSellers'] = (request, _body, response) =>
      answerJson(response, 400, { message: `refused: Authorization: ${request.headers.authorization}`.slice(0, 64) });
    const result = await runCommandLine(['sellers', 'list'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('failed with HTTP 400: refused: Authorization: Bearer [redacted]');
    expectNoPartOfToken(result.stderr);
  });

  it('--verbose api: an answer whose 2,000th character falls in the token shows no piece of it in the trace', async () => {
    const configDir = await loggedIn();
    // The trace cuts a body at 2,000 characters: here 14 of the token's come before the cut.
    const padding = 'x'.repeat(2000 - '{"pad":"","seen":"Bearer '.length - 14);
    const body = JSON.stringify({ pad: padding, seen: `Bearer ${token}` });
    routes['GET /v1/echo'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    const result = await runCommandLine(['--verbose', 'api', '/v1/echo'], { configDir });
    expect(result.code).toBe(0);
    const traced = result.stderr.split('\n').find((line) => line.startsWith('< {"pad"'));
    expect(traced).toBe(`< {"pad":"${padding}","seen":"Bearer [redacted]… (${body.length} bytes)`);
    expectNoPartOfToken(result.stderr);
  });
});
