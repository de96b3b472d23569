/**
 * A write answered by a redirect (301, 302, 303, 307, 308): never followed (the body and the token would go to an
 * address the user did not configure), and never `not sent`, since the request went out whole before the answer came
 * and a 3xx does not say it was not applied (a 303 says it was). A bulk run stops at the first, exit 69, its records
 * `unknown` with a row naming the status and the Location, and in the errors file where unknown records go there;
 * a read answered 3xx sent nothing and fails with one line. Nothing reaches the Location, on the same host or
 * another (a user test, docs/networks.md#redirects).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { twoCustomerChangeFiles, twoCustomersFile } from '../../support/customers.js';
import { readErrorsCsv, readReport } from '../../support/run-files.js';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { scriptedWorkspace } from '../../support/scripted-workspace.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
/** Another origin (another port) a Location may point to: it must never be asked anything. */
const elsewhere = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

/** A route answering `status` with `location` (none when undefined). */
const redirect =
  (status: number, location?: string): RouteHandler =>
  (_request, _body, response) =>
    response.writeHead(status, location === undefined ? {} : { location }).end();

/** The workspace of one test: `files` written in a fresh folder, and a runner there with one config folder. */
const workspace = (files?: Record<string, string>) => scriptedWorkspace(platform, files);

/** The error line a stopped run ends with (before its closing line). */
function stopLine(stderr: string): string {
  return stderr.split('\n').find((line) => line.startsWith('error: ')) ?? '';
}

/** What a redirect's line says, to a Location shown as `shown` (none: `a redirect, not followed`). */
function redirectWords(shown?: string): string {
  return `(a redirect${shown === undefined ? '' : ` to ${shown}`}, not followed: the token goes to the base URL only; if the platform moved (http to https, another host), set the base URL there)`;
}

/** The end of a write's line: a 303 says it was handled, any other 3xx may come after it was. */
function appliedWords(status: number): string {
  return status === 303
    ? 'the request was sent, and a 303 (see other) says it was handled, its result elsewhere.'
    : 'the request was sent, and may have been applied before the redirect.';
}

const customers = twoCustomersFile;

const statuses = [301, 302, 303, 307, 308];

describe('customer create: a create answered by a redirect to another host', () => {
  it.each(statuses)(
    'HTTP %i: unknown with a row naming the status and the Location, the next not sent, exit 69; nothing sent there',
    async (status) => {
      const location = `${elsewhere.url}/v1/customer`;
      routes['POST /v1/customer'] = redirect(status, location);
      const { dir, run } = workspace({ 'c.csv': customers });
      const result = await run(['customer', 'create', 'c.csv', '--concurrency', '1', '--report', 'r.csv']);
      expect(result.code).toBe(69);
      const line = `POST ${platform.url}/v1/customer answered HTTP ${status} ${redirectWords(location)}: ${appliedWords(status)}`;
      expect(readReport(join(dir, 'r.csv'))).toEqual([
        expect.objectContaining({ line: '2', outcome: 'unknown', status: String(status), message: line }),
      ]);
      expect(result.stderr).toContain('\ncustomer create: 1 unknown, 1 not sent; 1 request,');
      expect(stopLine(result.stderr)).toMatch(
        new RegExp(
          `^error: ${escaped(line)} Stopped; once that is fixed, run: .*b2bctl customer create c\\.csv .*--resume r\\.csv$`,
        ),
      );
      expect(result.closingLine).toMatch(/: 1 unknown, 1 not sent; exit 69$/);
      expect(received).toEqual(['POST /v1/customer']);
      expect(elsewhere.received).toEqual([]);
    },
  );

  it('the resume asks about the unknown customer before it creates it (found: not created twice), then sends the other', async () => {
    routes['POST /v1/customer'] = redirect(302, '/login');
    const { dir, run } = workspace({ 'c.csv': customers });
    expect((await run(['customer', 'create', 'c.csv', '--concurrency', '1', '--report', 'r.csv'])).code).toBe(69);
    // A create answered by a redirect is no record to feed back (it would be refused as registered): the resume asks.
    expect(existsSync(join(dir, 'c.errors.csv'))).toBe(false);

    received.length = 0;
    // The platform stored the first customer before its redirect: the question finds it, with its e-mail.
    const stored = { id: 7, document: '11144477735', email: 'a@x.com.br', active: true };
    routes['PUT /v1/customer/*'] = (_request, _body, response) => answerJson(response, 200, stored);
    routes['POST /v1/customer'] = (_request, _body, response) => answerJson(response, 201, { id: 8 });
    const resumed = await run(['customer', 'create', 'c.csv', '--resume', 'r.csv']);
    expect(resumed.code).toBe(0);
    expect(received).toEqual([expect.stringMatching(/^PUT \/v1\/customer\//), 'POST /v1/customer']);
    expect(
      readReport(join(dir, 'r.csv'))
        .filter((row) => row.outcome === 'created')
        .map((row) => row.line)
        .toSorted(),
    ).toEqual(['2', '3']);
  });
});

describe('customer update and customer status from a file: an update answered by a redirect', () => {
  it.each(twoCustomerChangeFiles)(
    'customer %s: unknown with its row and in the errors file, the next not sent, exit 69',
    async (verb, file, route) => {
      routes[route] = redirect(308, 'https://api.example.com.br/v1/customer');
      const { dir, run } = workspace({ 'u.csv': file });
      const result = await run([
        'customer',
        verb,
        'u.csv',
        '--concurrency',
        '1',
        '--report',
        'r.csv',
        '--errors',
        'e.csv',
      ]);
      expect(result.code).toBe(69);
      const rows = readReport(join(dir, 'r.csv'));
      expect(rows).toEqual([expect.objectContaining({ line: '2', outcome: 'unknown', status: '308' })]);
      expect(rows[0]?.message).toMatch(
        new RegExp(
          `^PUT ${escaped(platform.url)}/v1/customer/\\S+ answered HTTP 308 ${escaped(redirectWords('https://api.example.com.br/v1/customer'))}: ${escaped(appliedWords(308))}$`,
        ),
      );
      // In the errors file with the same one line, to feed back once the base URL is right.
      const errors = readErrorsCsv(join(dir, 'e.csv'));
      expect(errors.rows).toEqual([[...(file.split('\n')[1]?.split(',') ?? []), '2', rows[0]?.message]]);
      expect(result.stderr).toContain(`\ncustomer ${verb}: 1 unknown, 1 not sent; 1 request,`);
      expect(received).toHaveLength(1);
    },
  );

  it("the empty update that reads a customer's stored address, redirected: nothing written, no row, not sent", async () => {
    const asked: string[] = [];
    routes['PUT /v1/customer/*'] = (request, body, response) => {
      asked.push(body);
      redirect(302, '/login')(request, body, response);
    };
    const { dir, run } = workspace({
      'u.csv': 'document,customerRegistrationAddress.complement\n111.444.777-35,Sala 2\n',
    });
    const result = await run(['customer', 'update', 'u.csv', '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv'))).toEqual([]);
    expect(result.closingLine).toMatch(/: 1 not sent; exit 69$/);
    expect(stopLine(result.stderr)).toContain(`answered HTTP 302 ${redirectWords('/login')}. Stopped;`);
    expect(asked).toEqual(['{}']);
  });
});

describe('stock push: a batch answered by a redirect', () => {
  const stock = ['sku;quantity', 'A-1;1', 'A-2;2', 'A-3;3', ''].join('\n');

  it.each([
    [303, undefined, undefined],
    [
      301,
      'https://u:pass@api.example.com.br/v1/stock/batch?sig=s3cr3t&page#frag',
      'https://[redacted]@api.example.com.br/v1/stock/batch?sig=[redacted]&page',
    ],
  ])(
    'HTTP %i (Location %s): the batch unknown, in the errors file, the Location without its secrets; exit 69',
    async (status, location, shown) => {
      routes['PUT /v1/stock/batch'] = redirect(status, location);
      const { dir, run } = workspace({ 'stock.csv': stock });
      const args = ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '2', '--concurrency', '1'];
      const result = await run([...args, '--report', 'r.csv', '--errors', 'e.csv']);
      expect(result.code).toBe(69);
      const message = `PUT ${platform.url}/v1/stock/batch answered HTTP ${status} ${redirectWords(shown)}: ${appliedWords(status)}`;
      expect(readReport(join(dir, 'r.csv')).map((row) => [row.key, row.outcome, row.status, row.message])).toEqual([
        ['A-1', 'unknown', String(status), message],
        ['A-2', 'unknown', String(status), message],
      ]);
      expect(readErrorsCsv(join(dir, 'e.csv'), ';').rows.map((row) => row.at(-1))).toEqual([message, message]);
      expect(result.stderr).not.toMatch(/s3cr3t|pass@/);
      expect(result.closingLine).toMatch(/: 2 unknown, 1 not sent; exit 69$/);
      expect(received).toEqual(['PUT /v1/stock/batch']);
    },
  );
});

describe('a run stopped by a redirect to another origin: the platform moved', () => {
  const stock = ['sku;quantity', 'A-1;1', 'A-2;2', ''].join('\n');

  it('its resume sends to the base URL the redirect named (the unknown item again, then the rest), and to no other', async () => {
    routes['PUT /v1/stock/batch'] = redirect(308, `${elsewhere.url}/v1/stock/batch`);
    elsewhere.routes['PUT /v1/stock/batch'] = (_request, body, response) =>
      answerJson(response, 200, {
        results: (JSON.parse(body) as { items: { sku: string }[] }).items.map(({ sku }) => ({
          sku,
          status: 'APPLIED',
        })),
      });
    const { dir, run } = workspace({ 'stock.csv': stock });
    const args = ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '1', '--concurrency', '1'];
    expect((await run([...args, '--report', 'r.csv'])).code).toBe(69);
    expect(elsewhere.received).toEqual([]);

    // Another base URL than the one the platform named is still another store: refused, nothing sent.
    const refused = await run(['stock', 'push', 'stock.csv', '--resume', 'r.csv', '--base-url', 'http://127.0.0.1:9']);
    expect(refused.code).toBe(2);
    expect(stopLine(refused.stderr)).toContain(`it was written for ${platform.url}, this run would send to`);

    const resumed = await run(['stock', 'push', 'stock.csv', '--resume', 'r.csv', '--base-url', elsewhere.url]);
    expect(resumed.code).toBe(0);
    expect(elsewhere.received).toEqual(['PUT /v1/stock/batch', 'PUT /v1/stock/batch']);
    expect(received).toEqual(['PUT /v1/stock/batch']);
    expect(readReport(join(dir, 'r.csv')).map((row) => `${row.key} ${row.outcome}`)).toEqual([
      'A-1 applied',
      'A-2 applied',
    ]);
    // Its record now names where the platform is: a later resume line carries that base URL.
    expect(resumed.stderr).not.toContain(`--base-url ${platform.url}`);
  });
});

describe('orders update: a move answered by a redirect', () => {
  const moves = ['order;action;erpNumber', '101;ready;ERP-1', '102;ready;ERP-2', ''].join('\n');

  it('the move is unknown with its row and in the errors file, the next not sent, exit 69', async () => {
    routes['PUT /v1/orders/*'] = redirect(307, `${elsewhere.url}/v1/orders/101/status`);
    const { dir, run } = workspace({ 'moves.csv': moves });
    const args = ['orders', 'update', 'moves.csv', '--no-status-check', '--concurrency', '1'];
    const result = await run([...args, '--report', 'r.csv', '--errors', 'e.csv']);
    expect(result.code).toBe(69);
    const message = `PUT ${platform.url}/v1/orders/101/status answered HTTP 307 ${redirectWords(`${elsewhere.url}/v1/orders/101/status`)}: ${appliedWords(307)}`;
    expect(readReport(join(dir, 'r.csv'))).toEqual([
      expect.objectContaining({ line: '2', outcome: 'unknown', status: '307', message }),
    ]);
    expect(readErrorsCsv(join(dir, 'e.csv'), ';').rows.map((row) => row.at(-1))).toEqual([message]);
    expect(result.closingLine).toMatch(/: 1 unknown, 1 not sent; exit 69$/);
    expect(received).toEqual(['PUT /v1/orders/101/status']);
    expect(elsewhere.received).toEqual([]);
  });

  it("the order's status read answered by a redirect: no move was sent, so no row, not sent, exit 69", async () => {
    routes['GET /v1/orders/*'] = redirect(302, '/login');
    const { dir, run } = workspace({ 'moves.csv': moves });
    const result = await run(['orders', 'update', 'moves.csv', '--concurrency', '1', '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv'))).toEqual([]);
    expect(result.closingLine).toMatch(/: 2 not sent; exit 69$/);
    expect(received.filter((key) => key.startsWith('PUT '))).toEqual([]);
  });

  it('orders ship ORDER: one line saying the move was sent and may have been applied, exit 69', async () => {
    routes['PUT /v1/orders/*'] = redirect(302);
    const { run } = workspace();
    const result = await run(['orders', 'ready', '101', '--erp-number', 'E-1', '--no-status-check']);
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      `error: PUT ${platform.url}/v1/orders/101/status answered HTTP 302 ${redirectWords()}: ${appliedWords(302)}\n`,
    );
    expect(received).toEqual(['PUT /v1/orders/101/status']);
  });

  it('orders ready ORDER -o json: the outcome object says unknown, with the status and the same words', async () => {
    routes['PUT /v1/orders/*'] = redirect(302);
    const { run } = workspace();
    const result = await run(['orders', 'ready', '101', '--erp-number', 'E-1', '--no-status-check', '-o', 'json']);
    expect(result.code).toBe(69);
    const message = `PUT ${platform.url}/v1/orders/101/status answered HTTP 302 ${redirectWords()}: ${appliedWords(302)}`;
    expect(JSON.parse(result.stdout)).toEqual({
      order: '101',
      action: 'ready',
      outcome: 'unknown',
      status: 302,
      message,
    });
    expect(result.stderr).toBe(`error: ${message}\n`);
  });
});

describe('reads and login answered by a redirect: not followed, one line naming the Location', () => {
  it.each(statuses)(
    'HTTP %i: sellers list and orders poll fail, exit 69, nothing asked of the Location',
    async (status) => {
      const location = `${elsewhere.url}/moved`;
      routes['GET /sellerModule/listSellers'] = redirect(status, location);
      routes['GET /v1/orders'] = redirect(status, location);
      const { run } = workspace();
      const sellers = await run(['sellers', 'list', '-o', 'json']);
      expect(sellers.code).toBe(69);
      expect(sellers.stdout).toBe('');
      expect(sellers.stderr).toBe(
        `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP ${status} ${redirectWords(location)}.\n`,
      );
      const poll = await run(['orders', 'poll', '--since', '1h', '-o', 'ndjson']);
      expect(poll.code).toBe(69);
      expect(poll.stderr).toMatch(new RegExp(`answered HTTP ${status} ${escaped(redirectWords(location))}\\.\\n$`));
      expect(elsewhere.received).toEqual([]);
    },
  );

  it.each([301, 308])(
    'HTTP %i to another path on the same host: the route moved, and the line names the paths.* settings, not the base URL',
    async (status) => {
      routes['GET /sellerModule/listSellers'] = redirect(status, '/v2/sellerModule/listSellers');
      const { run } = workspace();
      const sellers = await run(['sellers', 'list', '-o', 'json']);
      expect(sellers.code).toBe(69);
      expect(sellers.stderr).toBe(
        `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP ${status} (a redirect to /v2/sellerModule/listSellers, not followed: the route moved on this host; if every route moved under /v2, add it to the base URL; else set that route's paths.* setting to the path it names (b2bctl config list shows the routes)).\n`,
      );
      const api = await run(['api', '/sellerModule/listSellers']);
      expect(api.code).toBe(1);
      expect(api.stderr).toContain(
        '(a redirect to /v2/sellerModule/listSellers, not followed: the route moved on this host; call the path it names).',
      );
      expect(received.filter((request) => request.includes('/v2/'))).toEqual([]);
    },
  );

  it('HTTP 302 to another path on the same host (a maintenance or login page): the base URL advice stays', async () => {
    routes['GET /sellerModule/listSellers'] = redirect(302, '/maintenance');
    const { run } = workspace();
    const sellers = await run(['sellers', 'list', '-o', 'json']);
    expect(sellers.stderr).toBe(
      `error: GET ${platform.url}/sellerModule/listSellers?limit=20 answered HTTP 302 ${redirectWords('/maintenance')}.\n`,
    );
  });

  it.each(statuses)('HTTP %i: login fails, exit 69, the password sent to the base URL only', async (status) => {
    const bodies: string[] = [];
    routes['POST /v1/auth/token'] = (request, body, response) => {
      bodies.push(body);
      redirect(status, `${elsewhere.url}/v1/auth/token`)(request, body, response);
    };
    const dir = freshWorkDir();
    const result = await runCommandLine(['login', '--username', 'erp@x.com.br', '--password-stdin'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: platform.url },
      cwd: dir,
      stdin: 'some-password\n',
    });
    expect(result.code).toBe(69);
    expect(result.stderr).toBe(
      `error: POST ${platform.url}/v1/auth/token answered HTTP ${status} ${redirectWords(`${elsewhere.url}/v1/auth/token`)}.\n`,
    );
    expect(bodies).toHaveLength(1);
    expect(elsewhere.received).toEqual([]);
  });
});

describe('b2bctl api answered by a redirect', () => {
  it('POST: exit 1, the line naming the Location and saying to check before sending again; nothing sent there', async () => {
    routes['POST /v1/customer'] = redirect(303, `${elsewhere.url}/v1/customer/9`);
    const { run } = workspace();
    const result = await run(['api', '-X', 'POST', '/v1/customer', '-f', 'name=x']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(stopLine(result.stderr)).toBe(
      `error: POST ${platform.url}/v1/customer answered HTTP 303 ${redirectWords(`${elsewhere.url}/v1/customer/9`)}, which may come after the platform applied the request: check whether it did before sending it again.`,
    );
    expect(received).toEqual(['POST /v1/customer']);
    expect(elsewhere.received).toEqual([]);
  });

  it('GET: exit 1, the line naming the Location; nothing sent there', async () => {
    routes['GET /v1/orders'] = redirect(301, `${elsewhere.url}/v1/orders`);
    const { run } = workspace();
    const result = await run(['api', '/v1/orders']);
    expect(result.code).toBe(1);
    expect(stopLine(result.stderr)).toBe(
      `error: GET ${platform.url}/v1/orders answered HTTP 301 ${redirectWords(`${elsewhere.url}/v1/orders`)}.`,
    );
    expect(elsewhere.received).toEqual([]);
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
