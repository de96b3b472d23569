/**
 * A create whose answer was lost, and the question that would tell whether it went through (the empty update) refused,
 * from a scripted platform over real HTTP (user tests):
 * - refused 400 (a gateway that takes no update with nothing to update): the create was reported `failed` in the
 *   question's words and sent to "fix and feed back", though the customer was on the store. Now `unknown`, quoting
 *   the question's answer, kept for the resume, which asks again;
 * - refused 403 (an integration user allowed to create customers, not to update them) or 401 (the token refused
 *   between the create and the question): the run stopped, exit 77, counting the customer whose create went out
 *   `not sent`, with no report row, and its error line ran two sentences together ("Access Denied Then resume
 *   with"). Now the record is `unknown` with its row, the run still stops (exit 77), and a 403 says, in a sentence of
 *   its own, that the update route b2bctl asks with is refused to this user.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, runFiles } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInFolder, runInScriptedWorkspace } from '../../support/scripted-workspace.js';

const platform = useScriptedPlatform();
const [header, first, second] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const document = first?.split(',')[1] ?? '';

const people = { 'people.csv': `${header}\n${first}\n${second}\n` };

/** A route whose answer is lost: the connection is cut once the request is read. */
const cut: RouteHandler = (request) => request.socket.destroy();

/** The first customer's create cut (stored, its answer lost), the second's answered with its record. */
const firstCreateCut: RouteHandler = (request, body, response) => {
  if (body.includes(document)) cut(request, body, response);
  else answerJson(response, 201, { id: 7, document: (JSON.parse(body) as { document: string }).document });
};

const refusing =
  (status: number, body: unknown): RouteHandler =>
  (_request, _body, response) =>
    answerJson(response, status, body);

/** The report's rows in the file's order (they are written as their answers come). */
const reportOf = (folder: string) =>
  readReport(join(folder, runFiles(folder, 'people').reports[0] ?? '')).toSorted(
    (a, b) => Number(a.line) - Number(b.line),
  );

describe('customer create whose answer was lost, the question refused 400', () => {
  it('unknown, quoting the question, out of the errors file, the resume asks again; one create sent', async () => {
    platform.routes['POST /v1/customer'] = firstCreateCut;
    platform.routes['PUT /v1/customer/*'] = refusing(400, { message: 'Nenhum campo para atualizar' });
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'create', 'people.csv'], people);
    expect(result.code).toBe(1);
    expect(reportOf(folder)).toEqual([
      expect.objectContaining({
        key: document,
        outcome: 'unknown',
        status: '',
        message: expect.stringMatching(
          /Whether customer 100\.007\.919-89 was created could not be asked: the platform refused the question \(PUT http:\S+\/v1\/customer\/100\.007\.919-89 failed with HTTP 400: Nenhum campo para atualizar\), which says nothing of the create; a resume asks again before sending it\.$/,
        ) as unknown,
      }),
      expect.objectContaining({ outcome: 'created', id: '7' }),
    ]);
    expect(runFiles(folder, 'people').errors).toEqual([]);
    expect(result.stderr).toMatch(/^customer create: 1 created, 1 unknown; 3 requests,/m);
    expect(platform.received.filter((request) => request.startsWith('POST'))).toHaveLength(2);

    // The resume asks again, and does not send the create while the question is refused.
    platform.received.length = 0;
    const report = join(folder, runFiles(folder, 'people').reports[0] ?? '');
    const resumed = await runInFolder(platform, folder, ['customer', 'create', 'people.csv', '--resume', report]);
    expect(resumed.code).toBe(1);
    expect(platform.received).toEqual([expect.stringMatching(/^PUT \/v1\/customer\//)]);
  });

  it('a create answered 500 after storing: unknown with the 500, never failed under the question', async () => {
    platform.routes['POST /v1/customer'] = refusing(500, { message: 'Internal Server Error' });
    platform.routes['PUT /v1/customer/*'] = refusing(400, { message: 'Nenhum campo para atualizar' });
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(1);
    expect(reportOf(folder)).toEqual([
      expect.objectContaining({
        outcome: 'unknown',
        status: '500',
        message: expect.stringContaining('the platform refused the question (PUT ') as unknown,
      }),
    ]);
    expect(platform.received.filter((request) => request.startsWith('POST'))).toHaveLength(1);
  });

  it('a create refused 400, the question refused too: failed in the create’s words, not the question’s', async () => {
    platform.routes['POST /v1/customer'] = refusing(400, { message: 'Documento já cadastrado' });
    platform.routes['PUT /v1/customer/*'] = refusing(400, { message: 'Nenhum campo para atualizar' });
    const { result, folder } = await runInScriptedWorkspace(platform, ['customer', 'create', 'people.csv'], {
      'people.csv': `${header}\n${first}\n`,
    });
    expect(result.code).toBe(1);
    expect(reportOf(folder)).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        status: '400',
        message: expect.stringMatching(
          /^Documento já cadastrado \(whether document 100\.007\.919-89 is registered could not be asked: the platform refused the question \(PUT /,
        ) as unknown,
      }),
    ]);
  });
});

describe('customer create whose answer was lost, the question refused to this user', () => {
  it('403: unknown with its row, the rest not sent, exit 77, the update route named in a sentence of its own', async () => {
    platform.routes['POST /v1/customer'] = firstCreateCut;
    platform.routes['PUT /v1/customer/*'] = refusing(403, {
      status: 403,
      error: 'Forbidden',
      message: 'Access Denied',
    });
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'people.csv', '--concurrency', '1', '-o', 'json'],
      people,
    );
    expect(result.code).toBe(77);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcomes: { unknown: 1, 'not sent': 1 }, exitCode: 77 });
    expect(reportOf(folder)).toEqual([
      expect.objectContaining({
        key: document,
        outcome: 'unknown',
        message: expect.stringContaining(
          "could not be asked: the platform refused this user's credentials for the question (PUT ",
        ) as unknown,
      }),
    ]);
    expect(result.stderr).toMatch(
      /failed with HTTP 403: Access Denied\. The update route \(PUT \/v1\/customer\/\{document\}\), which b2bctl asks with whether a create whose answer was lost went through, is refused to this user: give it the right to update customers, or log in as a user that has it\. Then resume with: .*b2bctl customer create people\.csv /,
    );
    expect(platform.received).toEqual(['POST /v1/customer', expect.stringMatching(/^PUT \/v1\/customer\//)]);
  });

  it('401 (the token refused after the create): unknown with its row, exit 77, the login advice', async () => {
    platform.routes['POST /v1/customer'] = firstCreateCut;
    platform.routes['PUT /v1/customer/*'] = refusing(401, { message: 'Unauthorized' });
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'people.csv', '--concurrency', '1', '-o', 'json'],
      people,
    );
    expect(result.code).toBe(77);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcomes: { unknown: 1, 'not sent': 1 } });
    expect(reportOf(folder)).toEqual([expect.objectContaining({ key: document, outcome: 'unknown' })]);
    expect(result.stderr).toMatch(/\. Then resume with: .*b2bctl customer create people\.csv /);
  });
});
