/**
 * Answers the platform document does not show, from a real HTTP server scripted per route: a 200
 * with an empty body, a 200 with a proxy's HTML login page, a 400 in plain text, a 401 with only a
 * WWW-Authenticate header. b2bctl decides on the status and on documented questions, never on the
 * wording, and never fails a 2xx because of its body's shape.
 */
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { ordersInOutDir, readReport, warningLines } from '../../support/run-files.js';
import { sandboxUser, seedDirectory } from '../../support/sandbox.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

const proxyPage =
  '<!DOCTYPE html><html><head><title>Corporate Proxy - Sign in</title></head><body><form>user/password</form></body></html>';

/** The document a customer route's path names, as its letters and digits (a CNPJ may hold letters). */
function documentInPath(request: { url?: string }): string {
  return decodeURIComponent((request.url ?? '').split('/').pop() ?? '').replace(/[^0-9A-Za-z]/g, '');
}

/**
 * The record a store answers an empty update (`PUT {}`, the read before an address update) with: the customer the
 * path names, with a registration address, so an update that leaves address parts out can keep them. A store that
 * answers no record there gets such an update refused, not sent (docs/platform.md): these tests are about the
 * answers to the writes themselves.
 */
function storedRecordAnswer(request: { url?: string }, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      id: 7,
      document: documentInPath(request),
      customerRegistrationAddress: { zipcode: '01310-100', number: '11', complement: 'Sala 1' },
    }),
  );
}

/** `args` on the scripted platform, with a pre-issued token unless `token` is false, in `configDir` or a fresh one. */
function run(args: string[], options: { cwd?: string; stdin?: string; token?: boolean; configDir?: string } = {}) {
  const env: Record<string, string> = { B2BCTL_BASE_URL: platform.url };
  if (options.token !== false) env.B2BCTL_TOKEN = 'a-pre-issued-token-0123456789';
  const configDir = options.configDir ?? freshConfigDir();
  return runCommandLine(args, { configDir, env, cwd: options.cwd, stdin: options.stdin });
}

/**
 * `orders poll --detail` of the last hour, which writes each order of `listing` as listed (exit 0) whatever its
 * detail answered: its config folder and its warnings.
 */
async function polledWithDetail(listing: readonly unknown[]) {
  const configDir = freshConfigDir();
  const result = await run(['orders', 'poll', '--since', '1h', '--detail', '-o', 'ndjson'], { configDir });
  expect(result.code).toBe(0);
  expect(ndjsonOf(result.stdout)).toEqual(listing);
  return { configDir, warnings: warningLines(result.stderr) };
}

/** The orders listing answered with `listing` on its first page and nothing after. */
function listingOf(listing: readonly unknown[]): RouteHandler {
  return (request, _body, response) => {
    const offset = Number(new URL(request.url ?? '/', platform.url).searchParams.get('offset') ?? 0);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(offset === 0 ? listing : []));
  };
}

describe('a 200 with an empty body', () => {
  it('sellers list: the end of the listing, [] and exit 0', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) => response.writeHead(200).end();
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stdout).toBe('[]\n');
    expect(result.code).toBe(0);
  });

  it('stock push --route batch: every item accepted, exit 0, one warning naming the setting', async () => {
    routes['PUT /v1/stock/batch'] = (_request, _body, response) => response.writeHead(200).end();
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch'], { cwd: dir });
    expect(result.code).toBe(0);
    const warnings = warningLines(result.stderr);
    expect(warnings).toEqual([
      'warning: the stock batch route answered 2xx without a per-item result b2bctl recognises; those items are reported "accepted". If the answer holds a list of per-item results, set answers.stockBatch.results (and answers.stockBatch.status) to read them; b2bctl --verbose stock push shows the answer (doctor does not send to the stock routes, which write).',
    ]);
    const name = /: report: (\S+)/.exec(result.stderr)?.[1] as string;
    const outcomes = new Set(readReport(join(dir, name)).map((row) => row.outcome));
    expect([...outcomes]).toEqual(['accepted']);
  });

  it('stock push --route batch: a 200 whose body is an error-like message is passed on as the platform said it', async () => {
    routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"Invalid token for store"}');
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--quiet'], { cwd: dir });
    // A 2xx is the platform taking the batch (its wording is not ours to judge); what it said is shown, not dropped.
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: the stock batch route answered 2xx without a per-item result b2bctl recognises, saying "Invalid token for store"; those items are reported "accepted". Those words may tell of a failure, which b2bctl does not read from words: check the report and the store.',
    );
    const name = readdirSync(dir).find((file) => /^stock\.report-.*\.csv$/.test(file)) as string;
    const messages = new Set(readReport(join(dir, name)).map((row) => row.message));
    expect([...messages]).toEqual(['the answer did not itemise this item; it said "Invalid token for store"']);
  });

  it('stock push --route batch: a 200 whose status refuses the batch leaves every item unknown, quoting it, exit 1', async () => {
    const answer = '{"status":"ERROR","message":"Invalid token for store"}';
    routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--quiet'], { cwd: dir });
    // The status word is read as an item's would be; the message is quoted, never judged.
    expect(result.code).toBe(1);
    expect(warningLines(result.stderr)).toEqual([
      `warning: the stock batch route refused an item b2bctl cannot match to the items sent: ${answer}; every item of that batch the answer does not show applied or refused is reported "unknown" (the errors file holds them to send again), never "accepted".`,
    ]);
    const name = readdirSync(dir).find((file) => /^stock\.report-.*\.csv$/.test(file)) as string;
    const rows = new Set(readReport(join(dir, name)).map((row) => `${row.outcome} ${row.status} ${row.message}`));
    expect([...rows]).toEqual([
      `unknown 200 the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${answer}`,
    ]);
    // The sample's 52 items in two batches of at most 50, each sent once.
    expect(received.filter((request) => request === 'PUT /v1/stock/batch')).toHaveLength(2);
  });

  it('stock push --route queue: a 202 with no body is queued without a batch id, exit 0', async () => {
    routes['POST /api/v1/stocks/batch'] = (_request, _body, response) => response.writeHead(202).end();
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'queue'], { cwd: dir });
    expect(result.code).toBe(0);
    const name = /: report: (\S+)/.exec(result.stderr)?.[1] as string;
    const rows = readReport(join(dir, name));
    expect(new Set(rows.map((row) => `${row.outcome} ${row.status} ${row.id}`))).toEqual(new Set(['queued 202 ']));
  });
});

describe('customer routes answering 200 without a body', () => {
  it('customer create: every customer created (exit 0), no id in the report', async () => {
    routes['POST /v1/customer'] = (_request, _body, response) => response.writeHead(200).end();
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv'], { cwd: dir });
    expect(result.code).toBe(0);
    const name = /: report: (\S+)/.exec(result.stderr)?.[1] as string;
    expect(new Set(readReport(join(dir, name)).map((row) => `${row.outcome} ${row.status} ${row.id}`))).toEqual(
      new Set(['created 200 ']),
    );
  });

  it('a 400 to create whose {} question answers 200 without a body: the document exists, --upsert updates it', async () => {
    routes['POST /v1/customer'] = (_request, _body, response) => response.writeHead(400).end();
    routes['PUT /v1/customer/*'] = (_request, _body, response) => response.writeHead(200).end();
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const plain = await run(['customer', 'create', 'customers.csv', '--concurrency', '1'], { cwd: dir });
    expect(plain.code).toBe(1);
    const name = /: report: (\S+)/.exec(plain.stderr)?.[1] as string;
    expect(readReport(join(dir, name))[0]?.message).toBe(
      'document 100.007.919-89 is already registered (pass --upsert to update existing customers)',
    );
    // The same question is the read an update that leaves address parts out needs: with no record in its answer,
    // such an update is not sent (it could clear the stored parts).
    const upserted = await run(['customer', 'create', 'customers.csv', '--upsert'], { cwd: dir });
    expect(upserted.code).toBe(1);
    const upsertReport = /: report: (\S+)/.exec(upserted.stderr)?.[1] as string;
    const invalid = readReport(join(dir, upsertReport)).filter((row) => row.outcome === 'invalid');
    expect(invalid.length).toBeGreaterThan(0);
    for (const row of invalid) expect(row.message).toContain('the answer holds no customer record to keep them from');
  });
});

describe('the answers.* settings map a shape b2bctl would not guess', () => {
  it('stock push --route batch with answers.stockBatch.results and .status: applied and rejected per item', async () => {
    routes['PUT /v1/stock/batch'] = (_request, body, response) => {
      const items = (JSON.parse(body) as { items: { sku: string }[] }).items;
      const lines = items.map((item, index) => ({ ref: item.sku, verdict: index === 0 ? 'ERROR' : 'OK' }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ payload: { lines } }));
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const configDir = freshConfigDir();
    for (const [key, value] of [
      ['answers.stockBatch.results', 'payload.lines'],
      ['answers.stockBatch.status', 'verdict'],
    ])
      expect((await runCommandLine(['config', 'set', key as string, value as string], { configDir })).code).toBe(0);
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch'], { configDir, cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('warning:');
    const name = /: report: (\S+)/.exec(result.stderr)?.[1] as string;
    const outcomes = readReport(join(dir, name)).map((row) => row.outcome);
    // Two requests of 50 and 2 items; the first item of each was rejected.
    expect(outcomes.filter((outcome) => outcome === 'rejected')).toHaveLength(2);
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(50);
  });
});

describe('a 200 with HTML (a proxy login page)', () => {
  it('sellers list: one error naming the proxy problem, exit 69, no parse stack', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(proxyPage);
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP 200 with an HTML page ("Corporate Proxy - Sign in") instead of the platform's JSON: a proxy, firewall or captive portal is answering in the platform's place. Check the base URL and the proxy settings (HTTPS_PROXY), or log in to the network, then try again.\n`,
    );
  });

  it('stock push: the run stops at the first such answer, exit 69, with the proxy named', async () => {
    routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(proxyPage);
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--concurrency', '1'], { cwd: dir });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain('answered HTTP 200 with an HTML page ("Corporate Proxy - Sign in")');
    expect(received.filter((key) => key === 'PUT /v1/stock/batch')).toHaveLength(1);
  });

  it('login: the same, even without a text/html content type', async () => {
    routes['POST /v1/auth/token'] = (_request, _body, response) => response.writeHead(200).end(proxyPage);
    const result = await run(['login', '--username', sandboxUser, '--password-stdin'], {
      stdin: 'some-password\n',
      token: false,
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toContain('answered HTTP 200 with an HTML page ("Corporate Proxy - Sign in")');
    expect(result.stderr).not.toContain('some-password');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('a 400 whose body is plain text', () => {
  it('customer create asks the update route with {}: 404, so not a duplicate document; the row fails with the text and that fact', async () => {
    routes['POST /v1/customer'] = (_request, _body, response) =>
      response.writeHead(400, { 'content-type': 'text/plain' }).end('Requisicao invalida');
    const questions: string[] = [];
    routes['PUT /v1/customer/*'] = (_request, body, response) => {
      questions.push(body);
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Nao encontrado');
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv', '--concurrency', '1'], { cwd: dir });
    expect(result.code).toBe(1);
    const name = /: report: (\S+)/.exec(result.stderr)?.[1] as string;
    const [first] = readReport(join(dir, name));
    expect(first).toMatchObject({ outcome: 'failed', status: '400' });
    // The platform's text says why (in words b2bctl does not read), as written; then what b2bctl learnt by asking,
    // a fact and not a guess at the cause: this document is not on the store.
    expect(first?.message).toBe(
      'Requisicao invalida; document 100.007.919-89 is not registered on the store, so the refusal is about another field, such as the e-mail',
    );
    // One create and one documented question per record; nothing updated.
    expect(received.filter((key) => key === 'POST /v1/customer')).toHaveLength(25);
    expect(received.filter((key) => key.startsWith('PUT /v1/customer/'))).toHaveLength(25);
    // Only the documented no-op was sent to the update route.
    expect(new Set(questions)).toEqual(new Set(['{}']));
  });

  it('customer create: a 400 whose record exists with that e-mail is a duplicate document; --upsert updates it', async () => {
    let updates = 0;
    routes['POST /v1/customer'] = (_request, _body, response) => response.writeHead(400).end('duplicado');
    routes['PUT /v1/customer/*'] = (request, body, response) => {
      if (body === '{}') {
        storedRecordAnswer(request, response);
        return;
      }
      updates++;
      // The record of the customer the path names: another customer's record would prove nothing of this one.
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 7, document: documentInPath(request), email: 'CLIENTE1@email.com.br' }));
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv', '--upsert', '--concurrency', '1'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(updates).toBe(25);
    expect(result.stderr).toContain('customer create: 25 updated;');
  });
});

describe('a 401 with WWW-Authenticate and no body', () => {
  it('login: refused, exit 77, one line', async () => {
    routes['POST /v1/auth/token'] = (_request, _body, response) =>
      response.writeHead(401, { 'www-authenticate': 'Basic realm="api"' }).end();
    const result = await run(['login', '--username', sandboxUser, '--password-stdin'], {
      stdin: 'wrong\n',
      token: false,
    });
    expect(result.code).toBe(77);
    expect(result.stderr).toBe(
      `error: Login refused for ${sandboxUser} at ${platform.url} (HTTP 401): check the username and password, or the token route may be elsewhere: POST /v1/auth/token is b2bctl's guess (paths.token is not set); set the store's with b2bctl config set paths.token PATH, and its request's style with auth.style (json, form or basic).\n`,
    );
  });

  it('sellers list with a refused token: exit 77, the challenge named, nothing on stdout', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(401, { 'www-authenticate': 'Bearer realm="api", error="invalid_token"' }).end();
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.code).toBe(77);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: /);
  });
});

// Text where the listing's JSON belongs: no answers.sellers.items setting can find a list in it, and the failing
// page of --all is named by its offset (a user test).
describe('sellers list answered 200 with text, not JSON', () => {
  it('one page: no page of sales reps, exit 69, the setting not named, the URL with its limit', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 failed with HTTP 200: the answer is no page of sales reps (it is text, not JSON): "OK"\n`,
    );
  });

  it('--all: the page of offset 5 answered text stops the read, its URL naming that page, the first page kept', async () => {
    const offsets: string[] = [];
    routes['GET /sellerModule/listSellers'] = (request, _body, response) => {
      const offset = new URL(request.url ?? '', 'http://localhost').searchParams.get('offset') ?? '0';
      offsets.push(offset);
      if (offset === '0')
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(Array.from({ length: 5 }, (_, index) => ({ id: `i${index}`, username: `r${index}@x` }))));
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    };
    const result = await run(['sellers', 'list', '--all', '--limit', '5', '-o', 'ndjson']);
    expect(result.code).toBe(69);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(5);
    expect(offsets).toEqual(['0', '5']);
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=5&offset=5 failed with HTTP 200: the answer is no page of sales reps (it is text, not JSON): "OK"\n`,
    );
  });

  it('a page nested 5,000 deep: one line saying so, exit 69, stdout empty (a user test)', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`[{"id":"a","username":"a@x","x":${'['.repeat(5000)}${']'.repeat(5000)}}]`);
    const result = await run(['sellers', 'list', '-o', 'csv']);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP 200 with a body nested more than 1,000 levels deep, deeper than b2bctl reads; no platform record is (b2bctl api /sellerModule/listSellers prints it as sent).\n`,
    );
  });

  it('an object with no list b2bctl recognises still names answers.sellers.items, and the URL carries the page', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"vendedores":[{"id":"1"}]}');
    const result = await run(['sellers', 'list', '--offset', '40']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20&offset=40 failed with HTTP 200: the answer holds no array of sales reps b2bctl recognises; set answers.sellers.items to the field that holds it (b2bctl doctor shows the answer)\n`,
    );
  });
});

/** A route answering a redirect to `location`. */
const redirect =
  (status: number, location: string): RouteHandler =>
  (_request, _body, response) =>
    response.writeHead(status, { location }).end();

/** The error line's words for a redirect, as `b2bctl api` says them. */
const notFollowed = (what: string, status: number, location: string) =>
  `${what} answered HTTP ${status} (a redirect to ${location}, not followed: the token goes to the base URL only; if the platform moved (http to https, another host), set the base URL there).`;

describe('a redirect (3xx): never followed, never a success', () => {
  const listing = [
    { id: 4, orderId: 100004, status: 'PAID', lastUpdated: new Date(Date.now() - 60_000).toISOString() },
  ];

  it('customer create: the run stops at the first, the create it answered unknown (sent), the rest not sent, exit 69', async () => {
    routes['POST /v1/customer'] = redirect(307, '/maintenance');
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv', '--concurrency', '1'], { cwd: dir });
    expect(result.code).toBe(69);
    const lines = result.stderr.trim().split('\n');
    expect(result.stderr).toMatch(
      /\ncustomer create: 1 unknown, 24 not sent; 1 request, 0 retries, 0 throttled \(429\); [\d.]+ s, [\d.]+ customers\/s\n/,
    );
    const name = /: report: (\S+)/.exec(result.stderr)?.[1] as string;
    // The create went out whole: a redirect does not say it was not applied, so the resume asks before sending it.
    const line = `${notFollowed(`POST ${platform.url}/v1/customer`, 307, '/maintenance').slice(0, -1)}: the request was sent, and may have been applied before the redirect.`;
    expect(lines.at(-1)).toBe(`error: ${line} Stopped; once that is fixed, run: ${resumeCommand(result.stderr)}`);
    expect(resumeCommand(result.stderr)).toMatch(
      new RegExp(`b2bctl customer create customers\\.csv .*--resume ${name}$`),
    );
    expect(readReport(join(dir, name))).toEqual([
      expect.objectContaining({ line: '2', outcome: 'unknown', status: '307', message: line }),
    ]);
    // One create, and nothing sent where the redirect pointed.
    expect(received).toEqual(['POST /v1/customer']);
  });

  it('stock push: the run stops at the first, exit 69, the batch it answered unknown, never accepted', async () => {
    routes['PUT /v1/stock/batch'] = redirect(302, 'https://login.example.com/');
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--concurrency', '1'], { cwd: dir });
    expect(result.code).toBe(69);
    const name = /: report: (\S+)/.exec(result.stderr)?.[1] as string;
    const line = `${notFollowed(`PUT ${platform.url}/v1/stock/batch`, 302, 'https://login.example.com/').slice(0, -1)}: the request was sent, and may have been applied before the redirect.`;
    expect(result.stderr).toContain(
      `\nerror: ${line} Stopped; once that is fixed, run: ${resumeCommand(result.stderr)}\n`,
    );
    expect(resumeCommand(result.stderr)).toMatch(new RegExp(`b2bctl stock push stock\\.csv .*--resume ${name}$`));
    expect(new Set(readReport(join(dir, name)).map((row) => row.outcome))).toEqual(new Set(['unknown']));
    expect(received).toEqual(['PUT /v1/stock/batch']);
  });

  it('orders poll: a redirected listing is no empty page: exit 69, nothing written, the cursor not moved', async () => {
    routes['GET /v1/orders'] = redirect(302, '/maintenance');
    const configDir = freshConfigDir();
    const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: GET ${platform.url}/v1/orders\\?\\S+ answered HTTP 302 \\(a redirect to /maintenance, not followed: the token goes to the base URL only; if the platform moved \\(http to https, another host\\), set the base URL there\\)\\.\\n$`,
      ),
    );
    expect(existsSync(join(configDir, 'cursors'))).toBe(false);
  });

  it('orders poll --detail: a redirected detail stops the run before the cursor passes the order, exit 69', async () => {
    routes['GET /v1/orders'] = listingOf(listing);
    routes['GET /v1/orders/4'] = redirect(301, '/elsewhere/v1/orders/4');
    const configDir = freshConfigDir();
    const result = await run(['orders', 'poll', '--since', '1h', '--detail', '-o', 'ndjson'], { configDir });
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders/4 answered HTTP 301 (a redirect to /elsewhere/v1/orders/4, not followed: the route moved on this host; if every route moved under /elsewhere, add it to the base URL; else set that route's paths.* setting to the path it names (b2bctl config list shows the routes)).\n`,
    );
    expect(existsSync(join(configDir, 'cursors'))).toBe(false);
  });

  it('orders ready: the move is not taken as applied, and may have been: exit 69', async () => {
    routes['PUT /v1/orders/4/status'] = redirect(308, '/maintenance');
    const result = await run(['orders', 'ready', '4', '--erp-number', 'E-1', '--no-status-check']);
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      `error: PUT ${platform.url}/v1/orders/4/status answered HTTP 308 (a redirect to /maintenance, not followed: the route moved on this host; set that route's paths.* setting to the path it names (b2bctl config list shows the routes)): the request was sent, and may have been applied before the redirect.\n`,
    );
    expect(received).toEqual(['PUT /v1/orders/4/status']);
  });

  it('login: the token route redirected is no login, exit 69', async () => {
    routes['POST /v1/auth/token'] = redirect(302, 'https://sso.example.com/login');
    const result = await run(['login', '--username', sandboxUser, '--password-stdin'], {
      stdin: 'some-password\n',
      token: false,
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      `error: ${notFollowed(`POST ${platform.url}/v1/auth/token`, 302, 'https://sso.example.com/login')}\n`,
    );
  });

  it('doctor: the redirected route is a failed check naming the redirect, exit 69', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    routes['GET /v1/orders'] = redirect(302, '/maintenance');
    const result = await run(['doctor', '-o', 'json']);
    expect(result.code).toBe(69);
    const findings = JSON.parse(result.stdout) as { check: string; result: string; status?: number; detail: string }[];
    expect(findings.find((finding) => finding.check.startsWith('GET /v1/orders'))).toEqual({
      check: 'GET /v1/orders?limit=1',
      result: 'fail',
      status: 302,
      detail:
        'a redirect to /maintenance, not followed: the token goes to the base URL only; if the platform moved (http to https, another host), set the base URL there',
    });
    expect(received).not.toContain('GET /maintenance');
  });
});

describe('an order detail answered 200 without JSON', () => {
  const listing = [
    { id: 4, orderId: 100004, status: 'PAID', lastUpdated: new Date(Date.now() - 120_000).toISOString() },
    { id: 5, orderId: 100005, status: 'PAID', lastUpdated: new Date(Date.now() - 60_000).toISOString() },
  ];
  beforeEach(() => {
    routes['GET /v1/orders'] = listingOf(listing);
    routes['GET /v1/orders/4'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end();
    routes['GET /v1/orders/5'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
  });

  it('orders poll --detail: each written from its listing entry with a warning, never as `undefined`; exit 0', async () => {
    const { configDir, warnings } = await polledWithDetail(listing);
    expect(warnings).toEqual([
      `warning: order 4 (updated ${listing[0]?.lastUpdated}) is listed but its detail answered 200 with an empty body: its listing entry was written in its place; b2bctl orders get 4 reads it later.`,
      `warning: order 5 (updated ${listing[1]?.lastUpdated}) is listed but its detail answered 200 with a body that is not JSON: its listing entry was written in its place; b2bctl orders get 5 reads it later.`,
    ]);
    expect(existsSync(join(configDir, 'cursors', 'default.orders-poll.json'))).toBe(true);
  });

  it('orders get: an error naming the empty answer, nothing on stdout, exit 69', async () => {
    const result = await run(['orders', 'get', '4', '-o', 'json']);
    expect(result.code).toBe(69);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders/4 failed with HTTP 200: the order's detail came as an empty body, not the order's JSON\n`,
    );
  });
});

describe("an order detail answered 200 with JSON that is not the order: no object, or another order's record", () => {
  const listing = [
    { id: 7, orderId: 1007, status: 'NEW', lastUpdated: new Date(Date.now() - 240_000).toISOString() },
    { id: 8, orderId: 1008, status: 'NEW', lastUpdated: new Date(Date.now() - 180_000).toISOString() },
    { id: 9, orderId: 1009, status: 'NEW', lastUpdated: new Date(Date.now() - 120_000).toISOString() },
    { id: 10, orderId: 1010, status: 'NEW', lastUpdated: new Date(Date.now() - 60_000).toISOString() },
  ];
  const details: Record<string, string> = {
    7: 'null',
    8: '[]',
    // A caching gateway's mix-up: order 8's record at order 9's route.
    9: '{"id":8,"orderId":1008,"status":"CANCELED"}',
    // The right id, another order's number.
    10: '{"data":{"id":10,"orderId":1011,"status":"NEW"}}',
  };
  beforeEach(() => {
    routes['GET /v1/orders'] = listingOf(listing);
    for (const [id, body] of Object.entries(details))
      routes[`GET /v1/orders/${id}`] = (_request, _body, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });

  it('orders poll --detail: each listing entry written in its place with a warning, never the detail; exit 0', async () => {
    const { warnings } = await polledWithDetail(listing);
    const instead = [
      'JSON null',
      'a JSON array',
      'the record of another order (id 8)',
      'the record of another order (number 1011, not 1010)',
    ];
    // The details are fetched side by side: the warnings come in the order the answers do.
    expect(warnings.toSorted()).toEqual(
      listing
        .map(
          (order, index) =>
            `warning: order ${order.id} (updated ${order.lastUpdated}) is listed but its detail answered 200 with ${instead[index]}: its listing entry was written in its place; b2bctl orders get ${order.id} reads it later.`,
        )
        .toSorted(),
    );
  });

  it('orders poll --detail --out-dir: the files hold the listing entries, none holds null or another order', async () => {
    const dir = freshWorkDir();
    const result = await run(['orders', 'poll', '--since', '1h', '--detail', '--out-dir', 'od'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(ordersInOutDir(join(dir, 'od'))).toEqual(listing);
  });

  it.each([
    ['7', 'JSON null'],
    ['8', 'a JSON array'],
    ['9', 'the record of another order (id 8)'],
  ])('orders get %s: one line naming what came, nothing on stdout, exit 69', async (id, instead) => {
    const result = await run(['orders', 'get', id, '-o', 'json']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders/${id} failed with HTTP 200: the order's detail came as ${instead}, not the order's JSON\n`,
    );
    expect(result.code).toBe(69);
  });
});

/** The report's rows as `outcome status id`, each different one once. */
function rowsOf(dir: string, stderr: string): Set<string> {
  const name = /: report: (\S+)/.exec(stderr)?.[1] as string;
  return new Set(readReport(join(dir, name)).map((row) => `${row.outcome} ${row.status} ${row.id}`));
}

describe("the report's status column: the status the platform gave, not 200", () => {
  it.each([
    [201, '{"id":7}', 'created 201 7'],
    [204, '', 'created 204 '],
    [202, '{"status":"PROCESSING"}', 'created 202 '],
  ])('customer create answered %i: reported with it', async (status, body, row) => {
    routes['POST /v1/customer'] = (_request, _body, response) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(rowsOf(dir, result.stderr)).toEqual(new Set([row]));
  });

  it('customer create --upsert of a registered document: the update route answered 202', async () => {
    routes['POST /v1/customer'] = (_request, _body, response) => response.writeHead(400).end();
    routes['PUT /v1/customer/*'] = (request, body, response) => {
      if (body === '{}') storedRecordAnswer(request, response);
      else response.writeHead(202, { 'content-type': 'application/json' }).end('{"id":9,"email":"x@example.com"}');
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv', '--upsert'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(rowsOf(dir, result.stderr)).toEqual(new Set(['updated 202 9']));
  });

  it('stock push --route batch answered 207 with per-item results: each item with 207', async () => {
    routes['PUT /v1/stock/batch'] = (_request, body, response) => {
      const items = (JSON.parse(body) as { items: { sku: string }[] }).items;
      const results = items.map((item) => ({ sku: item.sku, status: 'SUCCESS' }));
      response.writeHead(207, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(rowsOf(dir, result.stderr)).toEqual(new Set(['applied 207 ']));
  });

  it('stock push --route batch answered 204, nothing itemised: each item accepted with 204', async () => {
    routes['PUT /v1/stock/batch'] = (_request, _body, response) => response.writeHead(204).end();
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--quiet'], { cwd: dir });
    expect(result.code).toBe(0);
    const name = readdirSync(dir).find((file) => /^stock\.report-.*\.csv$/.test(file)) as string;
    expect(new Set(readReport(join(dir, name)).map((row) => `${row.outcome} ${row.status}`))).toEqual(
      new Set(['accepted 204']),
    );
  });

  it('stock push --route queue answered 200: each item queued with 200, not 202', async () => {
    routes['POST /api/v1/stocks/batch'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"batchId":"b-1"}');
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'queue'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(rowsOf(dir, result.stderr)).toEqual(new Set(['queued 200 b-1']));
  });

  it('customer update and customer status from a file answered 204: reported with it', async () => {
    // The update route and the status route (`/v1/customer/updateStatus` by default) both.
    routes['PUT /v1/customer/*'] = (request, body, response) => {
      if (body === '{}') storedRecordAnswer(request, response);
      else response.writeHead(204).end();
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers-update.csv'), join(dir, 'customers-update.csv'));
    const updated = await run(['customer', 'update', 'customers-update.csv'], { cwd: dir });
    expect(updated.code).toBe(0);
    const name = /: report: (\S+)/.exec(updated.stderr)?.[1] as string;
    expect(new Set(readReport(join(dir, name)).map((row) => row.status))).toEqual(new Set(['204']));
    writeFileSync(join(dir, 'states.csv'), 'document,active\n100.007.919-89,false\n');
    const statuses = await run(['customer', 'status', 'states.csv'], { cwd: dir });
    expect(statuses.code).toBe(0);
    expect(rowsOf(dir, statuses.stderr)).toEqual(new Set(['updated 204 ']));
  });
});

/** The command an error line gives to resume the run with. */
function resumeCommand(stderr: string): string {
  return /once that is fixed, run: (.*)$/m.exec(stderr)?.[1] ?? '';
}
