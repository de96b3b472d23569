/**
 * `b2bctl doctor` as an operator runs it the first time: against each dialect (what b2bctl recognised
 * of each answer), a stopped platform, a host that does not resolve, a wrong password, and a
 * platform whose clock is 10 minutes off. It writes nothing but the update route's documented `{}`,
 * and prints no secret.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cachedToken, freshConfigDir, login, runCli } from '../../support/cli.js';
import { requestCounts, sandboxPassword, sandboxUser, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

interface Finding {
  check: string;
  result: string;
  status?: number;
  detail: string;
  setting?: string;
}

const sandboxes: RunningSandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
  removeTemporaryFolders();
});

async function sandboxWith(overrides: Parameters<typeof startTestSandbox>[0] = {}): Promise<RunningSandbox> {
  const sandbox = await startTestSandbox(overrides);
  sandboxes.push(sandbox);
  return sandbox;
}

function doctor(args: string[], env: Record<string, string>, configDir = freshConfigDir()) {
  return runCli(['doctor', '-o', 'json', ...args], { configDir, env });
}

function findings(stdout: string): Record<string, Finding> {
  return Object.fromEntries((JSON.parse(stdout) as Finding[]).map((finding) => [finding.check, finding]));
}

const expected: Record<string, { token: string; lifetime: boolean; listing: string }> = {
  default: {
    token: 'token in "access_token", lifetime in "expires_in" (43200 s)',
    lifetime: true,
    listing: 'a bare array, 1 record',
  },
  spring: {
    token: 'token in "accessToken", lifetime in "expiresIn" (43200 s)',
    lifetime: true,
    listing: 'an array in "content", 1 record',
  },
  legacy: { token: 'token in "token", no lifetime given', lifetime: false, listing: 'an array in "data", 1 record' },
  gateway: {
    token: 'token in "data.token", lifetime in "data.expiresIn" (43200 s)',
    lifetime: true,
    listing: 'an array in "items", 1 record',
  },
};

describe('doctor against each dialect', () => {
  it.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
    '%s: the table says where each answer holds what b2bctl reads; exit 0; nothing written, no secret printed',
    async (name, dialect) => {
      const sandbox = await sandboxWith({ dialect });
      const configDir = freshConfigDir();
      if (dialect.tokenPath !== '/v1/auth/token') {
        await runCli(['config', 'set', 'paths.token', dialect.tokenPath], { configDir });
        await runCli(['config', 'set', 'auth.style', 'form'], { configDir });
      }
      const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: sandboxPassword };
      const result = await doctor(['--document', '529.982.247-25'], env, configDir);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const table = findings(result.stdout);
      const tokenCheck = `POST ${dialect.tokenPath} (${dialect.tokenStyles === 'form' ? 'form' : 'json'})`;
      expect(table[tokenCheck]).toMatchObject({ result: 'ok', status: 200 });
      expect(table[tokenCheck]?.detail).toContain(expected[name]?.token);
      expect(table[tokenCheck]?.setting).toBe(expected[name]?.lifetime ? undefined : 'answers.token.expiresIn');
      expect(table['GET /sellerModule/listSellers?limit=1']).toEqual({
        check: 'GET /sellerModule/listSellers?limit=1',
        result: 'ok',
        status: 200,
        detail: expected[name]?.listing,
      });
      expect(table['PUT /v1/customer/529.982.247-25 {}']).toMatchObject({ result: 'ok', status: 404 });
      expect(table.clock?.result).toBe('ok');
      // Read-only: the token, the two listings, the update route's {} and the base URL itself.
      const counts = await requestCounts(sandbox);
      expect(Object.keys(counts).filter((route) => /^(POST|DELETE)/.test(route) && !route.includes('token'))).toEqual(
        [],
      );
      expect(counts['PUT /v1/stock/batch']).toBeUndefined();
      expect(result.stdout).not.toContain(sandboxPassword);
    },
  );

  it('with a cached token and no password: the token from the profile and its expiry, never the token', async () => {
    const sandbox = await sandboxWith();
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    const result = await runCli(['doctor', '-o', 'table'], { configDir, env: {} });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/token \(cached\)\s+ok\s+cached, obtained \S+, valid until \S+/);
    expect(result.stdout).toContain('GET /sellerModule/listSellers?limit=1');
    expect(result.stdout).not.toContain(cachedToken(configDir));
  });
});

describe('doctor when something is wrong', () => {
  it('a stopped platform: the base URL cannot be reached, the rest skipped, exit 69', async () => {
    // A sandbox that was running and has stopped: nothing listens at its address any more.
    const stopped = await startTestSandbox();
    const url = stopped.url;
    await stopped.close();
    const result = await doctor([], { B2BCTL_BASE_URL: url, B2BCTL_USERNAME: sandboxUser, B2BCTL_PASSWORD: 'x' });
    expect(result.code).toBe(69);
    const table = findings(result.stdout);
    expect(table[`GET ${url}`]).toMatchObject({ result: 'fail', setting: 'baseUrl' });
    expect(table[`GET ${url}`]?.detail).toContain('ECONNREFUSED');
    expect(table['token and routes']).toMatchObject({ result: 'skip' });
    expect(result.stderr).toMatch(/^error: doctor: 1 check failed \(each finding’s "result" says which\); GET http/);
  });

  it('a base URL whose host does not resolve: DNS fails, exit 69', async () => {
    const result = await doctor([], { B2BCTL_BASE_URL: 'https://no-such-store.invalid' });
    expect(result.code).toBe(69);
    expect(findings(result.stdout).DNS).toMatchObject({ result: 'fail', setting: 'baseUrl' });
  });

  it('a wrong password: the login refused, routes skipped, exit 77, the password never printed', async () => {
    const sandbox = await sandboxWith();
    const result = await doctor([], {
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_USERNAME: sandboxUser,
      B2BCTL_PASSWORD: 'wrong-password-123',
    });
    expect(result.code).toBe(77);
    const table = findings(result.stdout);
    expect(table['POST /v1/auth/token (json)']).toMatchObject({ result: 'fail', status: 401 });
    expect(table.routes).toMatchObject({ result: 'skip' });
    expect(`${result.stdout}${result.stderr}`).not.toContain('wrong-password-123');
  });

  it('a platform whose clock is 10 minutes ahead: the skew measured from its Date header, exit 1', async () => {
    const sandbox = await sandboxWith({ clockOffsetSeconds: 600 });
    const result = await doctor([], {
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_USERNAME: sandboxUser,
      B2BCTL_PASSWORD: sandboxPassword,
    });
    expect(result.code).toBe(1);
    const clock = findings(result.stdout).clock;
    expect(clock?.result).toBe('fail');
    expect(clock?.detail).toMatch(/^platform clock (599|600|601) s ahead of this machine: /);
  });
});
