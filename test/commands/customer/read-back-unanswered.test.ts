/**
 * A create whose answer was cut (the socket destroyed once the request was read), and the question that would tell
 * whether it went through (the empty update, "the read-back") answered by no platform, from a scripted platform over
 * real HTTP (a user test): a proxy's or gateway's HTML page, a reset, or the run stopping before the question went
 * out left the record `not sent`, with no row, and the resume sent the create again without asking. A record whose
 * create went out is `unknown` whatever the question met: its row says why and names the customer, it stays out of
 * the errors file, and the resume asks again before it sends anything.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { readReport, runFiles } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { runInFolder, runInScriptedWorkspace, scriptedPlatformEnv } from '../../support/scripted-workspace.js';
import type { TestContext } from '../../support/test-context.js';
import { until } from '../../support/until.js';

const platform = useScriptedPlatform();
const [header, first, second, ...others] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');
const document = first?.split(',')[1] ?? '';
const email = first?.split(',')[5] ?? '';
const people = { 'people.csv': `${header}\n${first}\n${second}\n` };

/** A route whose answer is lost: the connection is cut once the request is read. */
const cut: RouteHandler = (request) => request.socket.destroy();

/** The first customer's create cut (stored, its answer lost), the second's answered with its record. */
const firstCreateCut: RouteHandler = (request, body, response) => {
  if (body.includes(document)) cut(request, body, response);
  else answerJson(response, 201, { id: 7, document: (JSON.parse(body) as { document: string }).document });
};

/** nginx's own error page, as it answers when the platform behind it does not. */
const nginxPage = (status: number): RouteHandler => {
  const title = status === 200 ? 'Welcome' : `${status} Bad Gateway`;
  return (_request, _body, response) =>
    response
      .writeHead(status, { 'content-type': 'text/html', server: 'nginx/1.24.0' })
      .end(
        `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n`,
      );
};

/** The report's rows in the file's order (they are written as their answers come). */
const reportOf = (folder: string) =>
  readReport(join(folder, runFiles(folder, 'people').reports[0] ?? '')).toSorted(
    (a, b) => Number(a.line) - Number(b.line),
  );

/** The unknown row of the first customer: the create's cut, the question's failure (`met`), the resume's question. */
const unknownRow = (met: RegExp) =>
  expect.objectContaining({
    key: document,
    outcome: 'unknown',
    status: '',
    message: expect.stringMatching(
      new RegExp(
        `^POST \\S+/v1/customer failed \\(UND_ERR_SOCKET\\) after the request may have reached the platform\\. Whether customer ${document.replaceAll('.', '\\.')} was created could not be asked.*${met.source}.*; a resume asks again before sending it\\.$`,
      ),
    ) as unknown,
  });

/**
 * The resume of the run in `folder`: the platform now answers the question with the customer, made by the create
 * the run could not tell of. It asks before it sends, so the create is never sent again: `created`.
 */
async function resumeFinds(folder: string): Promise<void> {
  const creates: string[] = [];
  platform.routes['POST /v1/customer'] = (_request, body, response) => {
    creates.push(body);
    answerJson(response, 201, { id: 9 });
  };
  platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
    answerJson(response, 200, { id: 8, document, email });
  platform.received.length = 0;
  const report = join(folder, runFiles(folder, 'people').reports[0] ?? '');
  const resumed = await runInFolder(platform, folder, ['customer', 'create', 'people.csv', '--resume', report]);
  expect(platform.received[0]).toBe(`PUT /v1/customer/${document}`);
  expect(creates.filter((create) => create.includes(document))).toEqual([]);
  expect(
    reportOf(folder)
      .filter((row) => row.key === document)
      .at(-1),
  ).toMatchObject({ outcome: 'created' });
  expect(resumed.code).toBe(0);
}

describe('customer create whose answer was cut, the question answered by no platform', () => {
  it('an nginx 502 page: unknown with its row, out of the errors file, exit 1 with the resume, which asks first', async () => {
    platform.routes['POST /v1/customer'] = firstCreateCut;
    platform.routes['PUT /v1/customer/*'] = nginxPage(502);
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'people.csv', '--concurrency', '1', '--retries', '0'],
      people,
    );
    expect(result.code).toBe(1);
    expect(reportOf(folder)).toEqual([
      unknownRow(/HTTP 502 with an HTML page \("502 Bad Gateway"\) by a proxy or gateway in front of the platform/),
      expect.objectContaining({ outcome: 'created', id: '7' }),
    ]);
    expect(runFiles(folder, 'people').errors).toEqual([]);
    expect(result.stderr).toMatch(/^customer create: 1 created, 1 unknown;/m);
    expect(result.stderr).toMatch(
      /^error: The outcome of 1 customer is not known \(1 unknown\);.* the resume asks the platform about it before sending it again: run .*b2bctl customer create people\.csv .*--resume people\.report-\d{8}-\d{6}\.csv$/m,
    );
    expect(platform.received.filter((request) => request.startsWith('POST'))).toHaveLength(2);
    await resumeFinds(folder);
  });

  it('a 200 HTML page: unknown with its row, the run stopped (exit 69, the resume), which asks first', async () => {
    platform.routes['POST /v1/customer'] = firstCreateCut;
    platform.routes['PUT /v1/customer/*'] = nginxPage(200);
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'people.csv', '--concurrency', '1', '-o', 'json'],
      people,
    );
    // An answer from no platform stops the run at the first, as it does a create it answers; the second not sent.
    expect(result.code).toBe(69);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcomes: { unknown: 1, 'not sent': 1 }, exitCode: 69 });
    expect(reportOf(folder)).toEqual([
      unknownRow(/answered HTTP 200 with an HTML page \("Welcome"\) instead of the platform's JSON/),
    ]);
    expect(runFiles(folder, 'people').errors).toEqual([]);
    expect(result.stderr).toMatch(
      /^error: PUT \S+ answered HTTP 200 with an HTML page \("Welcome"\) .* Stopped; once that is fixed, run: .*b2bctl customer create people\.csv .*--resume people\.report-\d{8}-\d{6}\.csv$/m,
    );
    expect(platform.received).toEqual(['POST /v1/customer', `PUT /v1/customer/${document}`]);
    await resumeFinds(folder);
  });

  it('a reset: unknown with its row, exit 1 with the resume, which asks first', async () => {
    platform.routes['POST /v1/customer'] = firstCreateCut;
    platform.routes['PUT /v1/customer/*'] = cut;
    const { result, folder } = await runInScriptedWorkspace(
      platform,
      ['customer', 'create', 'people.csv', '--concurrency', '1', '--retries', '0'],
      people,
    );
    expect(result.code).toBe(1);
    expect(reportOf(folder)).toEqual([
      unknownRow(/the connection to \S+ was cut before an answer came/),
      expect.objectContaining({ outcome: 'created', id: '7' }),
    ]);
    expect(runFiles(folder, 'people').errors).toEqual([]);
    await resumeFinds(folder);
  });

  it('Ctrl-C while the create is out: its question is not sent, and the record is unknown, never not sent', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'people.csv'), people['people.csv']);
    let run: TestContext | undefined;
    // The interrupt comes before the create's answer is cut: the run starts no request after it, its question either.
    platform.routes['POST /v1/customer'] = (request, body, response) => {
      run?.interrupt('SIGINT');
      firstCreateCut(request, body, response);
    };
    const result = await runCommandLine(['customer', 'create', 'people.csv', '--concurrency', '1', '-o', 'json'], {
      configDir: freshConfigDir(),
      env: scriptedPlatformEnv(platform),
      cwd: folder,
      started: (test) => (run = test),
    });
    expect(result.code).toBe(75);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcomes: { unknown: 1, 'not sent': 1 } });
    expect(reportOf(folder)).toEqual([unknownRow(/: the run was stopping, so the question was not sent/)]);
    expect(platform.received).toEqual(['POST /v1/customer']);
    await resumeFinds(folder);
  });
  it('a gateway down: the run stops after 3 unanswered questions, and a create out then is unknown, not not sent', async () => {
    const four = `${header}\n${[first, second, ...others.slice(0, 2)].join('\n')}\n`;
    const last = others[1]?.split(',')[1] ?? '';
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'people.csv'), four);
    const rowsWritten = () => {
      const report = runFiles(folder, 'people').reports[0];
      return report === undefined ? 0 : reportOf(folder).length;
    };
    // The last create is cut once the run has stopped (3 unanswered in a row): its question comes after the stop.
    platform.routes['POST /v1/customer'] = (request, body) => {
      if (!body.includes(last)) return request.socket.destroy();
      void until(() => rowsWritten() === 3, 'the third row').then(() => request.socket.destroy());
    };
    platform.routes['PUT /v1/customer/*'] = nginxPage(502);
    const result = await runCommandLine(
      ['customer', 'create', 'people.csv', '--concurrency', '2', '--retries', '0', '-o', 'json'],
      { configDir: freshConfigDir(), env: scriptedPlatformEnv(platform), cwd: folder },
    );
    expect(result.code).toBe(69);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcomes: { unknown: 4 } });
    expect(reportOf(folder).at(-1)).toMatchObject({
      key: last,
      outcome: 'unknown',
      message: expect.stringContaining(': the run was stopping, so the question was not sent') as unknown,
    });
    expect(platform.received.filter((request) => request === `PUT /v1/customer/${last}`)).toEqual([]);
  });
});
