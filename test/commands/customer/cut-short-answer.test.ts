/**
 * A create answered 200 whose body is cut short (a gateway timing out mid-answer, a proxy): the platform received
 * it and most likely stored the customer. It was "Cannot reach … check the base URL", the row failed with no
 * look-up, and the resume sent it again (a fresh user test). It is now looked up as a lost answer is: created
 * when the platform holds it with the file's e-mail, never sent twice.
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
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'people.csv'), `${header}\n${first}\n`);
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const result = await runCommandLine(['customer', 'create', 'people.csv'], {
      configDir: freshConfigDir(),
      env,
      cwd: folder,
    });
    expect(result.code).toBe(0);
    expect(platform.received).toEqual(['POST /v1/customer', 'PUT /v1/customer/100.007.919-89']);
    expect(readReport(join(folder, onlyReport(folder, 'people')))).toEqual([
      expect.objectContaining({ line: '2', outcome: 'created' }),
    ]);
  });
});
