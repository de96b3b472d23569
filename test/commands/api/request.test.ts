/**
 * `b2bctl api` one request at a time, against every sandbox dialect: each method, fields (-f, -F typed, nested
 * keys, @file) and --input (a file, stdin), -H, -i, the body as sent when piped and indented on a terminal, and
 * each exit code (0, 1 with the body on stderr, 77, 69). Whole command lines run in process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readListingPage } from '../../../src/platform/answers/listing.js';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { scheduleFault } from '../../support/api-sandbox.js';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { loginToDialect, runCommandLine } from '../../support/command-line.js';
import { spareCpfs, storedCustomer } from '../../support/customers.js';
import { requestCounts, resetCounts, revokeTokens, sandboxPassword, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))('api, %s dialect', (_, dialect) => {
  let sandbox: RunningSandbox;
  let configDir: string;
  let work: string;
  const api = (args: string[], options: { stdin?: string; tty?: boolean; env?: Record<string, string> } = {}) =>
    runCommandLine(['api', ...args], {
      configDir,
      stdin: options.stdin,
      tty: { stdout: options.tty ?? false },
      env: { B2BCTL_PASSWORD: sandboxPassword, ...options.env },
    });

  beforeAll(async () => {
    sandbox = await startTestSandbox({ dialect });
    configDir = freshConfigDir();
    work = freshWorkDir();
    await loginToDialect(sandbox, dialect, configDir);
  });
  afterAll(async () => sandbox.close());
  beforeEach(async () => resetCounts(sandbox));

  it('GET prints the body as the platform sent it when piped, indented on a terminal', async () => {
    const piped = await api(['/v1/customer-groups?limit=2']);
    expect(piped.code).toBe(0);
    const raw = await (
      await fetch(`${sandbox.url}/v1/customer-groups?limit=2`, {
        headers: { authorization: `Bearer ${[...sandbox.state.tokens.keys()][0]}` },
      })
    ).text();
    expect(piped.stdout).toBe(raw);
    const terminal = await api(['/v1/customer-groups?limit=2'], { tty: true });
    expect(terminal.stdout).toBe(`${JSON.stringify(JSON.parse(raw), null, 2)}\n`);
  });

  it('-f and -F build a nested JSON body and make the request a POST; -F reads @file and types values', async () => {
    const passwordFile = join(work, `password-${dialect.name}.txt`);
    writeFileSync(passwordFile, 'Senha#9001');
    const document = spareCpfs[dialects.indexOf(dialect)] as string;
    const result = await api([
      '/v1/customer',
      '-f',
      'documentType=cpf',
      '-f',
      `document=${document}`,
      '-f',
      `username=api-${dialect.name}@example.com`,
      '-f',
      'phone=11987654321',
      '-F',
      `password=@${passwordFile}`,
      '-F',
      'paysIcms=true',
      '-f',
      'customerRegistrationAddress[zipcode]=69020-060',
      '-F',
      'customerRegistrationAddress[number]=0211',
      '-f',
      'customerGroupList[]=Sul',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const stored = await storedCustomer(sandbox, document);
    expect(stored).toMatchObject({ paysIcms: true, customerRegistrationAddress: { number: '0211' } });
    expect(await requestCounts(sandbox)).toEqual({ 'POST /v1/customer': 1 });
  });

  it('--input FILE and --input - send a raw body; -X PUT; fields then go into the query', async () => {
    const document = spareCpfs[dialects.indexOf(dialect)] as string;
    const body = join(work, `update-${dialect.name}.json`);
    writeFileSync(body, JSON.stringify({ name: 'From a file' }));
    const fromFile = await api(['-X', 'PUT', `/v1/customer/${document}`, '--input', body]);
    expect(fromFile.code).toBe(0);
    expect((await storedCustomer(sandbox, document)).name).toBe('From a file');
    const fromStdin = await api(['-X', 'put', `/v1/customer/${document}`, '--input', '-', '-f', 'x=1', '--verbose'], {
      stdin: '{"name":"From stdin"}',
    });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stderr).toContain(`> PUT ${sandbox.url}/v1/customer/${document}?x=1`);
    expect((await storedCustomer(sandbox, document)).name).toBe('From stdin');
  });

  it('-X GET sends fields as the query; HEAD prints nothing; -H adds a header', async () => {
    const get = await api(['-X', 'GET', '/v1/quotes/pending', '-f', 'limit=2', '-H', 'X-Trace: abc', '--verbose']);
    expect(get.code).toBe(0);
    expect(get.stderr).toContain(`> GET ${sandbox.url}/v1/quotes/pending?limit=2`);
    expect(get.stderr).toContain('> x-trace: abc');
    // --verbose never shows the token.
    expect(get.stderr).toContain('> authorization: Bearer [redacted]');
    for (const token of sandbox.state.tokens.keys()) expect(get.stderr).not.toContain(token);
    expect(readListingPage(JSON.parse(get.stdout))).toHaveLength(2);
    const head = await api(['-X', 'HEAD', '/v1/quotes/pending']);
    expect(head).toMatchObject({ code: 0, stdout: '' });
  });

  it.each(['PATCH', 'DELETE'])(
    '-X %s is sent as asked: the sandbox has no such route, so exit 1 with the body on stderr',
    async (method) => {
      const result = await api(['-X', method, '/v1/contracts']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`error: ${method} ${sandbox.url}/v1/contracts answered HTTP 404.`);
      expect(await requestCounts(sandbox)).toEqual({ [`${method} /v1/contracts`]: 1 });
    },
  );

  it('-i prints the status line and the headers before the body', async () => {
    const result = await api(['-i', '/v1/lead-times?limit=1']);
    expect(result.code).toBe(0);
    const [head, body] = result.stdout.split('\n\n');
    expect(head?.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body ?? '')).toBeTruthy();
  });

  it('-o csv and -o ndjson turn a listing (in any envelope) into rows', async () => {
    const csv = await api(['/v1/customer-groups?limit=3', '-o', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toMatch(/^id,name,externalId,/);
    expect(csv.stdout.trim().split('\n')).toHaveLength(4);
    const ndjson = await api(['/v1/customer-groups?limit=3', '-o', 'ndjson']);
    expect(ndjson.stdout.trim().split('\n')).toHaveLength(3);
    const table = await api(['/v1/customer-groups?limit=3', '-o', 'table']);
    const rows = table.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^ID +NAME +EXTERNAL_ID +/);
    expect(rows).toHaveLength(4);
  });

  it('a 422 exits 1 with the body on stderr and nothing on stdout', async () => {
    const result = await api(['/v1/customer', '-f', 'documentType=xx']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('does not pass validation');
  });

  it('a refused token with no password to log in again exits 77', async () => {
    await revokeTokens(sandbox);
    const result = await runCommandLine(['api', '/v1/contracts'], { configDir });
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    const renewed = await api(['/v1/contracts?limit=1']);
    expect(renewed.code).toBe(0);
  });

  it.each([502, 503] as const)('a POST is not repeated after a %i unless --retry-writes', async (status) => {
    // A 503 too: it may come after the platform applied the write, as a 502 may (api.md once called it a refusal).
    await scheduleFault(sandbox, '/v1/customer', 1, status);
    const once = await api(['/v1/customer', '-f', 'documentType=xx']);
    expect(once.code).toBe(1);
    expect(once.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: POST ${sandbox.url}/v1/customer answered HTTP ${status}, which may come after the platform applied the request: check whether it did before sending it again.`,
    );
    expect(await requestCounts(sandbox)).toEqual({ 'POST /v1/customer': 1 });
    await resetCounts(sandbox);
    await scheduleFault(sandbox, '/v1/customer', 1, status);
    const retried = await api(['/v1/customer', '-f', 'documentType=xx', '--retry-writes']);
    expect(retried.code).toBe(1);
    expect(await requestCounts(sandbox)).toEqual({ 'POST /v1/customer': 2 });
  });
});

describe('api: exit 69 when the platform cannot be reached', () => {
  it('says which address failed, after the retries', async () => {
    const closed = await startTestSandbox();
    const url = closed.url;
    await closed.close();
    const result = await runCommandLine(['api', '/v1/contracts', '--retries', '0'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: url, B2BCTL_TOKEN: 'a-token' },
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain(`Cannot reach ${url}`);
  });
});
