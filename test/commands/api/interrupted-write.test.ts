/**
 * A single write stopped by SIGTERM after its request was written, its answer never read (a fresh user test): `api -X
 * POST /v1/customer` said only `Interrupted (SIGTERM) during POST …` though the platform had created the customer,
 * and the same command again was refused as a duplicate. It says, as for a 502 after a write, that the platform may
 * have applied it and to check before sending it again; a read stopped so says no such thing.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';

const platform = useScriptedPlatform();
const held: ServerResponse[] = [];
afterEach(() => {
  for (const response of held.splice(0)) response.writeHead(503).end();
});

/** `b2bctl api ARGS` whose request the platform receives and never answers, interrupted once it has arrived. */
async function interruptedOnArrival(route: string, args: string[]) {
  let test: TestContext | undefined;
  platform.routes[route] = (_request, _body, response) => {
    held.push(response);
    test?.interrupt('SIGTERM');
  };
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['api', ...args], { configDir: freshConfigDir(), env, started: (context) => (test = context) });
}

describe('api interrupted while its request awaits the answer', () => {
  it('a POST written: exit 75, the platform may have applied it, check before sending it again; sent once', async () => {
    const result = await interruptedOnArrival('POST /v1/customer', ['-X', 'POST', '/v1/customer', '-f', 'name=Sig']);
    expect(result.code).toBe(75);
    expect(result.stderr).toBe(
      `error: Interrupted (SIGTERM) during POST ${platform.url}/v1/customer, after the request was sent: the platform may have applied it; check whether it did before sending it again.\n`,
    );
    expect(result.stdout).toBe('');
    expect(platform.received).toEqual(['POST /v1/customer']);
  });

  it('a GET: exit 75, interrupted, nothing said of having been applied', async () => {
    const result = await interruptedOnArrival('GET /v1/orders', ['/v1/orders']);
    expect(result.code).toBe(75);
    expect(result.stderr).toBe(`error: Interrupted (SIGTERM) during GET ${platform.url}/v1/orders.\n`);
  });
});
