/**
 * A query the user typed with credentials under their usual names (`key`, `sig`, `jwt`, `auth`, `code`, beside the
 * secret-looking `access_token` and `signature`): `--verbose` and the error lines show them `[redacted]`, the
 * request still carries them, and b2bctl's own parameters (`limit`, `offset`) are shown as sent.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const query =
  'sig=SIG-SECRET&key=KEY-SECRET&jwt=JWT-SECRET&access_token=AT-SECRET&signature=SIGN-SECRET&auth=AUTH-SECRET&code=CODE-SECRET&limit=5&offset=0';
const shown =
  'sig=[redacted]&key=[redacted]&jwt=[redacted]&access_token=[redacted]&signature=[redacted]&auth=[redacted]&code=[redacted]&limit=5&offset=0';

/** `b2bctl api PATH` with the profile's token; the query each request arrived with. */
async function api(path: string, flags: string[], status: number) {
  const arrived: string[] = [];
  platform.routes[`GET ${path}`] = (request, _body, response) => {
    arrived.push(new URL(request.url ?? '', 'http://x').search.slice(1));
    response.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
  };
  const result = await runCommandLine(['api', `${path}?${query}`, ...flags], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
  });
  return { result, arrived };
}

describe('api: credentials in a typed query', () => {
  it('an error line (HTTP 500) masks each, and the request carried them as typed', async () => {
    const { result, arrived } = await api('/q', ['--retries', '0'], 500);
    expect(result.code).toBe(1);
    expect(arrived).toEqual([query]);
    expect(result.stderr).toContain(`error: GET ${platform.url}/q?${shown} answered HTTP 500.`);
    expect(result.stderr).not.toMatch(/[A-Z]+-SECRET/);
  });

  it('a 503 that kept failing: the line masks them too', async () => {
    const { result, arrived } = await api('/u', ['--retries', '1'], 503);
    expect(arrived).toEqual([query, query]);
    expect(result.stderr).toContain(`GET ${platform.url}/u?${shown} kept failing with HTTP 503`);
    expect(result.stderr).not.toMatch(/[A-Z]+-SECRET/);
  });

  it('--verbose traces the request with each masked', async () => {
    const { result, arrived } = await api('/ok', ['--verbose'], 200);
    expect(result.code).toBe(0);
    expect(arrived).toEqual([query]);
    expect(result.stderr).toContain(`> GET ${platform.url}/ok?${shown}\n`);
    expect(result.stderr).not.toMatch(/[A-Z]+-SECRET/);
  });
});
