/**
 * A secret given in an environment variable is read one way by every command (a user test: five policies, so that
 * `login` took `B2BCTL_PASSWORD=$'…\r'` while `doctor` sent the CR and blamed the password, and `tax serve` started
 * with a CR-ended `B2BCTL_TAX_TOKEN` and answered 401 to every callback while the sandbox refused the variable): one
 * line end (`$'x\r'`, `$'x\n'`, `$'x\r\n'`, what `VAR="$(cat file)"` keeps of a file) is dropped and the secret sent
 * without it; a line break inside is refused before anything is sent, exit 2, naming the variable.
 */
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { register } from '../../../src/commands/tax/cli.js';
import { run as serveTaxes, type TaxServeOptions } from '../../../src/commands/tax/serve.js';
import { run as runSandbox } from '../../../src/commands/sandbox/run.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { parseWithGroup } from '../../support/parse-group.js';
import {
  credentialsEnv,
  listingRoute,
  requestCounts,
  resetCounts,
  sandboxPassword,
  seedDirectory,
  tokenRoute,
  useFileSandbox,
} from '../../support/sandbox.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

let sandbox: RunningSandbox;
useFileSandbox((started) => (sandbox = started));
beforeEach(async () => {
  await resetCounts(sandbox);
});
afterAll(removeTemporaryFolders);

/** The line ends a variable filled from a file keeps: a Windows file's CR, an LF, both. */
const lineEnds = [
  ['a CR', '\r'],
  ['an LF', '\n'],
  ['a CR and an LF', '\r\n'],
] as const;

const lineFeedInside = (variable: string) =>
  `error: ${variable} holds a line feed (LF), which no credential is made of: give the credential alone, on one line.\n`;

describe('B2BCTL_PASSWORD', () => {
  it.each(lineEnds)(
    'ending in %s: login, a command logging in by itself and doctor all log in with the password without it',
    async (_, end) => {
      const env = credentialsEnv(sandbox, `${sandboxPassword}${end}`);
      const login = await runCommandLine(['login'], { configDir: freshConfigDir(), env });
      const listing = await runCommandLine(['api', '/sellerModule/listSellers?limit=1'], {
        configDir: freshConfigDir(),
        env,
      });
      expect([login.code, listing.code]).toEqual([0, 0]);
      expect(await requestCounts(sandbox)).toEqual({ [tokenRoute]: 2, [listingRoute]: 1 });
      const doctor = await runCommandLine(['doctor', '-o', 'json'], { configDir: freshConfigDir(), env });
      const findings = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
      expect(findings.find((finding) => finding.check === 'POST /v1/auth/token (json)')).toMatchObject({
        result: 'ok',
        detail: expect.stringMatching(/^token obtained for /) as unknown,
      });
      expect(doctor.code).toBe(0);
    },
  );

  it.each([
    ['login', ['login']],
    ['doctor', ['doctor']],
    ['a command that logs in by itself', ['api', '/sellerModule/listSellers?limit=1']],
  ])('with a line break inside: %s refuses it, exit 2, naming it, nothing sent', async (_, args) => {
    const result = await runCommandLine(args, {
      configDir: freshConfigDir(),
      env: credentialsEnv(sandbox, `${sandboxPassword}\nsecond line`),
    });
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: lineFeedInside('B2BCTL_PASSWORD'),
    });
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

const taxToken = '0123456789abcdef0123456789abcdef';
const taxPassword = 'senha-da-plataforma-16';

/** `tax serve` in process on the sample table with `env`: one empty cart posted with `authorization`, its answer. */
async function cartAnsweredBy(args: string[], env: Record<string, string>, authorization: string) {
  const options = (await parseWithGroup(register, [
    'tax',
    'serve',
    '--rules',
    join(seedDirectory, 'impostos.csv'),
    '--map',
    join(seedDirectory, 'impostos.map.json'),
    '--port',
    '0',
    ...args,
  ])) as TaxServeOptions;
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder(), ...env } });
  const running = serveTaxes(options, memory.context);
  const url = (await memory.firstLine()).trim();
  const answer = await fetch(`${url}/tax`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = await answer.text();
  memory.interrupt();
  await running;
  return { status: answer.status, body };
}

describe("tax serve's credential", () => {
  const basic = `Basic ${Buffer.from(`plataforma:${taxPassword}`).toString('base64')}`;

  it.each(lineEnds)(
    'B2BCTL_TAX_TOKEN ending in %s: started, and the platform sending the token is let in',
    async (_, end) => {
      const answered = await cartAnsweredBy(
        ['--auth', 'bearer'],
        { B2BCTL_TAX_TOKEN: `${taxToken}${end}` },
        `Bearer ${taxToken}`,
      );
      // Let in: the empty cart is refused for what it lacks, not 401 for its credential.
      expect(answered.status).toBe(400);
      expect(answered.body).not.toContain('unauthorized');
    },
  );

  it.each(lineEnds)(
    'B2BCTL_TAX_PASSWORD ending in %s: started, and the platform sending the password is let in',
    async (_, end) => {
      const answered = await cartAnsweredBy(
        ['--auth', 'basic'],
        { B2BCTL_TAX_USER: 'plataforma', B2BCTL_TAX_PASSWORD: `${taxPassword}${end}` },
        basic,
      );
      expect(answered.status).toBe(400);
      expect(answered.body).not.toContain('unauthorized');
    },
  );

  it.each([
    ['B2BCTL_TAX_TOKEN', ['--auth', 'bearer'], { B2BCTL_TAX_TOKEN: `${taxToken}\nX-Forged: 1` }, true],
    [
      'B2BCTL_TAX_PASSWORD',
      ['--auth', 'basic'],
      { B2BCTL_TAX_USER: 'plataforma', B2BCTL_TAX_PASSWORD: `${taxPassword}\nsecond line` },
      false,
    ],
  ])('%s with a line break inside: not started, exit 2, naming it', async (variable, args, env, header) => {
    const result = await runCommandLine(
      ['tax', 'serve', '--rules', join(seedDirectory, 'impostos.csv'), '--port', '0', ...args],
      { configDir: freshConfigDir(), env, started: (test) => void test.firstLine().then(() => test.interrupt()) },
    );
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: ${variable} holds a line feed (LF), which ${header ? 'no HTTP header can carry' : 'no credential is made of'}: give the credential alone, on one line.\n`,
    });
  });

  it('a token too short is said as every short secret is, with the command that makes one', async () => {
    const result = await runCommandLine(
      ['tax', 'serve', '--rules', join(seedDirectory, 'impostos.csv'), '--port', '0', '--auth', 'bearer'],
      { configDir: freshConfigDir(), env: { B2BCTL_TAX_TOKEN: 'curto\r' } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: The token in B2BCTL_TAX_TOKEN has 5 characters; tax serve --auth bearer needs at least 32, so it cannot be guessed. Make one with: (umask 077; openssl rand -hex 32 > tax-token), then B2BCTL_TAX_TOKEN="$(cat tax-token)", and give the platform the same token.\n',
    );
  });
});

describe('the sandbox and the receiver send what tax serve and the ERP take', () => {
  it.each(lineEnds)(
    'the sandbox with B2BCTL_TAX_TOKEN ending in %s: started, the token sent without it',
    async (_, end) => {
      const callback = await standInErp(() => ({ status: 401, body: '{}' }));
      const memory = testContext({
        env: { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_TAX_TOKEN: `${taxToken}${end}` },
      });
      const running = runSandbox({ port: 0, seed: seedDirectory, taxCallback: `${callback.url}/tax` }, memory.context);
      const url = (await memory.firstLine()).trim();
      await fetch(`${url}/_sandbox/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          customer: { document: '12.345.678/0001-95', paysIcms: true },
          state: 'MG',
          items: [{ sku: 'A', ncm: '84713012', quantity: 1, unitPrice: 10 }],
        }),
      });
      memory.interrupt();
      await running;
      await callback.close();
      expect(callback.received.map((request) => request.authorization)).toEqual([`Bearer ${taxToken}`]);
    },
  );

  it.each(lineEnds)(
    'webhook replay with B2BCTL_WEBHOOK_FORWARD_TOKEN ending in %s: the ERP gets the token',
    async (_, end) => {
      const erp = await standInErp(() => ({ status: 200, body: '' }));
      const result = await runCommandLine(
        ['webhook', 'replay', '--id', '1', '--inbox', await inboxWithOneEvent(), '--to', `${erp.url}/hooks`],
        { configDir: freshConfigDir(), env: { B2BCTL_WEBHOOK_FORWARD_TOKEN: `erp-token${end}` } },
      );
      await erp.close();
      expect(result.code).toBe(0);
      expect(erp.received.map((request) => request.authorization)).toEqual(['Bearer erp-token']);
    },
  );
});
