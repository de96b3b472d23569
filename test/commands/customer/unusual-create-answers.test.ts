/**
 * Answers to a create that the platform document does not show, from a scripted platform:
 * - a 200 whose body is cut short (a gateway timing out mid-answer, a proxy): the platform received it and most
 *   likely stored the customer. It was "Cannot reach … check the base URL", the row failed with no look-up, and the
 *   resume sent it again (a fresh user test). It is now looked up as a lost answer is: created when the platform holds
 *   it with the file's e-mail, never sent twice.
 * - a 202 Accepted with a queue's status (`{"status":"PROCESSING"}`): the platform took it, so it is counted created
 *   and never sent again, but the row says the customer may be neither stored nor refused yet (it said nothing: a
 *   fresh user test). A 200 says nothing more.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { repoRoot } from '../../support/sandbox.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');

/** `customer create` of the sample's first customer: its result and the report's rows. */
async function createOne() {
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'people.csv'), `${header}\n${first}\n`);
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const result = await runCommandLine(['customer', 'create', 'people.csv'], {
    configDir: freshConfigDir(),
    env,
    cwd: folder,
  });
  return { result, rows: readReport(join(folder, onlyReport(folder, 'people'))) };
}

describe('customer create: a 200 cut short mid-body', () => {
  it.each([
    ['shorter than its Content-Length', 'Content-Length: 1000'],
    ['a chunked body without its end', 'Transfer-Encoding: chunked\r\n\r\n1b'],
  ])('%s: looked up, created, sent once', async (_, framing) => {
    let stored: { username?: string } | undefined;
    platform.routes['POST /v1/customer'] = (request, body) => {
      stored = JSON.parse(body) as { username?: string };
      request.socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n${framing}\r\n{"id":5001,"document":"1`,
      );
    };
    platform.routes['PUT /v1/customer/*'] = (_request, _body, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 5001, document: '100.007.919-89', email: stored?.username }));
    const { result, rows } = await createOne();
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer', 'PUT /v1/customer/100.007.919-89']);
    expect(rows).toEqual([expect.objectContaining({ line: '2', outcome: 'created' })]);
  });
});

describe('customer create answered 202 Accepted', () => {
  it('created, sent once, the row saying the platform took it to do later', async () => {
    platform.routes['POST /v1/customer'] = (_request, _body, response) =>
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"PROCESSING"}');
    const { result, rows } = await createOne();
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer']);
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'created',
        status: '202',
        message:
          'the platform answered 202 Accepted: it took the create to do later, so the customer may not be stored yet, nor refused',
      }),
    ]);
  });

  it('a 200 with the customer: created, nothing more said', async () => {
    platform.routes['POST /v1/customer'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":41}');
    const { rows } = await createOne();
    expect(rows).toEqual([expect.objectContaining({ outcome: 'created', status: '200', id: '41', message: '' })]);
  });
});
