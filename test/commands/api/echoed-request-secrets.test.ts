/**
 * Every value a request carries that b2bctl treats as a secret is one of the request's known secrets, masked wherever
 * an answer quotes it: the query values the printed URL masks (`api_key=`, `sig=`, a `-f senha=` sent in the query of a
 * GET), the `Cookie` the trace masks. An error answer echoing the request (a validation framework, a debug gateway)
 * showed them in clear on the very line whose URL masked them (a user test). And every quote of an answer, whatever its
 * status: a 200 in text quoting the token, refused by `-o json|csv`, was quoted in clear on stderr.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const token = 'a-pre-issued-token-0123456789';

/** `b2bctl api ARGS` with a pre-issued token; what the platform was sent is in `sent`. */
function api(args: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env });
}

/** The request as the route received it: its path, headers and body, echoed back with `status` (a user test). */
function echoing(route: string, status: number): { paths: string[] } {
  const seen = { paths: [] as string[] };
  routes[route] = (request, body, response) => {
    seen.paths.push(request.url ?? '');
    answerJson(response, status, { message: `status ${status}`, path: request.url, hdr: request.headers, body });
  };
  return seen;
}

describe('an error answer that echoes the request', () => {
  it('the credential query values are masked in the quoted body as in the URL; sent as given; exit 1', async () => {
    const seen = echoing('GET /x/status', 400);
    const result = await api(['/x/status?api_key=SEKRETKEY1&sig=SEKRETSIG2&limit=20']);
    expect(result.code).toBe(1);
    expect(seen.paths).toEqual(['/x/status?api_key=SEKRETKEY1&sig=SEKRETSIG2&limit=20']);
    expect(result.stderr).toContain(
      '/x/status?api_key=[redacted]&sig=[redacted]&limit=20 answered with this body: {"message":"status 400","path":"/x/status?api_key=[redacted]&sig=[redacted]&limit=20"',
    );
    for (const secret of ['SEKRETKEY1', 'SEKRETSIG2', token]) expect(result.stderr).not.toContain(secret);
  });

  it('a -f senha= field of a GET, sent in the query, is masked in the quoted body; --log-format json too', async () => {
    const seen = echoing('GET /x/status', 400);
    const result = await runCommandLine(['--log-format', 'json', 'api', '/x/status', '-X', 'GET', '-f', 'senha=PW9'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token },
    });
    expect(result.code).toBe(1);
    expect(seen.paths).toEqual(['/x/status?senha=PW9']);
    const lines = result.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { message: string; fields?: { body?: string } });
    expect(lines[0]?.message).toContain('/x/status?senha=[redacted] answered with this body');
    expect(lines[0]?.fields?.body).toContain('"path":"/x/status?senha=[redacted]"');
    // A short password, masked where it stands alone: the body's `PW9` whole.
    expect(result.stderr).not.toContain('PW9');
  });

  it('the Cookie header sent is masked, whole and each of its values alone; exit 1', async () => {
    routes['GET /x/cookie'] = (request, _body, response) =>
      answerJson(response, 400, { cookie: request.headers.cookie, sid: 'session SEKRETCOOKIE5 expired' });
    const result = await api(['/x/cookie', '-H', 'Cookie: sid=SEKRETCOOKIE5; theme=dark-blue-2']);
    expect(result.code).toBe(1);
    expect(received).toEqual(['GET /x/cookie']);
    expect(result.stderr).toContain(
      'answered with this body: {"cookie":"[redacted]","sid":"session [redacted] expired"}',
    );
    expect(result.stderr).not.toContain('SEKRETCOOKIE5');
  });

  it('--verbose: a 2xx echoing its URL shows the credential query values masked in the trace; stdout as sent', async () => {
    routes['GET /x/echo'] = (request, _body, response) => answerJson(response, 200, { path: request.url });
    const result = await api(['--verbose', '/x/echo?api_key=SEKRETKEY1&v=1']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('< {"path":"/x/echo?api_key=[redacted]&v=1"}');
    expect(result.stderr).not.toContain('SEKRETKEY1');
    expect(result.stdout).toBe('{"path":"/x/echo?api_key=SEKRETKEY1&v=1"}');
  });
});

describe('a 2xx answer in text that quotes a secret, refused by -o', () => {
  it.each(['json', 'csv'])(
    '-o %s: the body quoted on stderr masks the token and the query key; exit 1, nothing on stdout',
    async (format) => {
      routes['GET /x/echo'] = (_request, _body, response) =>
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`your token ${token} is fine; key SEKRETKEYQ`);
      const result = await api(['/x/echo?api_key=SEKRETKEYQ', '-o', format]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(
        '/x/echo?api_key=[redacted] answered with this body: your token [redacted] is fine; key [redacted]',
      );
      expect(result.stderr).not.toContain(token);
      expect(result.stderr).not.toContain('SEKRETKEYQ');
    },
  );

  it('a secret header the user gave, quoted by a 200 in text, is masked as a 400 quoting it is', async () => {
    routes['GET /x/echo'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('key HDRSEKRET42 accepted');
    const result = await api(['/x/echo', '-H', 'X-Api-Key: HDRSEKRET42', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('answered with this body: key [redacted] accepted');
    expect(result.stderr).not.toContain('HDRSEKRET42');
  });
});
