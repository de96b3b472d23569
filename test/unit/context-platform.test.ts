import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Context, createContext } from '../../src/context.js';
import type { RequestPace } from '../../src/platform/http-client.js';
import { temporaryFolder } from '../support/temporary.js';

/**
 * `context.platform(tuning)` gives each caller a client built for its own tuning: a command that asked for an
 * untuned client first (a lookup before the bulk run) no longer hands the bulk run a client without its pacing.
 * The clients share one token source, so the token route is asked once.
 */
let server: Server;
let baseUrl: string;
let configDir: string;
let hits: string[];
let context: Context;

beforeEach(async () => {
  hits = [];
  server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.setHeader('content-type', 'application/json');
    if (request.url === '/v1/auth/token') {
      response.end(JSON.stringify({ access_token: 'a-token-long-enough-to-pass', expires_in: 3600 }));
      return;
    }
    // The one retryable answer: only a client with retries left asks again.
    if (request.url?.startsWith('/flaky')) {
      response.statusCode = 503;
      response.end('{}');
      return;
    }
    response.end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  configDir = temporaryFolder('b2bctl-tuning-');
  context = createContext({
    io: {
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      isStdoutTTY: false,
      isStderrTTY: false,
      isStdinTTY: false,
    },
    env: {
      B2BCTL_CONFIG_DIR: configDir,
      B2BCTL_BASE_URL: baseUrl,
      B2BCTL_USERNAME: 'erp@example.com',
      B2BCTL_PASSWORD: 'secret',
    },
    globals: { quiet: true, verbose: false, color: false, input: false },
  });
});

afterEach(async () => {
  await context.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A pace that lets every request through at once and counts them. */
function countingPace(): RequestPace & { taken: number } {
  return {
    taken: 0,
    async take() {
      this.taken++;
    },
    succeeded() {},
    throttled() {},
  };
}

describe('context.platform: tuning is explicit per use', () => {
  it('an untuned client asked for first does not take the tuning of a later caller, nor give it its own', async () => {
    const untuned = await context.platform();
    await untuned.send({ method: 'GET', path: '/lookup' });
    const pace = countingPace();
    const paced = await context.platform({ pace, retries: 0, connections: 2 });
    await paced.send({ method: 'GET', path: '/bulk/1' });
    await paced.send({ method: 'GET', path: '/bulk/2' });
    await untuned.send({ method: 'GET', path: '/lookup' });

    expect(paced).not.toBe(untuned);
    expect(await context.platform()).toBe(untuned);
    // Only the paced client's requests went through its pace.
    expect(pace.taken).toBe(2);
    // The token was fetched once, for both clients.
    expect(hits.filter((hit) => hit === 'POST /v1/auth/token')).toHaveLength(1);
    expect(hits).toEqual(['POST /v1/auth/token', 'GET /lookup', 'GET /bulk/1', 'GET /bulk/2', 'GET /lookup']);
  });

  it('two tuned callers each get theirs: retries 0 asks once, retries 2 asks three times', async () => {
    const once = await context.platform({ retries: 0 });
    const thrice = await context.platform({ retries: 2 });
    await expect(once.send({ method: 'GET', path: '/flaky/once' })).rejects.toThrow(/HTTP 503/);
    await expect(thrice.send({ method: 'GET', path: '/flaky/thrice' })).rejects.toThrow(/HTTP 503/);
    expect(hits.filter((hit) => hit === 'GET /flaky/once')).toHaveLength(1);
    expect(hits.filter((hit) => hit === 'GET /flaky/thrice')).toHaveLength(3);
    expect(hits.filter((hit) => hit === 'POST /v1/auth/token')).toHaveLength(1);
  });
});
