/**
 * A bulk run's write answered 200 with an HTML page after the platform stored it: a WAF or edge proxy rewriting the
 * platform's answer (a user test). The run stops at it, exit 69, with the resume command, as at any
 * answer that is not the platform's; but the records whose requests went out are `unknown`, with a report row, never
 * `not sent`: the resume asks about a customer before creating it again, and sends a stock item or a move again.
 * Records no request carried stay `not sent`, with no row.
 */
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { twoCustomerChangeFiles, twoCustomersFile } from '../../support/customers.js';
import { readReport } from '../../support/run-files.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { scriptedWorkspace } from '../../support/scripted-workspace.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
const { routes, received } = platform;
afterAll(removeTemporaryFolders);

/** What the edge proxy puts in place of the platform's JSON. */
const edgePage = '<html><body>OK</body></html>';

function answerPage(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/html' }).end(edgePage);
}

/** The workspace of one test: `files` written in a fresh folder, and a runner there with one config folder. */
const workspace = (files: Record<string, string>) => scriptedWorkspace(platform, files);

/** The error line a stopped run ends with (before its closing line): the page named, then the resume command. */
function stopLine(stderr: string): string {
  return stderr.split('\n').find((line) => line.startsWith('error: ')) ?? '';
}

const unknownMessage = expect.stringMatching(
  /answered HTTP 200 with an HTML page, not the platform's answer: the request was sent, and may have been applied/,
);

const customers = twoCustomersFile;

/** A document as its digits, as written in a path or a body. */
function digits(text: string): string {
  return decodeURIComponent(text).replace(/\D/g, '');
}

/** The SKUs of a stock batch's body, in order. */
function skusOf(body: string): string[] {
  return (JSON.parse(body) as { items: { sku: string }[] }).items.map((item) => item.sku);
}

/**
 * A customer platform that stores what it is sent, then answers as `answer.with` says (changed by the test); the
 * empty PUT asks about a customer.
 */
function customerPlatform(answer: { with: (response: ServerResponse, stored: object) => void }): Map<string, object> {
  const stored = new Map<string, object>();
  routes['POST /v1/customer'] = (_request, body, response) => {
    const sent = JSON.parse(body) as { document: string; username: string };
    const key = digits(sent.document);
    if (stored.has(key)) return answerJson(response, 400, { message: 'Document already registered' });
    const customer = { id: stored.size + 1, document: sent.document, email: sent.username, active: true };
    stored.set(key, customer);
    answer.with(response, customer);
  };
  routes['PUT /v1/customer/*'] = (request, _body, response) => {
    const found = stored.get(digits(request.url?.split('/').at(-1) ?? ''));
    if (found) answerJson(response, 200, found);
    else answerJson(response, 404, { message: 'No customer' });
  };
  return stored;
}

describe('customer create: a create answered by an HTML page after the platform stored it', () => {
  it('is unknown with its row, the record never sent stays not sent; exit 69 and the resume asks before it creates', async () => {
    const answer = {
      with: (response: ServerResponse, _customer: object) => answerPage(response),
    };
    const stored = customerPlatform(answer);
    const { dir, run } = workspace({ 'c.csv': customers });
    const result = await run(['customer', 'create', 'c.csv', '--concurrency', '1', '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv'))).toEqual([
      expect.objectContaining({ line: '2', outcome: 'unknown', status: '200', message: unknownMessage }),
    ]);
    expect(result.stderr).toContain('\ncustomer create: 1 unknown, 1 not sent; 1 request,');
    expect(stopLine(result.stderr)).toMatch(
      /^error: POST \S+\/v1\/customer answered HTTP 200 with an HTML page instead of the platform's JSON: .* Stopped; once that is fixed, run: .*b2bctl customer create c\.csv .*--resume r\.csv$/,
    );
    expect(result.closingLine).toMatch(/: 1 unknown, 1 not sent; exit 69$/);
    // The run stopped at the page: the second customer was never sent.
    expect(received).toEqual(['POST /v1/customer']);
    expect(stored.size).toBe(1);

    // The platform answers again: the unknown customer is asked about (found, so not created twice), the other sent.
    received.length = 0;
    answer.with = (response, customer) => answerJson(response, 201, customer);
    const resumed = await run(['customer', 'create', 'c.csv', '--resume', 'r.csv']);
    expect(resumed.code).toBe(0);
    expect(received).toEqual([expect.stringMatching(/^PUT \/v1\/customer\//), 'POST /v1/customer']);
    const rows = readReport(join(dir, 'r.csv'));
    // The row recorded the page's 200: the earlier run had an answer, in words that did not tell.
    expect(rows.find((row) => row.line === '2')).toMatchObject({
      outcome: 'created',
      message:
        "already registered with this e-mail: the earlier run's create made it, though it was answered HTTP 200 in words that did not tell",
    });
    expect(rows.find((row) => row.line === '3')).toMatchObject({ outcome: 'created' });
  });

  it('every create in flight when the page came is unknown; with none left, the run still stops with its resume, exit 69', async () => {
    // Both creates reach the platform before either is answered, as with the run's concurrency on a real network.
    const waiting: ServerResponse[] = [];
    customerPlatform({
      with: (response) => {
        waiting.push(response);
        if (waiting.length === 2) for (const held of waiting) answerPage(held);
      },
    });
    const { dir, run } = workspace({ 'c.csv': customers });
    const result = await run(['customer', 'create', 'c.csv', '--concurrency', '2', '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv')).map((row) => `${row.line} ${row.outcome}`)).toEqual(
      expect.arrayContaining(['2 unknown', '3 unknown']),
    );
    expect(result.stderr).toContain('\ncustomer create: 2 unknown; 2 requests,');
    expect(stopLine(result.stderr)).toMatch(/ Stopped; once that is fixed, run: .*--resume r\.csv$/);
    expect(result.closingLine).toMatch(/: 2 unknown; exit 69$/);
  });
});

describe('customer update and customer status from a file: an update answered by an HTML page', () => {
  it.each(twoCustomerChangeFiles)(
    'customer %s: unknown with its row, the next not sent, exit 69; the resume sends both',
    async (verb, file, route) => {
      routes[route] = (_request, _body, response) => answerPage(response);
      const { dir, run } = workspace({ 'u.csv': file });
      const result = await run(['customer', verb, 'u.csv', '--concurrency', '1', '--report', 'r.csv']);
      expect(result.code).toBe(69);
      expect(readReport(join(dir, 'r.csv'))).toEqual([
        expect.objectContaining({ line: '2', outcome: 'unknown', status: '200', message: unknownMessage }),
      ]);
      expect(result.stderr).toContain(`\ncustomer ${verb}: 1 unknown, 1 not sent; 1 request,`);
      expect(stopLine(result.stderr)).toMatch(
        new RegExp(` Stopped; once that is fixed, run: .*b2bctl customer ${verb} u\\.csv .*--resume r\\.csv$`),
      );
      expect(received).toHaveLength(1);

      // An update may be sent twice: the resume sends the unknown one again as it is, then the other.
      received.length = 0;
      routes[route] = (_request, _body, response) => answerJson(response, 200, {});
      const resumed = await run(['customer', verb, 'u.csv', '--resume', 'r.csv', '--concurrency', '1']);
      expect(resumed.code).toBe(0);
      expect(received).toHaveLength(2);
      expect(
        readReport(join(dir, 'r.csv'))
          .map((row) => `${row.line} ${row.outcome}`)
          .toSorted(),
      ).toEqual(['2 updated', '3 updated']);
    },
  );
});

describe('customer update: the empty update that reads the stored address answered by an HTML page', () => {
  it('changed nothing and the update was not sent: no row, not sent, exit 69', async () => {
    const asked: string[] = [];
    routes['PUT /v1/customer/*'] = (_request, body, response) => {
      asked.push(body);
      if (body === '{}') answerPage(response);
      else answerJson(response, 200, {});
    };
    const { dir, run } = workspace({
      'u.csv': 'document,customerRegistrationAddress.complement\n111.444.777-35,Sala 2\n',
    });
    const result = await run(['customer', 'update', 'u.csv', '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv'))).toEqual([]);
    expect(result.closingLine).toMatch(/: 1 not sent; exit 69$/);
    expect(stopLine(result.stderr)).toMatch(/ Stopped; once that is fixed, run: .*--resume r\.csv$/);
    // Only the question went out: the update itself was never sent.
    expect(asked).toEqual(['{}']);
  });
});

describe('stock push: a batch answered by an HTML page', () => {
  const stock = ['sku;quantity', 'A-1;1', 'A-2;2', 'A-3;3', 'A-4;4', 'A-5;5', ''].join('\n');

  it("makes the batch's items unknown, the batches never sent not sent, exit 69; the resume sends every one", async () => {
    const sent: string[][] = [];
    routes['PUT /v1/stock/batch'] = (_request, body, response) => {
      sent.push(skusOf(body));
      answerPage(response);
    };
    const { dir, run } = workspace({ 'stock.csv': stock });
    const args = ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '2', '--concurrency', '1'];
    const result = await run([...args, '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv')).map((row) => `${row.key} ${row.outcome} ${row.status}`)).toEqual([
      'A-1 unknown 200',
      'A-2 unknown 200',
    ]);
    expect(readReport(join(dir, 'r.csv'))[0]?.message).toEqual(unknownMessage);
    expect(result.stderr).toContain('\nstock push: 2 unknown, 3 not sent; 1 request,');
    expect(stopLine(result.stderr)).toMatch(
      / Stopped; once that is fixed, run: .*b2bctl stock push stock\.csv .*--resume r\.csv$/,
    );
    expect(sent).toEqual([['A-1', 'A-2']]);

    // Stock quantities are absolute: the resume sends the unknown items again, and the rest.
    sent.length = 0;
    routes['PUT /v1/stock/batch'] = (_request, body, response) => {
      const skus = skusOf(body);
      sent.push(skus);
      answerJson(response, 200, { results: skus.map((sku) => ({ sku, status: 'APPLIED' })) });
    };
    const resumed = await run(['stock', 'push', 'stock.csv', '--resume', 'r.csv']);
    expect(resumed.code).toBe(0);
    expect(sent.flat().toSorted()).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'A-5']);
    expect(new Set(readReport(join(dir, 'r.csv')).map((row) => row.outcome))).toEqual(new Set(['applied']));
  });
});

describe('a run stopped by an HTML page starts nothing more', () => {
  it('stock push --rate: the batches waiting for their turn are not sent after it, and stay not sent', async () => {
    routes['PUT /v1/stock/batch'] = (_request, _body, response) => answerPage(response);
    const { dir, run } = workspace({ 'stock.csv': ['sku;quantity', 'A-1;1', 'A-2;2', 'A-3;3', ''].join('\n') });
    const args = ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '1', '--concurrency', '3'];
    const result = await run([...args, '--rate', '1', '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(received).toEqual(['PUT /v1/stock/batch']);
    expect(readReport(join(dir, 'r.csv')).map((row) => `${row.key} ${row.outcome}`)).toEqual(['A-1 unknown']);
    expect(result.closingLine).toMatch(/: 1 unknown, 2 not sent; exit 69$/);
  });
});

describe('orders update: a move answered by an HTML page', () => {
  const moves = ['order;action;erpNumber', '101;ready;ERP-1', '102;ready;ERP-2', ''].join('\n');

  it('is unknown with its row, the next move not sent, exit 69; the resume reads the order before sending it again', async () => {
    routes['PUT /v1/orders/*'] = (_request, _body, response) => answerPage(response);
    const { dir, run } = workspace({ 'moves.csv': moves });
    const args = ['orders', 'update', 'moves.csv', '--no-status-check', '--concurrency', '1'];
    const result = await run([...args, '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv'))).toEqual([
      expect.objectContaining({ line: '2', outcome: 'unknown', status: '200', message: unknownMessage }),
    ]);
    expect(result.stderr).toContain('\norders update: 1 unknown, 1 not sent; 1 request,');
    expect(stopLine(result.stderr)).toMatch(/ Stopped; once that is fixed, run: .*--resume r\.csv$/);
    expect(received).toEqual(['PUT /v1/orders/101/status']);

    // The order shows the move taken: the resume reads it and does not send it again; the other move goes.
    received.length = 0;
    routes['GET /v1/orders/*'] = (request, _body, response) => {
      const id = Number(request.url?.split('/').at(-1));
      answerJson(response, 200, { id, status: id === 101 ? 'READY_TO_SHIP' : 'AWAITING_PAYMENT' });
    };
    routes['PUT /v1/orders/*'] = (_request, _body, response) => answerJson(response, 200, { status: 'READY_TO_SHIP' });
    const resumed = await run(['orders', 'update', 'moves.csv', '--resume', 'r.csv']);
    expect(received[0]).toBe('GET /v1/orders/101');
    expect(received).not.toContain('PUT /v1/orders/101/status');
    expect(received).toContain('PUT /v1/orders/102/status');
    expect(resumed.code).toBe(0);
    expect(
      readReport(join(dir, 'r.csv'))
        .map((row) => `${row.line} ${row.outcome}`)
        .toSorted(),
    ).toEqual(['2 unchanged', '3 applied']);
  });

  it("the order's status read answered by an HTML page: nothing was sent, so no row, not sent, exit 69", async () => {
    routes['GET /v1/orders/*'] = (_request, _body, response) => answerPage(response);
    routes['PUT /v1/orders/*'] = (_request, _body, response) => answerJson(response, 200, {});
    const { dir, run } = workspace({ 'moves.csv': moves });
    const result = await run(['orders', 'update', 'moves.csv', '--concurrency', '1', '--report', 'r.csv']);
    expect(result.code).toBe(69);
    expect(readReport(join(dir, 'r.csv'))).toEqual([]);
    expect(result.closingLine).toMatch(/: 2 not sent; exit 69$/);
    expect(received.filter((key) => key.startsWith('PUT '))).toEqual([]);
  });
});
