/**
 * `b2bctl api` refuses what it cannot send as asked, with one line that says how to write it, and sends nothing:
 * the sandbox counts no request.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir } from '../../support/cli.js';
import { runCommandLine, startLoggedInSandbox } from '../../support/command-line.js';
import { requestCounts, resetCounts, stopTestSandbox } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

beforeAll(async () => {
  ({ sandbox, configDir } = await startLoggedInSandbox());
  await resetCounts(sandbox);
});
afterAll(() => stopTestSandbox(sandbox));

describe('api: bad input is refused before anything is sent', () => {
  it.each([
    [['/v1/customer', '-f', 'name'], 2, '-f "name": a field is key=value, such as -f name=Acme.'],
    [
      ['/v1/customer', '-F', 'a]b=1'],
      2,
      '-F key "a]b" is not a field name: use name, name[sub], name[0][sub] or name[] (to append).',
    ],
    [
      ['/v1/customer', '-f', 'a=1', '-f', 'a[b]=2'],
      2,
      'Field "a[b]" clashes with an earlier field that set a otherwise.',
    ],
    [
      // The other order: the value would replace the object, dropping a[b] unsaid.
      ['/v1/customer', '-F', 'a[b]=1', '-F', 'a=2'],
      2,
      'Field "a" clashes with an earlier field that set a otherwise.',
    ],
    [
      ['/v1/customer', '-f', 'a[0][b]=1', '-f', 'a[0]=x'],
      2,
      'Field "a[0]" clashes with an earlier field that set a otherwise.',
    ],
    // A second value for one key of a JSON body dropped the first unsaid (a user test).
    [
      ['-X', 'POST', '/v1/customer', '-f', 'a=1', '-f', 'a=2'],
      2,
      'Field "a" sets a value an earlier field set already; give it once, or use a[] for a list.',
    ],
    [
      ['-X', 'POST', '/v1/customer', '-f', 'c[]=1', '-f', 'c[0]=2'],
      2,
      'Field "c[0]" sets a value an earlier field set already; give it once, or use c[] for a list.',
    ],
    [['/v1/customer', '-f', 'a[2]=1'], 2, 'Field "a[2]": index 2 skips 0; number list items from 0.'],
    [['-X', 'TRACE', '/v1/contracts'], 2, '-X TRACE: the method is one of GET, POST, PUT, PATCH, DELETE, HEAD.'],
    [
      ['/v1/contracts', '-H', 'no colon'],
      2,
      `-H "no colon": a header is 'Name: value', such as -H 'Accept: text/csv'.`,
    ],
    [
      ['/v1/contracts', '-H', 'Authorization: Bearer x'],
      2,
      '-H Authorization: b2bctl sets this header itself (the token comes from b2bctl login).',
    ],
    [
      // A line break would start another header: not a network failure (exit 69) after nothing was sent.
      ['/v1/contracts', '-H', 'X-A: 1\r\nX-B: y'],
      2,
      "-H X-A: a header's value is one line, without line breaks.",
    ],
    [
      // HTTP has no byte for it: the HTTP library's refusal read as the platform out of reach (exit 69).
      ['/v1/contracts', '-H', 'X-Note: São Paulo 😀'],
      2,
      "-H X-Note: a header's value holds only printable Latin-1 characters (HTTP sends each as one byte), and U+1F600 is not one; percent-encode it, or send it in the body.",
    ],
    [
      ['/v1/contracts', '-H', 'X-Note: a\u0007b'],
      2,
      "-H X-Note: a header's value holds only printable Latin-1 characters (HTTP sends each as one byte), and U+0007 is not one; percent-encode it, or send it in the body.",
    ],
    [
      ['/v1/contracts', '-H', 'Transfer-Encoding: chunked'],
      2,
      '-H Transfer-Encoding: b2bctl sets this header itself (from the body it sends).',
    ],
    // The token clause is Authorization's alone (a user test).
    [
      ['/v1/contracts', '-H', 'Host: evil.example'],
      2,
      '-H Host: b2bctl sets this header itself (the host comes from the base URL).',
    ],
    [
      ['-X', 'POST', '/v1/contracts', '-H', 'Content-Length: 0', '-f', 'a=1'],
      2,
      '-H Content-Length: b2bctl sets this header itself (from the body it sends).',
    ],
    [
      ['v1/contracts'],
      2,
      'The path "v1/contracts" must start with /, such as /v1/contracts (the base URL comes from the profile).',
    ],
    [
      ['/v1/contracts', '--branch', '0001'],
      2,
      '--branch fills {branch} in the path, and /v1/contracts has none; write it where the branch goes.',
    ],
    [
      ['/v1/branches/{branch}/contracts'],
      2,
      'The path /v1/branches/{branch}/contracts names {branch}, and no branch is set: pass --branch CODE, set B2BCTL_BRANCH, or run b2bctl config set branch CODE.',
    ],
    [
      ['-X', 'POST', '/v1/contracts', '--paginate'],
      2,
      '--paginate reads listings with GET; drop -X POST or --paginate.',
    ],
    [
      // No -X typed: the fields made the POST, and -X GET sends them as the query.
      ['/sellerModule/listSellers', '--paginate', '-f', 'email=silva'],
      2,
      '--paginate reads listings with GET, and fields (-f, -F) make the request a POST; add -X GET to send them as the query, or drop --paginate.',
    ],
    [['/v1/contracts', '--slurp'], 2, '--slurp goes with --paginate.'],
    // Dropped unsaid before (a user test).
    [
      ['/v1/contracts', '--paginate', '--slurp', '-o', 'csv'],
      2,
      '--slurp writes one JSON array of every item, and -o csv writes rows; drop one of them.',
    ],
    [
      ['/v1/contracts', '--paginate', '--slurp', '-o', 'ndjson'],
      2,
      '--slurp writes one JSON array of every item, and -o ndjson writes rows; drop one of them.',
    ],
    [
      ['/v1/contracts', '--paginate', '-i'],
      2,
      '-i prints one answer’s headers; with --paginate, --verbose traces every page.',
    ],
    [
      ['/v1/customer', '--input', 'no-such-file.json'],
      66,
      'no-such-file.json: cannot read it (ENOENT); check the path.',
    ],
    [['/v1/customer', '-F', 'password=@missing.txt'], 66, 'missing.txt: cannot read it (ENOENT); check the path.'],
    [
      ['//v1/orders'],
      2,
      'The path "//v1/orders" has an empty first segment (//), which would send the request elsewhere than it says; write the route from the base URL, such as /v1/contracts.',
    ],
    [
      ['/../admin'],
      2,
      'The path "/../admin" has a . or .. segment, which would send the request elsewhere than it says; write the route from the base URL, such as /v1/contracts.',
    ],
    [
      ['/v1/%2e%2e/admin'],
      2,
      'The path "/v1/%2e%2e/admin" has a . or .. segment, which would send the request elsewhere than it says; write the route from the base URL, such as /v1/contracts.',
    ],
  ])('api %j exits %i: %s', async (args, code, message) => {
    const result = await runCommandLine(['api', ...args], { configDir, cwd: freshWorkDir() });
    expect(result.code).toBe(code);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(`error: ${message}`);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it.each([
    [
      'a FIFO no program writes to',
      (work: string) => {
        execFileSync('mkfifo', ['-m', '600', join(work, 'body.json')]);
        return 'body.json';
      },
      'no program is writing to the pipe: start the program that writes it first, or pass a file',
    ],
    ['a device', () => '/dev/zero', 'it is a device, not a file'],
    [
      'a folder',
      (work: string) => {
        mkdirSync(join(work, 'body'));
        return 'body';
      },
      'it is a folder, not a file',
    ],
  ])('--input naming %s: refused at once (exit 66), nothing sent', async (_what, inputIn, reason) => {
    const work = freshWorkDir();
    const input = inputIn(work);
    const result = await runCommandLine(['api', '-X', 'POST', '/v1/customer', '--input', input], {
      configDir,
      cwd: work,
    });
    expect(result).toMatchObject({ code: 66, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(`error: ${input}: cannot read it (${reason}).`);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('-H with Latin-1 characters beyond ASCII (São Paulo) is sent: each has its byte', async () => {
    const result = await runCommandLine(['api', '/v1/contracts?limit=1', '-H', 'X-Note: São Paulo'], { configDir });
    expect(result.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({ 'GET /v1/contracts': 1 });
    await resetCounts(sandbox);
  });

  it('--input of a file that is not UTF-8 (Latin-1, binary) is refused, not sent with U+FFFD in its place', async () => {
    const work = freshWorkDir();
    writeFileSync(join(work, 'latin1.txt'), Buffer.from('nome=S\xe3o Paulo', 'latin1'));
    const result = await runCommandLine(['api', '/v1/customer', '--input', 'latin1.txt'], { configDir, cwd: work });
    expect(result.code).toBe(65);
    expect(result.stderr.split('\n')[0]).toBe(
      'error: latin1.txt: not UTF-8 text, which b2bctl api sends as it is; nothing was sent. Convert it first (iconv -f ISO-8859-1 -t UTF-8).',
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
