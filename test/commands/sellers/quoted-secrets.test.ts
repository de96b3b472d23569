/**
 * `sellers list` quoting an answer masks what the request carried, whatever the answer's status: a 200 in text quoting
 * the token ("the answer is no page of sales reps (it is text, not JSON): "token=…"") reached a cron log in clear,
 * and a gateway key kept in the `paths.sellers` setting (`?subscription-key=`) was masked in the URL of the error
 * line but not in the 400's words quoting the request line (a user test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const token = 'a-pre-issued-token-0123456789';
const env = () => ({ B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token });

describe('sellers list: an answer quoting a secret of the request', () => {
  it('a 200 in text quoting the token: --log-format json masks it; exit 69, nothing on stdout', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`token=${token}`);
    const result = await runCommandLine(['--log-format', 'json', 'sellers', 'list'], {
      configDir: freshConfigDir(),
      env: env(),
    });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(received).toEqual(['GET /sellerModule/listSellers']);
    const lines = result.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { message: string });
    expect(lines.at(-1)?.message).toBe(
      `GET ${platform.url}/sellerModule/listSellers?limit=20 failed with HTTP 200: the answer is no page of sales reps (it is text, not JSON): "token=[redacted]"`,
    );
    expect(result.stderr).not.toContain(token);
  });

  it('a 200 in JSON that is no page, quoting the token: masked in the error line; exit 69', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `Sessao expirada ${token}` }));
    const result = await runCommandLine(['sellers', 'list'], { configDir: freshConfigDir(), env: env() });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('{"message":"Sessao expirada [redacted]"}');
    expect(result.stderr).not.toContain(token);
  });

  it('a key in the paths.sellers setting, quoted by a 400 in its words: masked as in the URL; exit 1', async () => {
    const configDir = freshConfigDir();
    const route = '/sellerModule/listSellers?subscription-key=SUBSEKRET77';
    const set = await runCommandLine(['config', 'set', 'paths.sellers', route], { configDir, env: env() });
    expect(set.code).toBe(0);
    const asked: string[] = [];
    routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
      asked.push(request.url ?? '');
      response.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request ${request.url}`);
    };
    const result = await runCommandLine(['sellers', 'list'], { configDir, env: env() });
    expect(result.code).toBe(1);
    expect(asked).toEqual([`${route}&limit=20`]);
    expect(result.stderr).toContain(
      `error: GET ${platform.url}/sellerModule/listSellers?subscription-key=[redacted]&limit=20 failed with HTTP 400: bad request /sellerModule/listSellers?subscription-key=[redacted]&limit=20`,
    );
    expect(result.stderr).not.toContain('SUBSEKRET77');
  });
});
