/**
 * A `--skip-invalid` run interrupted before it reached its last invalid records (a user test): they were counted
 * among the "not sent", though the validation had found them invalid and a resume does not send them, and the
 * errors file lacked them. They are now `invalid` in the run's counts, report and errors file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyErrorsFile, onlyReport, readReport } from '../../support/run-files.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import type { TestContext } from '../../support/test-context.js';

const platform = useScriptedPlatform();

const header =
  'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number';
const rows = [
  'cpf,529.982.247-25,Ana,ana@x.com,11987654321,Senha#1,01310-100,1',
  'cpf,111.444.777-35,Bia,bia@x.com,011 1234,Senha#1,01310-100,2',
  'cpf,123.456.789-09,Caio,caio@x.com,11987654323,Senha#1,01310-100,3',
  'cpf,935.113.502-04,Duda,duda@x.com,011 1234,Senha#1,01310-100,4',
];

it('interrupted at its first create: the two invalid records are invalid, not "not sent", and in the errors file', async () => {
  let test: TestContext | undefined;
  platform.routes['POST /v1/customer'] = (_request, body, response) => {
    // Ctrl-C while the first create is on its way: the run finishes it and starts nothing more.
    test?.interrupt('SIGINT');
    const sent = JSON.parse(body) as { document: string; username: string; name: string };
    answerJson(response, 200, { id: 7, document: sent.document, email: sent.username, name: sent.name });
  };
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'c.csv'), `${header}\n${rows.join('\n')}\n`);
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine(
    ['customer', 'create', 'c.csv', '--skip-invalid', '--concurrency', '1', '-o', 'json'],
    { configDir: freshConfigDir(), env, cwd: folder, started: (context) => (test = context) },
  );
  expect(result.code).toBe(75);
  expect(platform.received).toEqual(['POST /v1/customer']);
  expect((JSON.parse(result.stdout) as { outcomes: unknown }).outcomes).toEqual({
    created: 1,
    invalid: 2,
    'not sent': 1,
  });
  const report = readReport(join(folder, onlyReport(folder, 'c')));
  expect(report.map((row) => [row.line, row.outcome])).toEqual([
    ['2', 'created'],
    ['3', 'invalid'],
    ['5', 'invalid'],
  ]);
  const errors = readFileSync(join(folder, onlyErrorsFile(folder, 'c')), 'utf8');
  expect(errors).toContain('111.444.777-35');
  expect(errors).toContain('935.113.502-04');
});
