/**
 * Secrets a request carries, and those an answer holds by their name or shape, never reach stderr: the `--verbose`
 * trace masks a header or body field whose name has a secret's word in it (`Ocp-Apim-Subscription-Key`,
 * `privateKey`, `jwt`), a value shaped like a JWT under any name and a URL's password; an error answer `api` prints on
 * stderr that quotes the request's bearer token shows it masked, as `sellers list` does (a user test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { sandboxPassword, sandboxUser } from '../../support/sandbox.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const token = 'TOK-quoted-0123456789abcdef';
const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1QHgifQ.c2lnbmF0dXJlLW9m';

/** A config folder logged in to the scripted platform, its token `token`. */
async function loggedIn(): Promise<string> {
  routes['POST /v1/auth/token'] = (_request, _body, response) =>
    answerJson(response, 200, { access_token: token, expires_in: 3600 });
  const configDir = freshConfigDir();
  const login = await runCommandLine(
    ['login', '--base-url', platform.url, '--username', sandboxUser, '--password-stdin'],
    {
      configDir,
      stdin: `${sandboxPassword}\n`,
    },
  );
  expect(login.code).toBe(0);
  received.length = 0;
  return configDir;
}

describe('--verbose masks secrets by the words of their names and by their shape', () => {
  const headerSecrets = {
    // Not `HDR-ocp-apim-111`: a run of 8 characters of a secret is masked (`ocp-apim` of the header's name too).
    'Ocp-Apim-Subscription-Key': 'HDR-0c9a1f-111',
    'Subscription-Key': 'HDR-subscription-222',
    'X-Gateway-Key': 'HDR-gateway-333',
    'X-Tenant-Key': 'HDR-tenant-444',
  };
  const fieldSecrets = { privateKey: 'FLD-private-555', subscriptionKey: 'FLD-subscription-666', jwt: 'FLD-jwt-777' };

  it('the request headers and fields and the answer fields are [redacted]; what is no secret stays readable', async () => {
    const configDir = await loggedIn();
    const sent: Record<string, string | string[] | undefined>[] = [];
    routes['POST /v1/echo'] = (request, _body, response) => {
      sent.push(request.headers);
      response
        .writeHead(200, {
          'content-type': 'application/json',
          location: 'https://erp-user:LOC-pass-888@erp.example/next',
          'x-session': jwt,
        })
        .end(
          JSON.stringify({ privateKey: 'ANS-private-999', gatewayKey: 'ANS-gateway-000', state: jwt, keyword: 'kw' }),
        );
    };
    const fields = Object.entries({ ...fieldSecrets, other: jwt, keyword: 'monkey' }).flatMap(([name, value]) => [
      '-f',
      `${name}=${value}`,
    ]);
    const headers = Object.entries({ ...headerSecrets, 'Idempotency-Key': 'idem-visible-1' }).flatMap(
      ([name, value]) => ['-H', `${name}: ${value}`],
    );
    const result = await runCommandLine(['--verbose', 'api', '-X', 'POST', '/v1/echo', ...fields, ...headers], {
      configDir,
    });
    expect(result.code).toBe(0);
    // Sent as given: only the trace masks them.
    expect(sent[0]?.['ocp-apim-subscription-key']).toBe(headerSecrets['Ocp-Apim-Subscription-Key']);
    for (const name of Object.keys(headerSecrets))
      expect(result.stderr).toContain(`> ${name.toLowerCase()}: [redacted]`);
    expect(result.stderr).toContain(
      '> {"privateKey":"[redacted]","subscriptionKey":"[redacted]","jwt":"[redacted]","other":"[redacted]","keyword":"monkey"}',
    );
    expect(result.stderr).toContain(
      '< {"privateKey":"[redacted]","gatewayKey":"[redacted]","state":"[redacted]","keyword":"kw"}',
    );
    expect(result.stderr).toContain('< location: https://erp-user:[redacted]@erp.example/next');
    expect(result.stderr).toContain('< x-session: [redacted]');
    expect(result.stderr).toContain('> idempotency-key: idem-visible-1');
    const secrets = [...Object.values(headerSecrets), ...Object.values(fieldSecrets), jwt, 'LOC-pass-888'];
    for (const secret of [...secrets, 'ANS-private-999', 'ANS-gateway-000', token])
      expect(result.stderr).not.toContain(secret);
  });
});

/** The listing route answering 400 with a message that quotes the request's Authorization and X-Gateway-Key. */
function quotingAnswer(): void {
  routes['GET /v1/xlist'] = (request, _body, response) =>
    answerJson(response, 400, {
      message: `invalid header ${request.headers.authorization} and key ${request.headers['x-gateway-key']}`,
    });
}

describe('an error answer of api that quotes the request', () => {
  it('prints the body on stderr with the bearer token and the request secrets masked; exit 1', async () => {
    const configDir = await loggedIn();
    quotingAnswer();
    const result = await runCommandLine(['api', '/v1/xlist', '-H', 'X-Gateway-Key: HDR-gateway-333'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('{"message":"invalid header Bearer [redacted] and key [redacted]"}');
    expect(result.stderr).not.toContain(token);
    expect(result.stderr).not.toContain('HDR-gateway-333');
    expect(received).toEqual(['GET /v1/xlist']);
  });

  it('--log-format json --paginate: the body in the log object is masked too', async () => {
    const configDir = await loggedIn();
    quotingAnswer();
    const result = await runCommandLine(['--log-format', 'json', 'api', '/v1/xlist', '--paginate'], { configDir });
    expect(result.code).toBe(1);
    const lines = result.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { fields?: { body?: string } });
    expect(lines[0]?.fields?.body).toBe('{"message":"invalid header Bearer [redacted] and key undefined"}');
    expect(result.stderr).not.toContain(token);
  });
});

describe("the profile's own token in the URL asked (a user test: a download link's `?t=`, a session path)", () => {
  it('is masked in the body line and the error line, as the trace masks it; sent as given; exit 1', async () => {
    const configDir = await loggedIn();
    const asked: string[] = [];
    routes['GET /q'] = (request, _body, response) => {
      asked.push(request.url ?? '');
      answerJson(response, 404, { message: 'no such link' });
    };
    routes[`GET /v1/session/${token}/renew`] = (request, _body, response) => {
      asked.push(request.url ?? '');
      answerJson(response, 404, { message: 'no such session' });
    };
    const query = await runCommandLine(['api', `/q?t=${token}&limit=5`], { configDir });
    const path = await runCommandLine(['api', `/v1/session/${token}/renew`], { configDir });
    for (const result of [query, path]) {
      expect(result.code).toBe(1);
      expect(result.stderr).not.toContain(token);
    }
    expect(query.stderr).toContain(`/q?t=[redacted]&limit=5 answered with this body: {"message":"no such link"}`);
    expect(query.stderr).toContain('/q?t=[redacted]&limit=5 answered HTTP 404.');
    expect(path.stderr).toContain('/v1/session/[redacted]/renew answered HTTP 404.');
    expect(asked).toEqual([`/q?t=${token}&limit=5`, `/v1/session/${token}/renew`]);
  });
});

describe('an error answer quoting the token through two quoting layers or HTML5 references (a user test)', () => {
  it('prints it masked on stderr; exit 1', async () => {
    const configDir = await loggedIn();
    routes['GET /v/nested'] = (request, _body, response) => {
      const bearer = (request.headers.authorization ?? '').replace('Bearer ', '');
      const php = JSON.stringify({ inner: `token ${bearer} denied` }).replaceAll('-', '\\u002d');
      answerJson(response, 400, { message: php, html: `token ${bearer.replace('-', '&#45').replace('-', '&#x2d;')}` });
    };
    const result = await runCommandLine(['api', '/v/nested'], { configDir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('token [redacted] denied');
    expect(result.stderr).not.toMatch(/0123456789abcdef/);
  });
});
