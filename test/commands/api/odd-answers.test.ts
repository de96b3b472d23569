/**
 * `b2bctl api` against answers a route b2bctl knows nothing of may give: a redirect, a flat object where a listing was
 * asked for, an error whose URL carries secrets. A stub platform answers each as scripted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';

let server: Server;
let baseUrl: string;
const seen: string[] = [];

/** The control characters (but the line ends) and bidi marks of a text, which a terminal would obey. */
const controlsIn = (text: string) =>
  [...text].filter(
    (character) => (character < ' ' && character !== '\n') || character === '\u007F' || character === '\u202E',
  );

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    const path = (request.url ?? '').split('?')[0];
    if (path === '/moved') response.writeHead(302, { location: 'https://elsewhere.example/v1/x?token=abc' }).end();
    else if (path === '/queued')
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"batchId":"b-1","status":"QUEUED"}');
    else if (path === '/flat-error')
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"status":"ERROR","message":"invalid token"}');
    else if (path === '/texts') response.writeHead(201, { 'content-type': 'application/json' }).end('["a","b"]');
    else if (path === '/long-ids') {
      // One item at offset 0 (or with no offset), then an empty page: --paginate's end.
      const offset = new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0';
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(offset === '0' ? '[{"id":9007199254740993,"total":1.5}]' : '[]');
    } else if (path === '/long-decimals')
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(
          (new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0') === '0'
            ? '[{"id":1,"price":0.10000000000000000001,"huge":1e400,"list":12.50}]'
            : '[]',
        );
    else if (path === '/upstream-failed')
      response
        .writeHead(502, { 'content-type': 'application/json' })
        .end('{"status":"ERROR","message":"the tax callback answered HTTP 422: no row for NCM 85176255"}');
    else if (path === '/portal')
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>Wi-Fi login</title></head></html>');
    else if (path === '/empty-envelope')
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"total":0,"items":null}');
    else if (path === '/bad-json')
      response
        .writeHead(request.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
        .end('{"a":1,,}');
    else if (path === '/text') response.writeHead(200, { 'content-type': 'text/plain' }).end('plain text no newline');
    else if (path === '/escapes')
      // Control sequences a terminal obeys: clear the screen, colour, set the window's title (OSC … BEL), a bidi mark.
      response
        .writeHead(request.method === 'POST' ? 200 : 400, { 'content-type': 'text/plain' })
        .end('plain \u001b[2J\u001b[31mRED\u001b]0;PWNED\u0007 text\nline2 \u202Eevil');
    else if (path === '/forged-lines')
      // Lines that read as b2bctl's own, each after a line break of the body (CRLF and LF).
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end('raw\r\ninfo: fake b2bctl line\nerror: all good\n2026-12-01T00:00:00.000Z Logged in fine');
    else if (path === '/long-error') response.writeHead(400, { 'content-type': 'text/plain' }).end('x'.repeat(5000));
    else if (path === '/empty-error') response.writeHead(400).end();
    else if (path === '/digits')
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('[{"price":1.50,"e":1E2,"z":-0,"big":0.10000000000000000001,"plain":7}]');
    else if (path === '/null') response.writeHead(200, { 'content-type': 'application/json' }).end('null');
    else if (path === '/deep')
      // 5,000 levels: JSON.parse reads them, JSON.stringify then overflows the stack.
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`[{"id":"a","username":"a@x","x":${'['.repeat(5000)}${']'.repeat(5000)}}]`);
    else if (path?.startsWith('/status/'))
      response
        .writeHead(Number(path.slice('/status/'.length)), { 'content-type': 'application/json' })
        .end('{"message":"failed"}');
    else if (path === '/broken-gzip')
      response
        .writeHead(request.method === 'GET' ? 200 : 201, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
        })
        .end('not gzip at all');
    else response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"nf"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const api = (args: string[]) =>
  runCommandLine(['api', ...args], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'stub-token-0123456789' },
  });

describe('b2bctl api and odd answers', () => {
  it('a redirect is not followed and is no success: exit 1, naming where it pointed, the token kept home', async () => {
    const result = await api(['/moved']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `error: GET ${baseUrl}/moved answered HTTP 302 (a redirect to https://elsewhere.example/v1/x?token=[redacted], not followed`,
    );
  });

  it('keeps whole numbers past 2^53 as sent: indented on a terminal, and one item a line with --paginate', async () => {
    const shown = await runCommandLine(['api', '/long-ids'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'stub-token-0123456789' },
      tty: { stdout: true },
    });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('"id": 9007199254740993,');
    const paged = await api(['/long-ids', '--paginate']);
    expect(paged.code).toBe(0);
    expect(paged.stdout).toBe('{"id":9007199254740993,"total":1.5}\n');
  });

  // Same values, other digits: a price's 1.50 is what an ERP diff sees (a user test).
  it('indented on a terminal and under -o json, a number keeps its digits: 1.50, 1E2, -0 as sent', async () => {
    const shown = await runCommandLine(['api', '/digits'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'stub-token-0123456789' },
      tty: { stdout: true },
    });
    expect(shown.code).toBe(0);
    for (const field of ['"price": 1.50,', '"e": 1E2,', '"z": -0,', '"big": 0.10000000000000000001,', '"plain": 7\n'])
      expect(shown.stdout).toContain(field);
    const json = await api(['/digits', '-o', 'json']);
    expect(json.stdout.replace(/\s/g, '')).toBe(
      '[{"price":1.50,"e":1E2,"z":-0,"big":0.10000000000000000001,"plain":7}]',
    );
  });

  it('keeps a number a double cannot hold as sent (a long decimal, 1e400), as gh api and jq do', async () => {
    const shown = await runCommandLine(['api', '/long-decimals'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: baseUrl, B2BCTL_TOKEN: 'stub-token-0123456789' },
      tty: { stdout: true },
    });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('"price": 0.10000000000000000001,\n');
    expect(shown.stdout).toContain('"huge": 1e400,\n');
    const paged = await api(['/long-decimals', '--paginate']);
    expect(paged.stdout).toBe('{"id":1,"price":0.10000000000000000001,"huge":1e400,"list":12.50}\n');
    // --excel alone is its CSV, as for every listing command: a page, and every page.
    for (const flags of [['--paginate', '-o', 'csv', '--excel'], ['--paginate', '--excel'], ['--excel']]) {
      const excel = await api(['/long-decimals', ...flags]);
      expect(excel.stdout).toBe('\ufeffid;price;huge;list\r\n1;0,10000000000000000001;1e400;12,50\r\n');
    }
  });

  it.each([[[]], [['-o', 'json']], [['--paginate']]])(
    "a captive portal's 200 HTML page is no answer (exit 69), with %j, as for every command",
    async (flags) => {
      const result = await api(['/portal', ...flags]);
      expect(result.code).toBe(69);
      expect(result.stdout).toBe('');
      // --paginate asks for the first page: its URL carries the offset.
      const url = flags.includes('--paginate') ? `${baseUrl}/portal?offset=0` : `${baseUrl}/portal`;
      expect(result.stderr).toContain(
        `error: GET ${url} answered HTTP 200 with an HTML page ("Wi-Fi login") instead of the platform's JSON: a proxy, firewall or captive portal is answering in the platform's place.`,
      );
    },
  );

  it("--log-format json: a refused answer's body is a field of one log object, every stderr line an object", async () => {
    const result = await api(['/nothing-here', '--log-format', 'json']);
    expect(result.code).toBe(1);
    const lines = result.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map(({ level, message, fields }) => ({ level, message, fields }))).toEqual([
      {
        level: 'error',
        message: `GET ${baseUrl}/nothing-here answered with this body`,
        fields: { body: '{"message":"nf"}' },
      },
      { level: 'error', message: `GET ${baseUrl}/nothing-here answered HTTP 404.`, fields: undefined },
    ]);
  });

  it('a write answered 502 is not repeated, and its answer is shown: body on stderr, -i headers, exit 1', async () => {
    seen.length = 0;
    const result = await api(['-i', '-X', 'POST', '/upstream-failed', '-f', 'a=1']);
    expect(result.code).toBe(1);
    expect(seen).toEqual(['POST /upstream-failed']);
    expect(result.stdout).toMatch(/^HTTP\/1\.1 502 Bad Gateway\n/);
    expect(result.stderr).toContain(
      '{"status":"ERROR","message":"the tax callback answered HTTP 422: no row for NCM 85176255"}',
    );
    expect(result.stderr).toContain(
      `error: POST ${baseUrl}/upstream-failed answered HTTP 502, which may come after the platform applied the request: check whether it did before sending it again.`,
    );
  });

  // A user test: "answered HTTP 500." alone read as a refusal, and the write was sent again.
  it.each([
    ['POST', 500],
    ['PUT', 507],
    ['PATCH', 501],
    ['DELETE', 500],
  ])('a %s answered %i: sent once, exit 1, the line says it may have been applied', async (method, status) => {
    seen.length = 0;
    const result = await api(['-X', method, `/status/${status}`, '-f', 'qty=5']);
    expect(seen).toEqual([`${method} /status/${status}`]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `${method} ${baseUrl}/status/${status} answered with this body: {"message":"failed"}`,
    );
    expect(result.stderr).toContain(
      `error: ${method} ${baseUrl}/status/${status} answered HTTP ${status}, which may come after the platform applied the request: check whether it did before sending it again.`,
    );
    expect(result.code).toBe(1);
  });

  it('a GET answered 500, and a POST answered 400, are said as their status alone', async () => {
    const read = await api(['/status/500']);
    expect(read.stderr).toContain(`error: GET ${baseUrl}/status/500 answered HTTP 500.`);
    expect(read.code).toBe(1);
    const refused = await api(['-X', 'POST', '/status/400', '-f', 'qty=5']);
    expect(refused.stderr).toContain(`error: POST ${baseUrl}/status/400 answered HTTP 400.`);
    expect(refused.code).toBe(1);
  });

  // A user test: exit 69 ("unavailable"), which a cron wrapper retries on, and no word that the write was done.
  it.each(['POST', 'PUT'])('a %s answered 201 in a broken gzip: sent once, exit 1, said done', async (method) => {
    seen.length = 0;
    const result = await api(['-X', method, '/broken-gzip', '-F', 'qty=1']);
    expect(seen).toEqual([`${method} /broken-gzip`]);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: ${method} ${baseUrl.replaceAll('.', '\\.')}/broken-gzip answered HTTP 201 \\(the request was done: do not send it again\\) with a body labelled Content-Encoding: gzip that does not decode as gzip`,
        'm',
      ),
    );
    expect(result.code).toBe(1);
  });

  it('a GET answered 200 in a broken gzip is still the platform being unusable, exit 69', async () => {
    const result = await api(['/broken-gzip']);
    expect(result.stderr).toContain(`error: GET ${baseUrl}/broken-gzip answered HTTP 200 with a body labelled`);
    expect(result.code).toBe(69);
  });

  it('-o json of a flat object prints it as sent, not [] (a queued batch keeps its id), with no note: it is JSON', async () => {
    const result = await api(['-X', 'POST', '/queued', '-f', 'a=1', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('{"batchId":"b-1","status":"QUEUED"}');
    expect(result.stderr).toBe('');
  });

  it('-o csv of a list of texts after a POST prints it as sent (exit 0): the write is done, nothing to retry', async () => {
    const result = await api(['-X', 'POST', '/texts', '-f', 'name=New', '-o', 'csv']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('["a","b"]');
    expect(result.stderr).toContain(
      '-o csv makes rows of objects; this list holds other values, so it is printed as sent.',
    );
  });

  it.each([
    ['/bad-json', ['-o', 'json'], 'json'],
    ['/bad-json', ['-o', 'ndjson'], 'ndjson'],
    ['/bad-json', ['-o', 'csv'], 'csv'],
    ['/text', ['-o', 'json'], 'json'],
    ['/text', ['--excel'], 'csv'],
  ])(
    '%s with %j: a body that is not JSON is refused (exit 1), on stderr, stdout left empty',
    async (path, flags, format) => {
      const result = await api([path, ...flags]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')).toEqual([
        `GET ${baseUrl}${path} answered with this body: ${path === '/text' ? 'plain text no newline' : '{"a":1,,}'}`,
        `error: GET ${baseUrl}${path} answered HTTP 200 with a body that is not JSON, quoted above on stderr: -o ${format} formats JSON answers only (run without -o to have such a body on stdout as sent).`,
        '',
      ]);
    },
  );

  it('a write answered with a body that is not JSON under -o json: exit 1, the line saying it was done', async () => {
    seen.length = 0;
    const result = await api(['-X', 'POST', '/bad-json', '-f', 'a=1', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(seen).toEqual(['POST /bad-json']);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')).toEqual([
      `POST ${baseUrl}/bad-json answered with this body: {"a":1,,}`,
      `error: POST ${baseUrl}/bad-json answered HTTP 201 (the request was done: do not send it again) with a body that is not JSON, quoted above on stderr: -o json formats JSON answers only (run without -o to have such a body on stdout as sent).`,
      '',
    ]);
  });

  // Written raw, such a body cleared the operator's screen and set the window's title; a cron log got its lines
  // unbounded and without the time stamp (a user test).
  it('an error body holding control sequences is one line on stderr, none of them left, as sellers list quotes it', async () => {
    const result = await api(['/escapes', '--log-format', 'text']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(controlsIn(result.stderr)).toEqual([]);
    const lines = result.stderr.split('\n');
    expect(lines.map((line) => line.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, ''))).toEqual([
      `GET ${baseUrl}/escapes answered with this body: plain [2J [31mRED ]0;PWNED text line2 \\u{202E}evil`,
      `error: GET ${baseUrl}/escapes answered HTTP 400.`,
      '',
    ]);
    // Not a terminal: each line carries the log's time stamp, as every other log line does.
    expect(lines.slice(0, 2).every((line) => /^\d{4}-\d\d-\d\dT[\d:.]+Z /.test(line))).toBe(true);
  });

  // A server could write lines into a kept --verbose log that read as b2bctl's own (a user test).
  it('--verbose marks every line of a traced body with <, so none of them reads as a line of b2bctl', async () => {
    const result = await api(['/forged-lines', '--verbose', '--log-format', 'text']);
    expect(result.code).toBe(1);
    const traced = result.stderr.split('\n').map((line) => line.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, ''));
    const body = traced.indexOf('< raw');
    expect(traced.slice(body, body + 4)).toEqual([
      '< raw',
      '< info: fake b2bctl line',
      '< error: all good',
      '< 2026-12-01T00:00:00.000Z Logged in fine',
    ]);
    expect(traced.filter((line) => /^(info|error: all good|2026-12-01T00:00:00)/.test(line))).toEqual([]);
  });

  it('a 2xx body that is not JSON under -o json, holding control sequences, is quoted on one line, stdout empty', async () => {
    const result = await api(['-X', 'POST', '/escapes', '-f', 'a=1', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(controlsIn(result.stderr)).toEqual([]);
    expect(result.stderr.split('\n')[0]).toBe(
      `POST ${baseUrl}/escapes answered with this body: plain [2J [31mRED ]0;PWNED text line2 \\u{202E}evil`,
    );
  });

  it('a long error body is cut at 2,000 characters, the cut marked', async () => {
    const result = await api(['/long-error']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `GET ${baseUrl}/long-error answered with this body: ${'x'.repeat(2000)}…`,
    );
  });

  it('an error with no body says so, not a blank line', async () => {
    const result = await api(['/empty-error']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      `GET ${baseUrl}/empty-error answered no body.`,
      `error: GET ${baseUrl}/empty-error answered HTTP 400.`,
      '',
    ]);
  });

  // The engine's "Maximum call stack size exceeded", exit 1, after a CSV header was written (a user test).
  it.each([['csv'], ['json'], ['ndjson']])(
    'a body nested 5,000 deep under -o %s: one line saying so, exit 1, stdout empty',
    async (format) => {
      const result = await api(['/deep', '-o', format]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: GET ${baseUrl}/deep answered HTTP 200 with a body nested more than 1,000 levels deep, deeper than b2bctl reads: -o ${format} cannot format it (run without -o to have it on stdout as sent).\n`,
      );
    },
  );

  it('a body nested 5,000 deep under --paginate: one line saying so, exit 1, stdout empty', async () => {
    const result = await api(['/deep', '--paginate']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${baseUrl}/deep?offset=0 answered HTTP 200 with a body nested more than 1,000 levels deep, deeper than b2bctl reads; run without --paginate to see it as sent.\n`,
    );
  });

  it('a body nested 5,000 deep without -o is printed as sent, exit 0', async () => {
    const result = await api(['/deep']);
    expect(result.code).toBe(0);
    expect(result.stdout).toHaveLength(10_034);
  });

  // It was printed `[]`, an empty list where the route said null (a user test).
  it('-o json of a null body writes null, as sent, not []', async () => {
    const result = await api(['/null', '-o', 'json']);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, 'null\n', '']);
  });

  it('without -o, a body that is not JSON is printed as sent, exit 0, as gh api does', async () => {
    const result = await api(['/text']);
    expect([result.code, result.stdout, result.stderr]).toEqual([0, 'plain text no newline', '']);
  });

  it('--paginate of a flat 200 object is no listing (exit 1), not an empty one; an envelope of figures is', async () => {
    const flat = await api(['/flat-error', '--paginate', '--slurp']);
    expect(flat.code).toBe(1);
    expect(flat.stdout).toBe('');
    const empty = await api(['/empty-envelope', '--paginate', '--slurp']);
    expect([empty.code, empty.stdout]).toEqual([0, '[]\n']);
  });

  it("an error's line and the --verbose trace show secret query values redacted", async () => {
    const result = await api(['/missing', '-X', 'GET', '-f', 'password=hunter2', '-f', 'limit=5', '--verbose']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stderr).toContain(`> GET ${baseUrl}/missing?password=[redacted]&limit=5`);
    expect(result.stderr).toContain(`error: GET ${baseUrl}/missing?password=[redacted]&limit=5 answered HTTP 404.`);
  });
});
