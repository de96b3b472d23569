/**
 * A 2xx to a customer create, update or status change whose body refuses it, from a scripted platform over real
 * HTTP: `{"success":false,"errors":[…]}`, and the words beyond it: the Portuguese keys (`sucesso`,
 * `situacao`/`situação`, `aceito`), `accepted: false`, the platform document's own 422 body served with 200
 * (`"status": "UNPROCESSABLE_ENTITY"`), an HTTP status in the body (`"code": 400`, `"statusCode": "BAD_REQUEST"`), the
 * JSON `false`. Each was reported done (`created`, "Updated customer undefined (undefined).", "is now inactive"),
 * exit 0, the platform's words nowhere (fresh user tests). Each is `unknown` now, quoting the platform's words: a
 * create is never sent again in the run, and its resume asks the platform first; an update or status change may be
 * sent again; a create quoting the password shows it masked, as a 4xx does. A 2xx that shows no refusal (no body,
 * `null`, `[]`, `true`, a record) stays done, its line naming the document given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJsonText, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInFolder, runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const refusing = '{"success":false,"errors":[{"field":"document","message":"CPF já cadastrado"}]}';
const ana = '529.982.247-25';

const answer = (text: string | undefined) => answerJsonText(200, text);

/** `b2bctl ARGS` in a fresh folder holding FILES, against the scripted platform. */
const b2bctl = (args: readonly string[], files?: Record<string, string>) =>
  runInScriptedWorkspace(platform, args, files);

/** `text` matched as it is, in a pattern. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Each body, and the words of the platform's its row quotes (the body itself when it has none b2bctl reads).
const refusals: [string, string][] = [
  [refusing, 'document: CPF já cadastrado'],
  ['{"sucesso":false,"mensagem":"CPF já cadastrado"}', 'CPF já cadastrado'],
  ['{"sucesso":false}', '{"sucesso":false}'],
  ['{"situacao":"ERRO","mensagem":"E-mail inválido"}', 'E-mail inválido'],
  ['{"situação":"ERRO","mensagem":"E-mail inválido"}', 'E-mail inválido'],
  ['{"aceito":false,"motivo":"Cadastro bloqueado"}', 'Cadastro bloqueado'],
  ['{"accepted":false}', '{"accepted":false}'],
  [
    '{"status":"UNPROCESSABLE_ENTITY","message":"Property [phone] with value [x] does not pass validation"}',
    'Property [phone] with value [x] does not pass validation',
  ],
  ['{"status":"BAD_REQUEST","message":"Documento já cadastrado"}', 'Documento já cadastrado'],
  ['{"status":"CONFLICT"}', '{"status":"CONFLICT"}'],
  ['{"code":400,"message":"bad"}', 'bad'],
  ['{"statusCode":"BAD_REQUEST","message":"bad"}', 'bad'],
  ['{"httpStatus":409}', '{"httpStatus":409}'],
  ['{"result":{"success":false,"message":"x"}}', '{"result":{"success":false,"message":"x"}}'],
  ['false', 'false'],
];

describe('customer create answered 200 with a body that refuses it', () => {
  it.each(refusals)('%s: unknown, quoting the platform, sent once, exit 1', async (text, words) => {
    platform.routes['POST /v1/customer'] = answer(text);
    const { result, folder } = await b2bctl(['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['POST /v1/customer']);
    const refused = `the create was answered HTTP 200 with a body that refuses it: ${words}. Whether customer`;
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringMatching(
          new RegExp(
            `^${literally(refused)} \\S+ was created is not known, so it was not sent again; a resume asks the platform before sending it\\.$`,
          ),
        ) as unknown,
      }),
    ]);
    expect(result.stderr).toContain(refused);
    expect(result.stderr).toMatch(/^customer create: 1 unknown; 1 request,/m);
    expect(result.stderr).not.toMatch(/\b1 created\b/);
  });

  it.each([
    ['no body', undefined],
    ['null', 'null'],
    ['[]', '[]'],
    ['true', 'true'],
    ['a record', '{"id":41,"success":true}'],
    ['a record with its own code', '{"id":41,"code":"C-400","sucesso":true}'],
    ['a record with a status word of its own', '{"id":41,"situacao":"ATIVO","accepted":true}'],
    // The customer's code in the store, a number in the HTTP error range: the record's data, not a status.
    ['the record with a numeric code of its own', '{"id":1001,"code":450,"document":"10000791989"}'],
  ])('%s: created, exit 0', async (_, text) => {
    platform.routes['POST /v1/customer'] = answer(text);
    const { result, folder } = await b2bctl(['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({ outcome: 'created', status: '200' }),
    ]);
  });

  it('a refusal quoting the password shows it masked, in the why line and the report, as a 4xx does', async () => {
    const passwords: string[] = [];
    platform.routes['POST /v1/customer'] = (_request, body, response) => {
      const password = String((JSON.parse(body) as { password?: unknown }).password);
      passwords.push(password);
      const refusal = { success: false, errors: [{ field: 'password', message: `Senha [${password}] fraca` }] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
    };
    const { result, folder } = await b2bctl(['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(1);
    expect(passwords).toHaveLength(1);
    const password = passwords[0] as string;
    const report = readFileSync(join(folder, onlyReport(folder, 'people')), 'utf8');
    expect(report).toContain('password: Senha [[redacted]] fraca');
    expect(result.stderr).toContain('password: Senha [[redacted]] fraca');
    expect(report + result.stderr + result.stdout).not.toContain(password);
  });
});

describe('customer update answered 200 with a body that refuses it', () => {
  it.each(refusals)('FILE, %s: an unknown row quoting the platform, exit 1', async (text, words) => {
    platform.routes['PUT /v1/customer/*'] = answer(text);
    const { result, folder } = await b2bctl(['customer', 'update', 'changes.csv'], {
      'changes.csv': `document,name\n${ana},Jo\n`,
    });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual([`PUT /v1/customer/${ana}`]);
    expect(readReport(join(folder, onlyReport(folder, 'changes')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: `the platform answered HTTP 200 with a body that refuses the change: ${words}; whether it was applied is not known (sending it again is harmless)`,
      }),
    ]);
  });

  it.each(refusals)('--document, %s: unknown, exit 69, never "Updated"', async (text, words) => {
    platform.routes['PUT /v1/customer/*'] = answer(text);
    const { result } = await b2bctl(['customer', 'update', '--document', ana, '--set', 'name=Jo']);
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([`PUT /v1/customer/${ana}`]);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `error: Customer ${ana}: the platform answered HTTP 200 with a body that refuses the change: ${words}; whether it was applied is not known (sending it again is harmless).`,
    );
    expect(result.stderr + result.stdout).not.toMatch(/Updated|undefined/);
  });

  it.each([
    ['[]', '[]', `Updated customer ${ana} (the platform answered without the record).`],
    ['null', 'null', `Updated customer ${ana} (the platform answered without the record).`],
    ['no body', undefined, `Updated customer ${ana} (the platform answered without the record).`],
    ['a record without an id', '{"name":"Jo"}', `Updated customer ${ana}.`],
    ['the record', '{"id":12,"document":"52998224725"}', `Updated customer 12 (${ana}).`],
  ])('--document, %s: updated, exit 0, the line naming the document given', async (_, text, line) => {
    platform.routes['PUT /v1/customer/*'] = answer(text);
    const { result } = await b2bctl(['customer', 'update', '--document', ana, '--set', 'name=Jo']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(line);
    expect(result.stderr + result.stdout).not.toMatch(/undefined/);
  });
});

describe('customer status answered 200 with a body that refuses it', () => {
  const route = `PUT /v1/customer/updateStatus/${ana}/false`;

  it.each(refusals)('DOC inactive, %s: unknown, exit 69, never "is now inactive"', async (text, words) => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(text);
    const { result } = await b2bctl(['customer', 'status', ana, 'inactive']);
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([route]);
    expect(result.stderr).not.toMatch(/is now inactive/);
    expect(result.stderr).toContain(`refuses the change: ${words}; whether it was applied is not known`);
  });

  it.each(refusals)('a file, %s: an unknown row, exit 1', async (text, words) => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(text);
    const { result, folder } = await b2bctl(['customer', 'status', 'states.csv'], {
      'states.csv': `document,active\n${ana},false\n`,
    });
    expect(result.code).toBe(1);
    expect(platform.received).toEqual([route]);
    expect(readReport(join(folder, onlyReport(folder, 'states')))).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '200',
        message: expect.stringContaining(`refuses the change: ${words};`) as unknown,
      }),
    ]);
  });

  it.each([
    ['[]', '[]'],
    ['the JSON true', 'true'],
  ])('DOC inactive answered %s: done, exit 0', async (_, text) => {
    platform.routes['PUT /v1/customer/updateStatus/*'] = answer(text);
    const { result } = await b2bctl(['customer', 'status', ana, 'inactive']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Customer ${ana} is now inactive.`);
  });
});

describe('the resume of a create answered 200 with a body that refused it', () => {
  const username = first?.split(',')[(header ?? '').split(',').indexOf('username')];

  /** The first run (answered `refusing`), then its resume with the question answered by `question`. */
  async function resumed(question: RouteHandler) {
    platform.routes['POST /v1/customer'] = answer(refusing);
    const { folder } = await b2bctl(['customer', 'create', 'people.csv'], { 'people.csv': `${header}\n${first}\n` });
    const report = join(folder, onlyReport(folder, 'people'));
    platform.received.length = 0;
    platform.routes['PUT /v1/customer/*'] = question;
    const result = await runInFolder(platform, folder, ['customer', 'create', 'people.csv', '--resume', report]);
    return { result, rows: readReport(report) };
  }

  it('found with another e-mail: failed, saying the earlier create was answered with a refusal, never "had no answer"', async () => {
    const { result, rows } = await resumed(answer('{"id":5,"email":"outro@x.com"}'));
    expect(result.code).toBe(1);
    expect(platform.received).toEqual([expect.stringMatching(/^PUT \/v1\/customer\//)]);
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        message: expect.stringMatching(
          /^the earlier run's create was answered HTTP 200 in words that did not tell, and document \S+ is already registered \(registered with the e-mail outro@x\.com/,
        ) as unknown,
      }),
    ]);
    expect(result.stderr).not.toMatch(/had no answer|interrupted/);
  });

  it('found with the file’s e-mail: created, saying what the earlier run was answered; nothing posted again', async () => {
    const { result, rows } = await resumed(answer(JSON.stringify({ id: 7, email: username })));
    expect(result.code).toBe(0);
    // The resume asks first: the customer found with the file's e-mail is created, and nothing is posted again.
    expect(platform.received).toEqual([expect.stringMatching(/^PUT \/v1\/customer\//)]);
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'created',
        id: '7',
        message:
          "already registered with this e-mail: the earlier run's create made it, though it was answered HTTP 200 in words that did not tell",
      }),
    ]);
  });

  it('the question refused the same way: stopped saying the platform answered, never "exists" nor "when the platform is back"', async () => {
    const { result } = await resumed(answer(refusing));
    // Not answered in words that tell: the run stops as when the question cannot be asked (exit 69).
    expect(result.code).toBe(69);
    expect(platform.received).toEqual([expect.stringMatching(/^PUT \/v1\/customer\//)]);
    expect(result.stderr).not.toMatch(/exists/);
    expect(result.stderr).toMatch(/refuses the question: document: CPF já cadastrado/);
    expect(result.stderr).toMatch(
      /The earlier run's create of customer \S+ was answered HTTP 200 in words that did not tell whether it was created\./,
    );
    expect(result.stderr).toMatch(
      /No request of this run was answered in words that tell \(1 unknown, .*\): the platform answered HTTP 200, quoted above; once that is settled, run: .*--resume /,
    );
    expect(result.stderr).not.toMatch(/interrupted run|when the platform is back/);
  });

  it('three in a row refused so: stopped saying the platform answered, never "when the platform is back"', async () => {
    const three = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8')
      .split('\n')
      .slice(0, 4);
    platform.routes['POST /v1/customer'] = answer(refusing);
    const { folder } = await b2bctl(['customer', 'create', 'people.csv'], { 'people.csv': `${three.join('\n')}\n` });
    const report = join(folder, onlyReport(folder, 'people'));
    platform.received.length = 0;
    platform.routes['PUT /v1/customer/*'] = answer(refusing);
    const args = ['customer', 'create', 'people.csv', '--resume', report, '--concurrency', '1'];
    const result = await runInFolder(platform, folder, args);
    expect(result.code).toBe(69);
    expect(platform.received).not.toContain('POST /v1/customer');
    expect(result.stderr).toMatch(
      /Stopped after 3 failed requests in a row; the platform answered HTTP 200 in words that do not tell \(quoted above\); once that is settled, run: .*--resume /,
    );
    expect(result.stderr).not.toMatch(/when the platform is back/);
  });
});
