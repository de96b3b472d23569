/**
 * A refusal that quotes the customer's password back (`Password X does not meet the policy`, a validation framework's
 * `{"field":"password","value":X}`): b2bctl sent that password, so it masks it in whatever it quotes of the refusal,
 * on stderr (a cron job's log), in the report (the file meant to be shared) and in the errors file's error column;
 * the errors file's password cell is the record to feed back, and stays (docs/bulk-runs.md).
 * And a 400 that says why in words of its own is reported in those words alone: the guess that the e-mail is another
 * customer's, from the documented causes of a 400, is only for a 400 that says nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport, readErrorsCsv, readReport, runFiles } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';

/** What the question after a 400 established, beside the platform's words: no customer has the document. */
const notRegistered =
  '; document 100.007.919-89 is not registered on the store, so the refusal is about another field, such as the e-mail';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const samplePassword = 'Senha#1001';

const answering =
  (status: number, body: string, type = 'application/json'): RouteHandler =>
  (_request, _body, response) =>
    response.writeHead(status, { 'content-type': type }).end(body);

/** The refusal of the finding: the password in the message and in a field error's value and message. */
const policyRefusal = (password: string) =>
  JSON.stringify({
    message: `Password ${password} does not meet the policy`,
    errors: [{ field: 'password', value: password, message: `=weak password ${password}` }],
  });

/** `customer create` of the sample's first customer with `password`: its result, report rows and errors file. */
async function createOne(password = samplePassword, flags: string[] = []) {
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'people.csv'), `${header}\n${(first as string).replace(samplePassword, password)}\n`);
  const sent: string[] = [];
  const create = platform.routes['POST /v1/customer'] as RouteHandler;
  platform.routes['POST /v1/customer'] = (request, body, response) => {
    sent.push(body);
    create(request, body, response);
  };
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine(['customer', 'create', 'people.csv', ...flags], {
    configDir: freshConfigDir(),
    env,
    cwd: folder,
  });
  // An unknown outcome is not fed back, so it has no errors file.
  const [errorsFile] = runFiles(folder, 'people').errors;
  const errors = errorsFile === undefined ? undefined : readErrorsCsv(join(folder, errorsFile));
  return {
    result,
    sent: sent.map((body) => (JSON.parse(body) as { password: string }).password),
    rows: readReport(join(folder, onlyReport(folder, 'people'))),
    errors,
    reportText: readFileSync(join(folder, onlyReport(folder, 'people')), 'utf8'),
  };
}

/** The errors file's record: its password cell and its error column. */
function errorsRecord(errors: ReturnType<typeof readErrorsCsv> | undefined) {
  const row = errors?.rows[0] ?? [];
  return { password: row[errors?.header.indexOf('password') ?? -1], error: row.at(-1) };
}

describe('customer create: a refusal quoting the password', () => {
  it('a 400 quoting it (no customer has the document): masked on stderr, in the report and the error column', async () => {
    platform.routes['POST /v1/customer'] = answering(400, policyRefusal(samplePassword));
    platform.routes['PUT /v1/customer/*'] = answering(404, '{"message":"not found"}');
    const { result, sent, rows, errors, reportText } = await createOne();
    const said = `Password [redacted] does not meet the policy: password: =weak password [redacted]${notRegistered}`;
    expect(result.code).toBe(1);
    expect(sent).toEqual([samplePassword]);
    expect(platform.received).toEqual(['POST /v1/customer', 'PUT /v1/customer/100.007.919-89']);
    expect(rows).toEqual([expect.objectContaining({ line: '2', outcome: 'failed', status: '400', message: said })]);
    expect(result.stderr).toContain(`customer create: why, 1 customer (line 2): ${said}\n`);
    expect(errorsRecord(errors)).toEqual({ password: samplePassword, error: said });
    expect(`${result.stderr}${reportText}`).not.toContain(samplePassword);
  });

  it('a 400 that says why in its own words: those words alone, not the guess of an e-mail conflict', async () => {
    platform.routes['POST /v1/customer'] = answering(400, '{"message":"Password does not meet the policy"}');
    platform.routes['PUT /v1/customer/*'] = answering(404, '{"message":"not found"}');
    const { rows, result } = await createOne();
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        status: '400',
        message: `Password does not meet the policy${notRegistered}`,
      }),
    ]);
    expect(result.stderr).not.toContain('registered to another customer');
  });

  it('a 400 without words of its own: the guess from the documented causes, as before', async () => {
    platform.routes['POST /v1/customer'] = answering(400, '');
    platform.routes['PUT /v1/customer/*'] = answering(404, '{"message":"not found"}');
    const { rows } = await createOne();
    expect(rows[0]?.message).toBe(
      'no customer has document 100.007.919-89, so the e-mail cliente1@email.com.br is registered to another customer (or the platform could not parse the body)',
    );
  });

  it('a password JSON escapes, quoted in a JSON body or in plain text: masked either way', async () => {
    const password = 'Pw"q\\9-Zeta';
    platform.routes['POST /v1/customer'] = answering(400, JSON.stringify({ message: `bad ${password}` }));
    platform.routes['PUT /v1/customer/*'] = answering(404, '');
    const json = await createOne(password);
    expect(json.sent).toEqual([password]);
    expect(json.rows[0]?.message).toBe(`bad [redacted]${notRegistered}`);
    platform.routes['POST /v1/customer'] = answering(400, `bad ${password}`, 'text/plain');
    platform.routes['PUT /v1/customer/*'] = answering(404, '');
    expect((await createOne(password)).rows[0]?.message).toBe(`bad [redacted]${notRegistered}`);
  });

  // A user test: an upstream's JSON quoted in the platform's message, an HTML5 reference, a bidi mark inside, and
  // the other Unicode normal form (a macOS-made file holds `e` and U+0302; the platform quotes `ê`).
  it.each([
    [
      'Sênha#1001',
      JSON.stringify({
        message: `upstream: ${JSON.stringify({ erro: 'Senha Sênha#1001 invalida' }).replace('ê', '\\u00ea')}`,
      }),
    ],
    ['Sênha#1001', JSON.stringify({ message: 'Senha Sênha&num;1001 / Sên\u200eha#1001 invalida' })],
    ['Se\u0302nha#1001', JSON.stringify({ message: 'Senha Sênha#1001 invalida' })],
  ])(
    'the password %s quoted back as %s: masked on stderr, in the report and the error column',
    async (password, body) => {
      platform.routes['POST /v1/customer'] = answering(400, body);
      platform.routes['PUT /v1/customer/*'] = answering(404, '{"message":"not found"}');
      const { result, sent, rows, errors, reportText } = await createOne(password);
      expect(result.code).toBe(1);
      expect(sent).toEqual([password]);
      expect(rows[0]).toEqual(expect.objectContaining({ line: '2', outcome: 'failed', status: '400' }));
      expect(rows[0]?.message).toContain('[redacted]');
      expect(errorsRecord(errors)?.error).toBe(rows[0]?.message);
      expect(`${result.stderr}${reportText}${rows[0]?.message}`.normalize('NFC')).not.toMatch(
        /nha(&num;|#)1001|ha#1001/,
      );
    },
  );

  // A user test: a refusal whose message was HTML-escaped by the platform writes the password with any of HTML5's
  // named references, a legacy one without its `;` among them, as a browser reads them.
  it('a password written with HTML5 references in the refusal: masked on stderr, in the report and the error column', async () => {
    const password = 'SÃoç{½€}1001';
    const message = 'Senha S&Atilde;o&ccedil&lbrace;&frac12;&euro;&rcub;1001 invalida';
    platform.routes['POST /v1/customer'] = answering(400, JSON.stringify({ message }));
    platform.routes['PUT /v1/customer/*'] = answering(404, '{"message":"not found"}');
    const { result, sent, rows, errors, reportText } = await createOne(password);
    expect(result.code).toBe(1);
    expect(sent).toEqual([password]);
    expect(rows[0]).toEqual(expect.objectContaining({ line: '2', outcome: 'failed', status: '400' }));
    expect(rows[0]?.message).toContain('Senha [redacted] invalida');
    expect(errorsRecord(errors)?.error).toBe(rows[0]?.message);
    expect(`${result.stderr}${reportText}`).toContain('[redacted]');
    expect(`${result.stderr}${reportText}${rows[0]?.message}`).not.toMatch(/1001|&euro;|€/);
  });

  // A 3-character password is still a password: masked where the refusal quotes it, not inside longer words.
  it('a password of 3 characters quoted back: masked on stderr, in the report and the error column', async () => {
    const password = 'x9!';
    platform.routes['POST /v1/customer'] = answering(400, policyRefusal(password));
    platform.routes['PUT /v1/customer/*'] = answering(404, '{"message":"not found"}');
    const { result, sent, rows, errors, reportText } = await createOne(password);
    const said = `Password [redacted] does not meet the policy: password: =weak password [redacted]${notRegistered}`;
    expect(result.code).toBe(1);
    expect(sent).toEqual([password]);
    expect(rows).toEqual([expect.objectContaining({ line: '2', outcome: 'failed', status: '400', message: said })]);
    expect(result.stderr).toContain(`customer create: why, 1 customer (line 2): ${said}\n`);
    expect(errorsRecord(errors)).toEqual({ password, error: said });
    expect(`${result.stderr}${reportText}`).not.toContain(password);
  });

  it('the document registered: the refusal in its words, masked, with the --upsert fix', async () => {
    platform.routes['POST /v1/customer'] = answering(400, policyRefusal(samplePassword));
    platform.routes['PUT /v1/customer/*'] = answering(
      200,
      JSON.stringify({ id: 7, document: '100.007.919-89', email: 'other@example.com' }),
    );
    const { rows, result } = await createOne();
    expect(rows[0]?.message).toBe(
      'Password [redacted] does not meet the policy: password: =weak password [redacted] (registered with the e-mail other@example.com; pass --upsert to update existing customers)',
    );
    expect(result.stderr).not.toContain(samplePassword);
  });

  it('a 500 quoting it: unknown, the masked words in its message', async () => {
    platform.routes['POST /v1/customer'] = answering(500, policyRefusal(samplePassword));
    platform.routes['PUT /v1/customer/*'] = answering(404, '');
    const { rows, result, reportText } = await createOne(samplePassword, ['--retries', '0']);
    expect(rows[0]).toMatchObject({ outcome: 'unknown', status: '500' });
    expect(rows[0]?.message).toContain(
      'failed with HTTP 500: Password [redacted] does not meet the policy: password: =weak password [redacted]',
    );
    expect(`${result.stderr}${reportText}`).not.toContain(samplePassword);
  });

  it('a password quoted as PHP writes it, every non-ASCII character as \\uXXXX (a user test): masked on stderr, in the report and the error column', async () => {
    const password = 'Sênha#1001';
    // PHP's json_encode of the password it got, its own Portuguese words escaped alike.
    const escaped = 'S\\u00eanha#1001';
    platform.routes['POST /v1/customer'] = answering(
      400,
      `{"message":"Senha '${escaped}' n\\u00e3o atende \\u00e0 pol\\u00edtica"}`,
    );
    platform.routes['PUT /v1/customer/*'] = answering(404, '{"message":"not found"}');
    const { result, sent, rows, errors, reportText } = await createOne(password);
    const said = `Senha '[redacted]' não atende à política${notRegistered}`;
    expect(result.code).toBe(1);
    expect(sent).toEqual([password]);
    expect(rows).toEqual([expect.objectContaining({ line: '2', outcome: 'failed', status: '400', message: said })]);
    expect(result.stderr).toContain(`customer create: why, 1 customer (line 2): ${said}\n`);
    expect(errorsRecord(errors)).toEqual({ password, error: said });
    for (const spelling of [password, escaped, 'nha#1001'])
      expect(`${result.stderr}${reportText}`).not.toContain(spelling);
  });
});
