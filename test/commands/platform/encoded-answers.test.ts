/**
 * Answers read as the platform wrote them, from a real HTTP server: a body in the charset its Content-Type declares
 * (a Java platform's ISO-8859-1), a body compressed with gzip, deflate or br (real zlib bytes), and JSON labelled
 * text/html. A charset or coding b2bctl cannot decode is an error naming it, never a body read as text.
 */
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { seedDirectory } from '../../support/sandbox.js';
import { type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes } = platform;
afterAll(removeTemporaryFolders);

function run(args: string[], options: { cwd?: string; configDir?: string } = {}) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(args, { configDir: options.configDir ?? freshConfigDir(), env, cwd: options.cwd });
}

/** A route answering 200 with these bytes and headers. */
const answering =
  (bytes: Buffer | string, headers: Record<string, string>): RouteHandler =>
  (_request, _body, response) =>
    response.writeHead(200, headers).end(bytes);

const sellers = [{ username: 'joão.conceição@x.com', name: 'Vendedor Júnior', attendantCode: 'AÇÃO' }];
/** All `sellers list` says of its one page, read right: the store may cap its pages, so more may follow it. */
const onePageNote = 'First 1 sales rep; --all for every page.\n';

/** The rows of the one report a run of `base` (`stock` for stock.csv) wrote in `dir`. */
function reportOf(dir: string, base: string) {
  return readReport(join(dir, onlyReport(dir, base)));
}

describe('a body in the charset its Content-Type declares', () => {
  it('sellers list: ISO-8859-1 bytes read as Latin-1, accents right', async () => {
    routes['GET /sellerModule/listSellers'] = answering(Buffer.from(JSON.stringify(sellers), 'latin1'), {
      'content-type': 'application/json; charset=ISO-8859-1',
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stderr).toBe(onePageNote);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(sellers);
  });

  it('orders poll: a Latin-1 listing is written in UTF-8 with its accents', async () => {
    const now = Date.now();
    const order = {
      id: 7001,
      orderId: 107001,
      status: 'AWAITING_PAYMENT',
      dateCreated: new Date(now - 100_000).toISOString(),
      lastUpdated: new Date(now - 100_000).toISOString(),
      partnerCompanyName: 'Comércio São João Ltda',
    };
    listingOf(Buffer.from(JSON.stringify([order]), 'latin1'), 'application/json;charset="iso-8859-1"');
    const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    expect(ndjsonOf(result.stdout)).toEqual([
      expect.objectContaining({ id: 7001, partnerCompanyName: 'Comércio São João Ltda' }),
    ]);
  });

  it('a charset Node cannot decode: one error naming it, exit 69, nothing on stdout', async () => {
    routes['GET /sellerModule/listSellers'] = answering(JSON.stringify(sellers), {
      'content-type': 'application/json; charset=x-mac-klingon',
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP 200 with text in the charset "x-mac-klingon", which b2bctl cannot decode; ask the platform's operator to answer in UTF-8 without a content coding, or with one b2bctl decodes.\n`,
    );
    expect(result.code).toBe(69);
  });
});

/** The order listing: `page` on the first page, then an empty one (a listing ends with an empty page). */
function listingOf(page: Buffer, contentType: string): void {
  const first = answering(page, { 'content-type': contentType });
  const end = answering('[]', { 'content-type': contentType });
  routes['GET /v1/orders'] = (request, body, response) =>
    (new URL(request.url ?? '/', platform.url).searchParams.get('offset') === '0' ? first : end)(
      request,
      body,
      response,
    );
}

/** Text as Windows-1252 bytes (Node writes no such encoding): Latin-1, and the few characters it places elsewhere. */
function windows1252(text: string): Buffer {
  const elsewhere: Record<string, number> = { '€': 0x80, '“': 0x93, '”': 0x94, '–': 0x96 };
  return Buffer.from([...text].map((character) => elsewhere[character] ?? character.charCodeAt(0)));
}

describe('a body that declares no charset', () => {
  const now = Date.now();
  const order = {
    id: 7001,
    orderId: 107001,
    status: 'AWAITING_PAYMENT',
    dateCreated: new Date(now - 100_000).toISOString(),
    lastUpdated: new Date(now - 100_000).toISOString(),
    partnerCompanyName: 'Comércio “São João” – 5€ Ltda',
  };

  /** The order listing: the order in Windows-1252 labelled plain application/json on the first page, then the end. */
  const listingInWindows1252 = () => listingOf(windows1252(JSON.stringify([order])), 'application/json');

  it('orders poll: bytes that are not UTF-8 are one error naming them, exit 69, nothing written, the cursor kept', async () => {
    listingInWindows1252();
    const configDir = freshConfigDir();
    const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(result.stdout).toBe('');
    const [line, query] = /^error: GET \S+?(\?\S*) answered/.exec(result.stderr) ?? [];
    expect(line).toBeDefined();
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders${query} answered HTTP 200 with text that is not UTF-8 and declares no charset; if the platform writes another charset, name it (b2bctl config set answers.charset windows-1252), or ask the platform's operator to declare the charset it writes in the Content-Type.\n`,
    );
    expect(result.code).toBe(69);
    expect(platform.received).toEqual(['GET /v1/orders']);
    expect(existsSync(join(configDir, 'cursors', 'default.orders-poll.json'))).toBe(false);
  });

  it('api: such a body is the same error, never printed with U+FFFD', async () => {
    listingInWindows1252();
    const result = await run(['api', '/v1/orders?offset=0']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders?offset=0 answered HTTP 200 with text that is not UTF-8 and declares no charset; if the platform writes another charset, name it (b2bctl config set answers.charset windows-1252), or ask the platform's operator to declare the charset it writes in the Content-Type.\n`,
    );
    expect(result.code).toBe(69);
  });

  it('orders poll with answers.charset windows-1252: read right; a charset the answer declares still wins', async () => {
    listingInWindows1252();
    const configDir = freshConfigDir();
    expect((await run(['config', 'set', 'answers.charset', 'windows-1252'], { configDir })).code).toBe(0);
    const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(result.code).toBe(0);
    expect(ndjsonOf(result.stdout)).toEqual([
      expect.objectContaining({ id: 7001, partnerCompanyName: 'Comércio “São João” – 5€ Ltda' }),
    ]);
    routes['GET /sellerModule/listSellers'] = answering(JSON.stringify(sellers), {
      'content-type': 'application/json; charset=utf-8',
    });
    const listed = await run(['sellers', 'list', '-o', 'json'], { configDir });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject(sellers);
  });

  it('answers.charset windows-1252: an answer in UTF-8 that declares no charset is still read as UTF-8', async () => {
    // Read as Windows-1252 it was "joÃ£o.conceiÃ§Ã£o@x.com", exit 0 (a fresh user test).
    routes['GET /sellerModule/listSellers'] = answering(JSON.stringify(sellers), {
      'content-type': 'application/json',
    });
    const configDir = freshConfigDir();
    expect((await run(['config', 'set', 'answers.charset', 'windows-1252'], { configDir })).code).toBe(0);
    const listed = await run(['sellers', 'list', '-o', 'json'], { configDir });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject(sellers);
  });

  it('sellers list: UTF-8 without a charset, a BOM before it, is read as before', async () => {
    routes['GET /sellerModule/listSellers'] = answering(`\uFEFF${JSON.stringify(sellers)}`, {
      'content-type': 'application/json',
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stderr).toBe(onePageNote);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(sellers);
  });

  it('stock push: a 400 whose words are not UTF-8 is still the refusal its status says, exit 1, not unreadable', async () => {
    routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(windows1252(JSON.stringify({ message: 'Depósito inválido' })));
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--concurrency', '1'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('not UTF-8');
    const rows = reportOf(dir, 'stock');
    expect(new Set(rows.map((row) => `${row.outcome} ${row.status}`))).toEqual(new Set(['failed 400']));
    expect(rows[0]?.message).toContain('Dep\uFFFDsito inv\uFFFDlido');
    expect(platform.received).toEqual(['PUT /v1/stock/batch', 'PUT /v1/stock/batch']);
  });

  it('sellers list: a redirect whose page is not UTF-8 is still the redirect, exit 69', async () => {
    routes['GET /sellerModule/listSellers'] = (_request, _body, response) =>
      response
        .writeHead(302, { 'content-type': 'text/html', location: `${platform.url}/entrar` })
        .end(windows1252('<html><body>Página movida</body></html>'));
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP 302 (a redirect to ${platform.url}/entrar, not followed: the token goes to the base URL only; if the platform moved (http to https, another host), set the base URL there).\n`,
    );
    expect(result.code).toBe(69);
    expect(platform.received).toEqual(['GET /sellerModule/listSellers']);
  });

  it('config set answers.charset: a charset b2bctl cannot decode is refused', async () => {
    const result = await run(['config', 'set', 'answers.charset', 'x-mac-klingon']);
    expect(result.stderr).toBe(
      'error: "answers.charset" must be a charset b2bctl can decode, such as windows-1252, ISO-8859-1 or UTF-8, not "x-mac-klingon"\n',
    );
    expect(result.code).toBe(2);
  });
});

describe('a body labelled charset=utf-8 whose bytes are not UTF-8', () => {
  const order = {
    id: 7002,
    orderId: 107002,
    status: 'AWAITING_PAYMENT',
    dateCreated: new Date(Date.now() - 100_000).toISOString(),
    lastUpdated: new Date(Date.now() - 100_000).toISOString(),
    partnerCompanyName: 'Comércio São João Ltda',
  };

  /** The order listing in Windows-1252 under a UTF-8 label (a template's header), then the end. */
  const listingMislabelled = (label: string) =>
    listingOf(windows1252(JSON.stringify([order])), `application/json; ${label}`);

  it('orders poll: one error naming the label, exit 69, nothing written, the cursor kept (it was read with U+FFFD)', async () => {
    listingMislabelled('charset=UTF-8');
    const configDir = freshConfigDir();
    const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(result.stdout).toBe('');
    const [, query] = /^error: GET \S+?(\?\S*) answered/.exec(result.stderr) ?? [];
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/v1/orders${query} answered HTTP 200 with text labelled charset=UTF-8 whose bytes are not UTF-8; if the platform writes another charset, name it (b2bctl config set answers.charset windows-1252), or ask the platform's operator to declare the charset it writes in the Content-Type.\n`,
    );
    expect(result.code).toBe(69);
    expect(existsSync(join(configDir, 'cursors', 'default.orders-poll.json'))).toBe(false);
  });

  it('orders poll with answers.charset windows-1252: read right under the label utf8 too', async () => {
    listingMislabelled('charset="utf8"');
    const configDir = freshConfigDir();
    expect((await run(['config', 'set', 'answers.charset', 'windows-1252'], { configDir })).code).toBe(0);
    const result = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson'], { configDir });
    expect(result.code).toBe(0);
    expect(ndjsonOf(result.stdout)).toEqual([
      expect.objectContaining({ id: 7002, partnerCompanyName: 'Comércio São João Ltda' }),
    ]);
  });

  it('sellers list: real UTF-8 under the label is read as before', async () => {
    routes['GET /sellerModule/listSellers'] = answering(JSON.stringify(sellers), {
      'content-type': 'application/json; charset=utf-8',
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stderr).toBe(onePageNote);
    expect(JSON.parse(result.stdout)).toMatchObject(sellers);
  });

  it('customer create: such a 200 is unknown (it may have been applied), never created with U+FFFD in its words', async () => {
    routes['POST /v1/customer'] = answering(windows1252(JSON.stringify({ id: 9, razaoSocial: 'Comércio' })), {
      'content-type': 'application/json; charset=utf-8',
    });
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv', '--concurrency', '1'], { cwd: dir });
    expect(result.stderr).toContain('customer create: 25 unknown;');
    expect(new Set(reportOf(dir, 'customers').map((row) => row.outcome))).toEqual(new Set(['unknown']));
    expect(result.code).toBe(1);
  });

  it('a 400 so labelled is still the refusal its status says', async () => {
    routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
      response
        .writeHead(400, { 'content-type': 'application/json; charset=utf-8' })
        .end(windows1252(JSON.stringify({ message: 'Depósito inválido' })));
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\n');
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(reportOf(dir, 'stock').map((row) => `${row.outcome} ${row.status}`)).toEqual(['failed 400']);
  });
});

/** The stock batch route's answer: the second item rejected, the others applied. */
const stockAnswer = (skus: string[]) => ({
  results: skus.map((sku, index) =>
    index === 1 ? { index, sku, status: 'REJECTED', message: 'SKU not found' } : { index, sku, status: 'APPLIED' },
  ),
});

describe('a compressed body', () => {
  it('stock push --route batch: a gzip answer is read, its rejected item rejected, exit 1', async () => {
    routes['PUT /v1/stock/batch'] = (_request, body, response) => {
      const skus = (JSON.parse(body) as { items: { sku: string }[] }).items.map((item) => item.sku);
      response
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end(gzipSync(JSON.stringify(stockAnswer(skus))));
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch', '--concurrency', '1'], { cwd: dir });
    expect(result.stderr).not.toContain('warning:');
    expect(result.code).toBe(1);
    const rows = reportOf(dir, 'stock');
    expect(rows.filter((row) => row.outcome === 'rejected').map((row) => row.message)).toEqual([
      'SKU not found',
      'SKU not found',
    ]);
    expect(rows.filter((row) => row.outcome === 'applied')).toHaveLength(50);
    // Every request names exactly the codings b2bctl decodes.
    expect(new Set(platform.acceptEncodings)).toEqual(new Set(['gzip, deflate, br, zstd']));
  });

  it.each([
    ['br', brotliCompressSync],
    ['deflate', deflateSync],
    ['gzip', gzipSync],
  ])('sellers list: a %s answer in Latin-1 is listed with its accents', async (coding, compress) => {
    routes['GET /sellerModule/listSellers'] = answering(compress(Buffer.from(JSON.stringify(sellers), 'latin1')), {
      'content-type': 'application/json; charset=ISO-8859-1',
      'content-encoding': coding,
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stderr).toBe(onePageNote);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(sellers);
  });

  it('api: prints the decoded body, as curl --compressed does', async () => {
    routes['GET /sellerModule/listSellers'] = answering(gzipSync(Buffer.from(JSON.stringify(sellers), 'latin1')), {
      'content-type': 'application/json; charset=ISO-8859-1',
      'content-encoding': 'gzip',
    });
    const result = await run(['api', '/sellerModule/listSellers']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(sellers);
  });

  it('a coding b2bctl cannot decode: one error naming it, exit 69, the body never read as text', async () => {
    routes['GET /sellerModule/listSellers'] = answering(gzipSync(JSON.stringify(sellers)), {
      'content-type': 'application/json',
      'content-encoding': 'compress',
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP 200 with a body in the content coding "compress", which b2bctl cannot decode (it decodes gzip, deflate, br, zstd); ask the platform's operator to answer in UTF-8 without a content coding, or with one b2bctl decodes.\n`,
    );
    expect(result.code).toBe(69);
  });

  it('stock push --route batch: a 200 in a coding b2bctl cannot decode leaves its items unknown with the 200, never "not sent"', async () => {
    routes['PUT /v1/stock/batch'] = answering(Buffer.from('not really compressed'), {
      'content-type': 'application/json',
      'content-encoding': 'compress',
    });
    const dir = freshWorkDir();
    writeFileSync(join(dir, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\nB2,20,6.00\n');
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch'], { cwd: dir });
    const why = `PUT ${platform.url}/v1/stock/batch answered HTTP 200 with a body in the content coding "compress", which b2bctl cannot decode (it decodes gzip, deflate, br, zstd); ask the platform's operator to answer in UTF-8 without a content coding, or with one b2bctl decodes.`;
    expect(reportOf(dir, 'stock').map((row) => `${row.key} ${row.outcome} ${row.status} ${row.message}`)).toEqual([
      `A1 unknown 200 ${why}`,
      `B2 unknown 200 ${why}`,
    ]);
    const report = onlyReport(dir, 'stock');
    const errors = report.replace('.report-', '.errors-');
    expect(result.stderr).toMatch(/stock push: 2 unknown; 1 request, 0 retries, 0 throttled \(429\);/);
    expect(result.stderr).toContain(
      `error: The outcome of 2 items is not known (2 unknown); the report ${report} and the errors file ${errors} say why.\n`,
    );
    expect(result.stderr).toContain('stock push: to send them again, feed it back with: ');
    expect(result.stderr).not.toContain('not sent');
    expect(result.stderr).not.toContain('unavailable');
    expect(result.code).toBe(1);
    expect(platform.received).toEqual(['PUT /v1/stock/batch']);
  });

  it('customer create: a 200 in a coding b2bctl cannot decode is unknown (it may have been applied), not "not sent"', async () => {
    routes['POST /v1/customer'] = answering(Buffer.from('not really compressed'), {
      'content-type': 'application/json',
      'content-encoding': 'compress',
    });
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv', '--concurrency', '1'], { cwd: dir });
    // Each create the platform answered is unknown: asked afterwards, this platform knows no such customer, and the
    // create may still be under way, so none is sent again (a resume asks again before it sends). Never "not sent".
    expect(result.stderr).toContain('customer create: 25 unknown; 50 requests,');
    expect(new Set(reportOf(dir, 'customers').map((row) => row.outcome))).toEqual(new Set(['unknown']));
    expect(result.code).toBe(1);
  });
});

describe('JSON labelled text/html', () => {
  it('customer create: the platform answered 200 with its JSON, so the customers are created, exit 0', async () => {
    routes['POST /v1/customer'] = (_request, body, response) => {
      const sent = JSON.parse(body) as { document: string; email: string };
      response
        .writeHead(200, { 'content-type': 'text/html;charset=UTF-8' })
        .end(JSON.stringify({ id: 7777, document: sent.document, email: sent.email, active: true }));
    };
    const dir = freshWorkDir();
    copyFileSync(join(seedDirectory, 'customers.csv'), join(dir, 'customers.csv'));
    const result = await run(['customer', 'create', 'customers.csv', '--concurrency', '1'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('customer create: 25 created;');
    expect(new Set(reportOf(dir, 'customers').map((row) => `${row.outcome} ${row.status} ${row.id}`))).toEqual(
      new Set(['created 200 7777']),
    );
  });

  it('sellers list: listed', async () => {
    routes['GET /sellerModule/listSellers'] = answering(JSON.stringify(sellers), {
      'content-type': 'text/html; charset=utf-8',
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stderr).toBe(onePageNote);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject(sellers);
  });

  it('a page labelled text/html that is not JSON is still a captive portal, exit 69', async () => {
    routes['GET /sellerModule/listSellers'] = answering('Please log in to the guest network.', {
      'content-type': 'text/html',
    });
    const result = await run(['sellers', 'list', '-o', 'json']);
    expect(result.stderr).toContain('answered HTTP 200 with an HTML page instead of the platform');
    expect(result.code).toBe(69);
  });
});
