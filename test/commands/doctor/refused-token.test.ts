/**
 * doctor with a token the platform no longer takes (revoked early: a password changed, the integration user
 * re-created). Its expiry says it is good, so the token line said "ok", and the routes under it then failed "token
 * refused" with no fix named. The token line now says the platform refused it and names the fix every other command
 * names, and the closing error quotes it.
 */
import { expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, useSandboxPerFile } from '../../support/cli.js';
import { login, runCommandLine } from '../../support/command-line.js';
import { listingRoute, requestCounts, resetCounts, tokenRoute } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
useSandboxPerFile({ login: false }, (ready) => ({ sandbox } = ready));

interface Finding {
  check: string;
  result: string;
  status?: number;
  detail: string;
}

async function revokeEveryToken(): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/tokens/revoke`, { method: 'POST' });
  await resetCounts(sandbox);
}

it('a cached token the platform refuses: the token line fails and names b2bctl login --profile shop (exit 77)', async () => {
  const configDir = freshConfigDir();
  await login(sandbox, configDir, ['--profile', 'shop']);
  await revokeEveryToken();
  const result = await runCommandLine(['doctor', '--profile', 'shop', '-o', 'json'], { configDir });
  expect(result.code).toBe(77);
  const findings = JSON.parse(result.stdout) as Finding[];
  const token = findings.find((finding) => finding.check === 'token (cached)');
  expect(token?.result).toBe('fail');
  expect(token?.detail).toMatch(
    /^the platform refused it \(HTTP 401 on GET \/sellerModule\/listSellers\?limit=1\), though cached as valid until \S+Z: run B2BCTL_CONFIG_DIR=\S+ b2bctl login --profile shop \(or set B2BCTL_PASSWORD so b2bctl logs in again by itself\)$/,
  );
  // The routes' own lines stay as the platform answered them.
  expect(findings.filter((finding) => finding.status === 401).map((finding) => finding.detail)).toEqual([
    'token refused',
    'token refused',
  ]);
  expect(result.stderr).toMatch(
    /^error: doctor: 3 checks failed \(each finding’s "result" says which\); token \(cached\): the platform refused it .*: run B2BCTL_CONFIG_DIR=\S+ b2bctl login --profile shop /,
  );
  // Nothing is sent to log in: doctor reads the cached token only, as it always did.
  expect(Object.keys(await requestCounts(sandbox))).not.toContain(tokenRoute);
  expect(await requestCounts(sandbox)).toMatchObject({ [listingRoute]: 1 });
});

it('a token from B2BCTL_TOKEN the platform refuses: the token line names the variable, not a login', async () => {
  const configDir = freshConfigDir();
  await login(sandbox, configDir);
  const result = await runCommandLine(['doctor', '-o', 'json'], {
    configDir,
    env: { B2BCTL_TOKEN: 'not-a-token-the-sandbox-issued' },
  });
  expect(result.code).toBe(77);
  const token = (JSON.parse(result.stdout) as Finding[]).find((finding) => finding.check === 'token (cached)');
  expect(token).toMatchObject({
    result: 'fail',
    detail:
      "the platform refused the token in B2BCTL_TOKEN (HTTP 401 on GET /sellerModule/listSellers?limit=1): give a valid one, or unset B2BCTL_TOKEN to use the profile's (b2bctl login)",
  });
});

it('a cached token the platform takes stays ok', async () => {
  const configDir = freshConfigDir();
  await login(sandbox, configDir);
  const result = await runCommandLine(['doctor', '-o', 'json'], { configDir });
  const token = (JSON.parse(result.stdout) as Finding[]).find((finding) => finding.check === 'token (cached)');
  expect(token?.result).toBe('ok');
  expect(token?.detail).toMatch(/^cached, obtained \S+, valid until \S+$/);
});
