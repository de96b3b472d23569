/**
 * `orders poll --watch` against a scripted platform: a failure that no wait cures (a redirect, a 403, a 401 with no
 * password to log in again, a 4xx refusal of the listing) ends the watch at its first cycle with its one line and its
 * exit code, as a single run ends; an outage (a network error, a 5xx, a 429) is logged and waited out, the cursor
 * unchanged. A redirect used to be tried again for ever, every 60 s up to every 10 minutes.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const token = 'a-pre-issued-token-0123456789';

/**
 * `orders poll --watch` whose waits take no time: a wait after a cycle that failed (its line written) is where the
 * watch is stopped, as SIGTERM between two runs stops it.
 */
async function watch(answer: (response: ServerResponse) => void) {
  platform.routes['GET /v1/orders'] = (_request, _body, response) => answer(response);
  let run: TestContext | undefined;
  let now = Date.UTC(2026, 10, 30, 8, 0, 0);
  const clock: Clock = {
    now: () => now,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      now += ms;
      if (run?.stderr().includes('cycle failed')) run.interrupt('SIGTERM');
      signal?.throwIfAborted();
    },
  };
  const result = await runCommandLine(['orders', 'poll', '--watch', '--since', '1h', '-o', 'ndjson'], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: token, B2BCTL_RETRIES: '0' },
    clock,
    started: (test) => (run = test),
  });
  return { ...result, listings: platform.received.filter((request) => request === 'GET /v1/orders').length };
}

const listing = () => {
  const from = new Date(Date.UTC(2026, 10, 30, 7, 0, 0) - 1).toISOString();
  const to = new Date(Date.UTC(2026, 10, 30, 8, 0, 0) - 2_000 + 1).toISOString();
  return `${platform.url}/v1/orders?updatedFrom=${encodeURIComponent(from)}&updatedTo=${encodeURIComponent(to)}&limit=25&offset=0`;
};

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('orders poll --watch: what no wait cures ends it at the first cycle', () => {
  it('a redirect: exit 69, its line, one listing asked', async () => {
    const result = await watch((response) =>
      response.writeHead(302, { location: 'https://portal.example.com/login' }).end(),
    );
    expect(result.stderr).toBe(
      `error: GET ${listing()} answered HTTP 302 (a redirect to https://portal.example.com/login, not followed: the token goes to the base URL only; if the platform moved (http to https, another host), set the base URL there).\n`,
    );
    expect([result.code, result.listings, result.stdout]).toEqual([69, 1, '']);
  });

  it('a 403: exit 77, its line, one listing asked', async () => {
    const result = await watch((response) => json(response, 403, { message: 'Access denied' }));
    expect(result.stderr).toBe(`error: GET ${listing()} failed with HTTP 403: Access denied\n`);
    expect([result.code, result.listings]).toEqual([77, 1]);
  });

  it('a 401 to a token from the environment, with no password to log in again: exit 77, one listing asked', async () => {
    const result = await watch((response) => json(response, 401, { message: 'Unauthorized' }));
    expect(result.stderr).toBe(
      'error: Not logged in for profile "default": the platform refused the token in B2BCTL_TOKEN. Give a valid token, or unset B2BCTL_TOKEN to use the profile\'s (b2bctl login).\n',
    );
    expect([result.code, result.listings]).toEqual([77, 1]);
  });

  it('a listing route that is not there (404, paths.orders wrong): exit 1, its line, one listing asked', async () => {
    const result = await watch((response) => response.writeHead(404).end());
    expect(result.stderr).toBe(`error: GET ${listing()} failed with HTTP 404\n`);
    expect([result.code, result.listings]).toEqual([1, 1]);
  });

  it('a query the platform refuses (400, a platform reading whole seconds): exit 1, its line and hint, one listing asked', async () => {
    const refusal = { message: 'Parameter [updatedFrom] is invalid' };
    const result = await watch((response) => json(response, 400, refusal));
    expect(result.stderr).toBe(
      `error: GET ${listing()} failed with HTTP 400: Parameter [updatedFrom] is invalid (if the platform takes updatedFrom and updatedTo to the second only: b2bctl config set orders.timePrecision s)\n`,
    );
    expect([result.code, result.listings]).toEqual([1, 1]);
  });
});

/** What a watch says of a cycle that failed, and of its stop in the wait after it. */
const waitedOut = (failure: string) => [
  `orders poll: cycle failed (${failure}); trying again in 1 min, from the cursor.`,
  'orders poll: stopped between two runs; the next one continues from the cursor.',
  '',
];

describe('orders poll --watch: an outage is waited out', () => {
  it('a 503', async () => {
    const result = await watch((response) => json(response, 503, { message: 'Service Unavailable' }));
    expect(result.stderr.split('\n')).toEqual(
      waitedOut(
        `GET ${listing()} kept failing with HTTP 503 after 1 attempt; the platform is unavailable, try again later.`,
      ),
    );
    expect([result.code, result.listings]).toEqual([0, 1]);
  });

  it('a 500', async () => {
    const result = await watch((response) => json(response, 500, { message: 'Internal Server Error' }));
    expect(result.stderr.split('\n')).toEqual(
      waitedOut(`GET ${listing()} failed with HTTP 500: Internal Server Error`),
    );
    expect([result.code, result.listings]).toEqual([0, 1]);
  });

  it('an error answered with 200 (no page of orders): its passing failure, as a 500 is', async () => {
    const result = await watch((response) => json(response, 200, { success: false, message: 'Internal error' }));
    expect(result.stderr.split('\n')).toEqual(
      waitedOut(
        `GET ${listing()} failed with HTTP 200: the answer is no page of orders (it says it failed): {"success":false,"message":"Internal error"}`,
      ),
    );
    expect([result.code, result.listings]).toEqual([0, 1]);
  });

  it('a 408, the server saying to try again later', async () => {
    const result = await watch((response) => json(response, 408, { message: 'Request Timeout' }));
    expect(result.stderr.split('\n')).toEqual(waitedOut(`GET ${listing()} failed with HTTP 408: Request Timeout`));
    expect([result.code, result.listings]).toEqual([0, 1]);
  });

  it('a connection reset', async () => {
    const result = await watch((response) => response.socket?.destroy());
    expect(result.stderr.split('\n')).toEqual(
      waitedOut(
        `No answer from ${platform.url} after 1 attempt: the connection to ${platform.url.slice('http://'.length)} was cut before an answer came (UND_ERR_SOCKET). A firewall, proxy or gateway in between may be closing it; check the network, then try again.`,
      ),
    );
    expect([result.code, result.listings]).toEqual([0, 1]);
  });

  it('a 429 the platform keeps answering', async () => {
    const result = await watch((response) =>
      response
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '5' })
        .end(JSON.stringify({ message: 'Too Many Requests' })),
    );
    // Pauses of 5 s are the pacer's everyday work, not announced (a pause of 10 s or more is).
    expect(result.stderr.split('\n')).toEqual(
      waitedOut(
        `GET ${listing()} kept answering HTTP 429 (too many requests) after 51 attempts; the platform is throttling b2bctl's requests, try again later.`,
      ),
    );
    expect([result.code, result.listings]).toEqual([0, 51]);
  });
});
