/**
 * The platform document does not show the token route: b2bctl's `POST /v1/auth/token` is a guess. A user test met a
 * store whose token route was elsewhere (`POST /api/login`) behind a gateway answering `401 text/plain` to anything
 * under /v1, and was told only to check the password. While paths.token is the default, a refusal there (401, 403)
 * also names the settings that move the route, and quotes the store's own words, masked, without reading them.
 */
import { expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const password = 'senha-forte-123';
const loginArgs = ['login', '--username', 'erp@loja.test', '--password-stdin'];
const guess =
  "the token route may be elsewhere: POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic)";

/** A gateway in front of the store: every request under /v1 without a token gets its 401 in plain text. */
function storeBehindGateway(refusal = 'Acesso negado'): void {
  platform.routes['POST /v1/*'] = (_request, _body, response) =>
    response.writeHead(401, { 'content-type': 'text/plain' }).end(refusal);
  platform.routes['POST /api/login'] = (_request, body, response) =>
    JSON.parse(body).password === password
      ? answerJson(response, 200, { access_token: 'token-of-the-store-0001', expires_in: 43200 })
      : answerJson(response, 401, { mensagem: 'Senha incorreta' });
}

it("a 401 at the guessed route: the store's words, the username and password, or the route's settings; exit 77", async () => {
  storeBehindGateway();
  const configDir = freshConfigDir();
  const refused = await runCommandLine([...loginArgs, '--base-url', platform.url], {
    configDir,
    stdin: `${password}\n`,
  });
  expect(refused.stderr).toBe(
    `error: Login refused for erp@loja.test at ${platform.url} (HTTP 401: Acesso negado): check the username and password, or ${guess}.\n`,
  );
  expect(refused.code).toBe(77);
  expect(platform.received).toEqual(['POST /v1/auth/token']);

  // The line's own advice works at once.
  expect((await runCommandLine(['config', 'set', 'paths.token', '/api/login'], { configDir })).code).toBe(0);
  const fixed = await runCommandLine([...loginArgs, '--base-url', platform.url], {
    configDir,
    stdin: `${password}\n`,
  });
  expect(fixed.stderr).toMatch(/^Logged in to /);
  expect(fixed.code).toBe(0);
});

it("a 401 at a token route the user set: the username and password only, in the store's words", async () => {
  storeBehindGateway();
  const configDir = freshConfigDir();
  expect((await runCommandLine(['config', 'set', 'paths.token', '/api/login'], { configDir })).code).toBe(0);
  const refused = await runCommandLine([...loginArgs, '--base-url', platform.url], {
    configDir,
    stdin: 'not-the-password\n',
  });
  expect(refused.stderr).toBe(
    `error: Login refused for erp@loja.test at ${platform.url} (HTTP 401: Senha incorreta): check the username and password.\n`,
  );
  expect(refused.code).toBe(77);
});

it("the store's words are quoted with the password masked, as every quoted answer is", async () => {
  storeBehindGateway(`Acesso negado para erp@loja.test com a senha ${password}`);
  const refused = await runCommandLine([...loginArgs, '--base-url', platform.url], {
    configDir: freshConfigDir(),
    stdin: `${password}\n`,
  });
  expect(refused.stderr).not.toContain(password);
  expect(refused.stderr).toContain('(HTTP 401: Acesso negado para erp@loja.test com a senha [redacted])');
  expect(refused.stderr).toContain(guess);
  expect(refused.code).toBe(77);
});

it('a 403 at the guessed route is doubted alike', async () => {
  platform.routes['POST /v1/auth/token'] = (_request, _body, response) =>
    answerJson(response, 403, { message: 'Forbidden' });
  const refused = await runCommandLine([...loginArgs, '--base-url', platform.url], {
    configDir: freshConfigDir(),
    stdin: `${password}\n`,
  });
  expect(refused.stderr).toBe(
    `error: Login refused for erp@loja.test at ${platform.url} (HTTP 403: Forbidden): check the username and password, or ${guess}.\n`,
  );
  expect(refused.code).toBe(77);
});

it('a 404 at the guessed route names it a guess and the settings; exit 2', async () => {
  const refused = await runCommandLine([...loginArgs, '--base-url', platform.url], {
    configDir: freshConfigDir(),
    stdin: `${password}\n`,
  });
  expect(refused.stderr).toBe(
    `error: The token route POST ${platform.url}/v1/auth/token does not exist (HTTP 404): POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).\n`,
  );
  expect(refused.code).toBe(2);
});

it("a command's own first login (B2BCTL_PASSWORD, no token yet) refused at the guessed route names the route too", async () => {
  storeBehindGateway();
  const configDir = freshConfigDir();
  const result = await runCommandLine(['sellers', 'list', '-q'], {
    configDir,
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_USERNAME: 'erp@loja.test', B2BCTL_PASSWORD: password },
  });
  expect(result.stderr).toBe(
    `error: No token is cached for profile "default" and logging in as erp@loja.test at ${platform.url} with the password in B2BCTL_PASSWORD was refused (HTTP 401: Acesso negado): check B2BCTL_PASSWORD, or run B2BCTL_CONFIG_DIR=${configDir} b2bctl login --profile default --base-url ${platform.url}; else ${guess}.\n`,
  );
  expect(result.code).toBe(77);
  expect(platform.received).toEqual(['POST /v1/auth/token']);
});
