/**
 * A platform slower than the time-out: the error advises raising it, in a way the command takes (a fresh user test).
 * `login`, `sellers list` and `orders poll` advised `--timeout`, a flag they refuse (exit 2): an operator following it
 * in an every-minute crontab line made a slow platform a job failing every minute. Where the command has no such
 * flag, the advice names B2BCTL_TIMEOUT and `config set http.timeout`; `api` and the bulk commands name --timeout
 * too. A token request left unanswered changes nothing at the platform: no "may have been applied" for it.
 */
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
/** Never answered: each attempt ends at the 0.1 s time-out, the request received. */
const neverAnswered = () => undefined;
const slow = { B2BCTL_TIMEOUT: '100ms', B2BCTL_RETRIES: '0' };
const loggedIn = { B2BCTL_TOKEN: 'a-pre-issued-token-0123456789', ...slow };

function b2bctl(args: string[], env: Record<string, string>, stdin?: string) {
  return runCommandLine(args, { configDir: freshConfigDir(), env: { ...env, B2BCTL_BASE_URL: platform.url }, stdin });
}

const settingAdvice = 'raise the time-out (B2BCTL_TIMEOUT=30s, or b2bctl config set http.timeout 30s)';

describe('the advice of a time-out names what the command takes', () => {
  it('login, its token request unanswered: the setting, no --timeout, nothing "may have been applied"', async () => {
    platform.routes['POST /v1/auth/token'] = neverAnswered;
    const args = ['login', '--base-url', platform.url, '--username', 'erp@example.com', '--password-stdin'];
    const result = await b2bctl(args, slow, 'a-password\n');
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      `error: No answer from ${platform.url} after 1 attempt: 127.0.0.1:${new URL(platform.url).port} did not answer within the 0.1 s time-out (timed out). If the platform is this slow, ${settingAdvice}, then try again.\n`,
    );
  });

  it.each([
    ['sellers list', ['sellers', 'list'], 'GET /sellerModule/listSellers'],
    ['orders poll', ['orders', 'poll', '--since', '1h', '-o', 'ndjson'], 'GET /v1/orders'],
    ['orders get', ['orders', 'get', '301'], 'GET /v1/orders/301'],
  ])('%s: the setting, no --timeout (the command refuses it)', async (_name, args, route) => {
    platform.routes[route] = neverAnswered;
    const result = await b2bctl(args, loggedIn);
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(`If the platform is this slow, ${settingAdvice}, then try again.`);
    expect(result.stderr).not.toContain('--timeout');
    expect(platform.received).toContain(route);
  });

  it('api, which takes --timeout: the flag first, then the setting', async () => {
    platform.routes['GET /v1/orders'] = neverAnswered;
    const result = await b2bctl(['api', '/v1/orders'], loggedIn);
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(
      'If the platform is this slow, raise the time-out (--timeout 30s, B2BCTL_TIMEOUT=30s, or b2bctl config set http.timeout 30s), then try again.',
    );
  });
});
