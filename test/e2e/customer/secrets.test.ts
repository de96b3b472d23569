/**
 * Secrets in customer runs: the integration password (and the token) never appear in output, the
 * report, the errors file, --verbose traces or the e-mail outbox; customers' own passwords never
 * appear in the report, the traces or the outbox either.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cachedToken, configFile, copySamples, freshConfigDir, freshWorkDir, runCli } from '../../support/cli.js';
import { outbox, storedCustomers } from '../../support/customers.js';
import { onlyErrorsFile, onlyReport, readReport } from '../../support/run-files.js';
import {
  clearSandboxCustomers,
  credentialsEnv,
  sandboxUser,
  seedDirectory,
  startTestSandbox,
} from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

/** Unlike the default, a password no sample or message could contain by chance. */
const integrationPassword = 'Integr4cao-Segredo-7x!';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox({ password: integrationPassword });
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});
beforeEach(async () => {
  await clearSandboxCustomers(sandbox);
});

/** The customers sample with sendEmailNewCustomer on every row, one unknown CEP (line 4) and one invalid phone (line 6). */
function sampleWithEmails(): string {
  const [header, ...rows] = readFileSync(join(seedDirectory, 'customers.csv'), 'utf8').trimEnd().split('\n');
  const changed = rows.map((row, index) => {
    let line = `${row},sim`;
    if (index === 2) line = line.replace(',70100-000,', ',99999-999,');
    if (index === 4) line = line.replace(',61980000155,', ',619,');
    return line;
  });
  return `${header},sendEmailNewCustomer\n${changed.join('\n')}\n`;
}

/** The names of the texts that contain `secret`. */
function holding(texts: Record<string, string>, secret: string): string[] {
  return Object.entries(texts)
    .filter(([, text]) => text.includes(secret))
    .map(([where]) => where);
}

/** Every customer password of the sample (Senha#1001 …). */
function customerPasswords(csv: string): string[] {
  return csv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',')[7] as string);
}

describe('the integration password and the token', () => {
  it('logged in with --password-stdin: absent from every output, file and e-mail of a --verbose import', async () => {
    const configDir = freshConfigDir();
    const folder = freshWorkDir();
    const csv = sampleWithEmails();
    writeFileSync(join(folder, 'customers.csv'), csv);

    const loginResult = await runCli(
      ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin', '--verbose'],
      {
        configDir,
        stdin: `${integrationPassword}\n`,
      },
    );
    expect(loginResult.code).toBe(0);
    const token = cachedToken(configDir);

    const result = await runCli(['customer', 'create', 'customers.csv', '--skip-invalid', '--verbose'], {
      configDir,
      cwd: folder,
    });
    expect(result.code).toBe(1);
    // The trace is there (so the test looks at something), with the Authorization header redacted.
    expect(result.stderr).toContain('> POST ');
    expect(result.stderr).toContain('> authorization: Bearer [redacted]');
    expect(result.stderr).not.toContain(token);

    const report = readFileSync(join(folder, onlyReport(folder, 'customers')), 'utf8');
    const errors = readFileSync(join(folder, onlyErrorsFile(folder, 'customers')), 'utf8');
    const emails = JSON.stringify(await outbox(sandbox));
    expect(JSON.parse(emails)).toHaveLength(23);
    const config = readFileSync(configFile(configDir), 'utf8');
    const texts = {
      loginStdout: loginResult.stdout,
      loginStderr: loginResult.stderr,
      stdout: result.stdout,
      stderr: result.stderr,
      report,
      errors,
      emails,
      config,
    };
    expect(holding(texts, integrationPassword)).toEqual([]);
    expect(readdirSync(configDir).join(' ')).not.toContain(integrationPassword);
  });

  it("from B2BCTL_PASSWORD without a login: the token request's trace redacts it, and it is in no file", async () => {
    const configDir = freshConfigDir();
    const folder = freshWorkDir();
    copySamples(folder, 'customers.csv', 'customers-update.csv');
    const env = credentialsEnv(sandbox, integrationPassword);
    expect((await runCli(['customer', 'create', 'customers.csv'], { configDir, cwd: folder, env })).code).toBe(0);
    // A fresh config folder each time, so this run has no cached token and logs in by itself.
    const result = await runCli(['customer', 'update', 'customers-update.csv', '--verbose'], {
      configDir: freshConfigDir(),
      cwd: folder,
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`> POST ${sandbox.url}/v1/auth/token`);
    expect(result.stderr).toContain(`> {"username":"${sandboxUser}","password":"[redacted]"}`);
    expect(result.stderr).toMatch(/^< \{"access_token":"\[redacted\]",/m);
    expect(result.stderr).not.toContain(integrationPassword);
    const files = Object.fromEntries(
      readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
    );
    // Two inputs, and for each run its report and the run record beside it (--resume's), none holding it.
    expect(Object.keys(files)).toHaveLength(6);
    expect(holding(files, integrationPassword)).toEqual([]);
  });
});

describe("customers' own passwords", () => {
  it('are redacted in --verbose traces, never in the report or the outbox (new-customer and forgot-password e-mails)', async () => {
    const configDir = freshConfigDir();
    const env = credentialsEnv(sandbox, integrationPassword);
    const folder = freshWorkDir();
    const csv = sampleWithEmails();
    writeFileSync(join(folder, 'customers.csv'), csv);
    const created = await runCli(['customer', 'create', 'customers.csv', '--skip-invalid', '--verbose'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(created.code).toBe(1);
    writeFileSync(
      join(folder, 'forgot.csv'),
      `document,sendEmailForgotPassword\n100.007.919-89,true\n10.628.374/0001-00,sim\n`,
    );
    const forgot = await runCli(['customer', 'update', 'forgot.csv', '--verbose'], { configDir, cwd: folder, env });
    expect(forgot.code).toBe(0);

    const passwords = customerPasswords(csv);
    expect(passwords[0]).toBe('Senha#1001');
    const sent = created.stderr.split('\n').filter((line) => line.startsWith('> {"documentType"'));
    expect(sent.length).toBeGreaterThanOrEqual(23);
    for (const line of sent) expect(line).toContain('"password":"[redacted]"');

    const mails = await outbox(sandbox);
    expect(
      mails
        .filter((mail) => mail.template === 'forgotPassword')
        .map((mail) => mail.document)
        .toSorted(),
    ).toEqual(['10.628.374/0001-00', '100.007.919-89']);
    const report = readReport(join(folder, onlyReport(folder, 'customers')));
    expect(report.find((row) => row.line === '6')?.message).toBe(
      'Property [phone] with value [619] does not pass validation (a phone has 10 or 11 digits with the area code (DDD))',
    );
    const texts = {
      created: created.stderr,
      forgot: forgot.stderr,
      report: JSON.stringify(report),
      outbox: JSON.stringify(mails),
      store: JSON.stringify(await storedCustomers(sandbox)),
    };
    expect(passwords.flatMap((password) => holding(texts, password).map((where) => `${password} in ${where}`))).toEqual(
      [],
    );
  });
});
