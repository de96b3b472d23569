/**
 * The report, the errors file and the input are three files (a user test): `--report` and `--errors` naming one
 * file wrote the errors rows, password included, into the report and left them without a header to feed back; an
 * output path naming the input was refused as "an earlier run's errors file". Both are refused before anything is
 * sent (exit 2), naming both paths; `/dev/null` for both stays a device, written as before.
 */
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { storedCustomers } from '../../support/customers.js';
import { clearSandboxCustomers, requestCounts, resetCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));
beforeEach(async () => {
  await clearSandboxCustomers(sandbox);
  await resetCounts(sandbox);
});

const input =
  'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number\n' +
  'cpf,372.050.316-05,V,v@email.com.br,(11) 98765-4399,Xq9#SegredoMuitoForte,01310-100,5\n';

function workspace() {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  writeFileSync(join(dir, 'vv.csv'), input);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return { dir, run: (args: string[]) => runCommandLine(args, { configDir, cwd: dir, env }) };
}

const lastError = (stderr: string) => stderr.split('\n').find((line) => line.startsWith('error: '));

async function expectNothingSent(): Promise<void> {
  expect(await requestCounts(sandbox)).toEqual({});
  expect(await storedCustomers(sandbox)).toEqual([]);
}

describe('report, errors file and input named as one file', () => {
  it('--report and --errors naming one empty file: refused naming both, exit 2, nothing sent or written', async () => {
    const { dir, run } = workspace();
    writeFileSync(join(dir, 'empty.csv'), '');
    const result = await run(['customer', 'create', 'vv.csv', '--report', 'empty.csv', '--errors', 'empty.csv']);
    expect(result.code).toBe(2);
    expect(lastError(result.stderr)).toBe(
      'error: --report empty.csv and --errors empty.csv name one file; nothing was sent. The report never holds a password and the errors file is fed back with its header: give each a path of its own (or leave --errors out for NAME.errors-TIMESTAMP beside the report).',
    );
    expect(readFileSync(join(dir, 'empty.csv'), 'utf8')).toBe('');
    await expectNothingSent();
  });

  it('an --errors path that is a link to the report is the same file', async () => {
    const { dir, run } = workspace();
    symlinkSync('mine.csv', join(dir, 'link.csv'));
    writeFileSync(join(dir, 'mine.csv'), '');
    const result = await run(['customer', 'create', 'vv.csv', '--report', 'mine.csv', '--errors', 'link.csv']);
    expect(result.code).toBe(2);
    expect(lastError(result.stderr)).toContain('--report mine.csv and --errors link.csv name one file');
    await expectNothingSent();
  });

  it.each([
    ['--errors', 'errors file', 'errors'],
    ['--report', 'report', 'report'],
  ])('%s naming the input file: refused as the input, not as an earlier run, exit 2', async (flag, what, name) => {
    const { dir, run } = workspace();
    const result = await run(['customer', 'create', 'vv.csv', flag, './vv.csv']);
    expect(result.code).toBe(2);
    expect(lastError(result.stderr)).toBe(
      `error: ${flag} ./vv.csv names the input file vv.csv; nothing was sent. Give the ${what} a path of its own (or leave ${flag} out for NAME.${name}-TIMESTAMP beside the input).`,
    );
    expect(readFileSync(join(dir, 'vv.csv'), 'utf8')).toBe(input);
    await expectNothingSent();
  });

  it('/dev/null for both is a device, not one file of the run: the customer is created', async () => {
    const { run } = workspace();
    const result = await run(['customer', 'create', 'vv.csv', '--report', '/dev/null', '--errors', '/dev/null']);
    expect(result.code).toBe(0);
    expect((await storedCustomers(sandbox)).map((customer) => customer.document)).toEqual(['372.050.316-05']);
  });
});
