/**
 * Every line `api --paginate` stops or warns with shows the URL asked as the single request's lines do (a user
 * test: the listing outrun printed `?api_key=` in clear beside two stops that masked it): a query value named like a
 * credential `[redacted]`, and the profile's token masked where the request carried it, here in the path.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { answerJsonText, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const { routes } = platform;

const token = 'TOK-in-path-0123456789abcdef';
const apiKey = 'SUPERSECRET123';
const path = `/v1/stores/${token}/items`;

/** The offsets asked, in order. */
const asked: number[] = [];

/** `api PATH?api_key=… --paginate`, the profile's token being the one in the path. */
function paginate(pageSize: number) {
  asked.length = 0;
  return runCommandLine(['api', `${path}?api_key=${apiKey}`, '--paginate', '--page-size', String(pageSize)], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token },
  });
}

/** Answers the page `pageAt(offset)` gives for the offset asked. */
function pagesByOffset(pageAt: (offset: number) => unknown[]): RouteHandler {
  return (request, _body, response) => {
    const offset = Number(new URL(request.url ?? '', 'http://x').searchParams.get('offset') ?? '0');
    asked.push(offset);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(pageAt(offset)));
  };
}

/** The URL as every line shows it, to its offset: the key and the token masked, b2bctl's own parameters as sent. */
const shownPrefix = () => `GET ${platform.url}/v1/stores/[redacted]/items?api_key=[redacted]&offset=`;

function expectMasked(stderr: string): void {
  expect(stderr).not.toContain(apiKey);
  expect(stderr).not.toContain(token);
  expect(stderr).toContain(shownPrefix());
}

describe('api --paginate: a credential in the query or the token in the path is never on stderr', () => {
  it('a listing outrun (the page of offset 1 answered again five times): exit 1, the line masked', async () => {
    routes[`GET ${path}`] = pagesByOffset((offset) => [{ id: offset === 0 ? 1 : 2 }]);
    const result = await paginate(1);
    expect(result.code).toBe(1);
    expect(asked).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(result.stderr).toContain(`error: ${shownPrefix()}6&limit=1 answered the page of offset 1 again, 5 times`);
    expectMasked(result.stderr);
  });

  it('the last page answered again past the end: exit 0, the warning masked', async () => {
    routes[`GET ${path}`] = pagesByOffset((offset) => (offset === 0 ? [{ id: 1 }, { id: 2 }] : [{ id: 3 }, { id: 4 }]));
    const result = await paginate(2);
    expect(result.code).toBe(0);
    expect(asked).toEqual([0, 2, 4]);
    expect(result.stderr).toContain(`warning: ${shownPrefix()}4&limit=2 answered the page of offset 2 again`);
    expectMasked(result.stderr);
  });

  it('a route that does not page by offset: exit 1, the line masked', async () => {
    routes[`GET ${path}`] = pagesByOffset(() => [{ id: 1 }, { id: 2 }]);
    const result = await paginate(2);
    expect(result.code).toBe(1);
    expect(asked).toEqual([0, 2]);
    expect(result.stderr).toContain(`error: ${shownPrefix()}2&limit=2 answered the same page as offset 0`);
    expectMasked(result.stderr);
  });

  it.each([
    ['a body that is not JSON', 'not json', 'answered HTTP 200 with a body that is not JSON'],
    ['an object with no list', '{"name":"x"}', 'answered an object with no list b2bctl recognises'],
    [
      'a list beside fields that are no paging figure',
      '{"status":"ok","data":[1]}',
      'answered an object with a list under data',
    ],
    [
      'a body nested too deep',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      'answered HTTP 200 with a body nested more than',
    ],
  ])('%s: exit 1, the line masked', async (_name, body, said) => {
    routes[`GET ${path}`] = answerJsonText(200, body);
    const result = await paginate(2);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: ${shownPrefix()}0&limit=2 ${said}`);
    expectMasked(result.stderr);
  });
});
