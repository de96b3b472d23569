/**
 * The tax callback's server over real HTTP: the worked examples answered through the default shape and through a
 * shape file, credentials compared, an item without a row refused in the answer's error shape, and the table read
 * again when its file changes (a bad new table refused, the old one kept).
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaxAuth } from '../../../src/tax/callback-auth.js';
import { checkTaxRule, TaxTable } from '../../../src/domain/tax/rules.js';
import type { WatchedTaxTable } from '../../../src/tax/watched-table.js';
import { CartScan } from '../../../src/tax/cart-scan.js';
import { startLoopbackTaxServer } from '../../support/tax-server.js';
import { readTaxShape, sandboxTaxShape, type TaxShape } from '../../../src/tax/shape.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { watchedFixtureTable } from '../../support/tax-table.js';
import { workedExample2 } from '../../support/tax-examples.js';

const token = '0123456789abcdef0123456789abcdef';
/** /healthz, which needs no credential, says that a reload was refused and when, never the file's text. */
const refusedOnHealthz =
  'the new table was refused; the log line at that time says why, and the previous table is in use';
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  // The last started closes first: a tax server before the ERP it keeps connections to.
  for (const close of closers.splice(0).toReversed()) await close();
  removeTemporaryFolders();
});

async function serve(
  options: {
    auth?: TaxAuth;
    shape?: TaxShape;
    throughLink?: boolean;
    throughFolderLink?: boolean;
    settleMs?: number;
  } = {},
) {
  const lines: string[] = [];
  const waiters: { pattern: RegExp; times: number; resolve: () => void }[] = [];
  const seen = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
  const log = (line: string) => {
    lines.push(line);
    for (const waiter of waiters.filter((candidate) => seen(candidate.pattern) >= candidate.times)) waiter.resolve();
  };
  const { table, rules, target, map } = await watchedFixtureTable('b2bctl-tax-serve-', log, {
    throughLink: options.throughLink,
    throughFolderLink: options.throughFolderLink,
    settleMs: options.settleMs,
  });
  closers.push(() => table.close());
  const server = await startLoopbackTaxServer(
    {
      shape: options.shape ?? sandboxTaxShape,
      table,
      auth: options.auth ?? { kind: 'bearer', token },
      log: { warn: log },
    },
    closers,
  );
  const post = async (body: unknown, authorization = `Bearer ${token}`) => {
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  /** Resolves when `times` log lines match: the watcher's reload is an event, not a time. */
  const logged = (pattern: RegExp, times = 1) =>
    new Promise<void>((resolve) => {
      if (seen(pattern) >= times) resolve();
      else waiters.push({ pattern, times, resolve });
    });
  return {
    server,
    rules,
    target,
    map,
    post,
    lines,
    logged,
    health: async () => (await fetch(`${server.url}/healthz`)).json(),
  };
}

/** A DIFAL row, SP → RJ, for a final consumer. */
const tableRow = { ncm: '3926', from: 'SP', to: 'RJ', buyer: 'non-taxpayer', icmsRate: '12', ipiRate: '6.5' };

const credential = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;

const example2 = {
  origin: { state: 'SP' },
  destination: { state: 'RJ' },
  customer: { paysIcms: true },
  items: [{ sku: 'A', ncm: '39269090', quantity: 10, unitPrice: 45.9, freight: 12 }],
};

/** The refusal of a buyer's flag that is neither true nor false, quoted as `written`. */
const refusalOf = (written: string) =>
  `customer.paysIcms (whether the buyer pays ICMS) must be true or false, not ${written}`;

/** A cart's JSON text whose items have the SKUs given, each written as it is (`1.50` stays `1.50`). */
const cartWith = (skus: string[]) =>
  `{"origin":{"state":"SP"},"destination":{"state":"RJ"},"customer":{"paysIcms":true},"items":[${skus
    .map((sku) => `{"sku":${sku},"ncm":"39269090","quantity":1,"unitPrice":45.90}`)
    .join(',')}]}`;

/** An item of NCM 3926.90.90 with the SKU and unit price given. */
const item = (sku: unknown, unitPrice: number) => ({ sku, ncm: '39269090', quantity: 1, unitPrice });

/** `"quantity":10,` unless `amounts` gives a quantity of its own: a key twice in one object is refused (a user test). */
const quantityUnlessGiven = (amounts: string) => (amounts.includes('"quantity"') ? '' : '"quantity":10,');

describe('tax serve', () => {
  it('answers example 2 of docs/tax.md to the centavo', async () => {
    const { post } = await serve();
    const answer = await post(example2);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      items: [{ sku: 'A', ...workedExample2 }],
      totals: {
        merchandise: '459.00',
        ipi: '30.62',
        icms: '56.52',
        icmsSt: '97.98',
        difal: '0.00',
        fcp: '0.00',
        added: '128.60',
      },
    });
  });

  it('answers a cart read from its bytes and the same cart parsed with the same bytes, each counted once', async () => {
    const { server, health } = await serve();
    const send = async (text: string, contentType = 'application/json') => {
      const answer = await fetch(`${server.url}/tax`, {
        method: 'POST',
        headers: { 'content-type': contentType, authorization: `Bearer ${token}` },
        body: text,
      });
      return { status: answer.status, text: await answer.text() };
    };
    const plain = JSON.stringify(example2);
    // Which carts the scan read (true) or left to the parse (false): a Latin-1 body is decoded, never scanned.
    const scans = vi.spyOn(CartScan.prototype, 'scan');
    closers.push(() => scans.mockRestore());
    // An escaped key is read by the parse alone (the scan leaves it), to the same cart; so is a declared Latin-1 body.
    const escaped = plain.replace('"customer"', '"nota\\u0020":1,"customer"');
    const scanned = await send(plain);
    expect(scanned.status).toBe(200);
    expect(JSON.parse(scanned.text).items).toEqual([{ sku: 'A', ...workedExample2 }]);
    expect(await send(escaped)).toEqual(scanned);
    expect(await send(plain, 'application/json; charset=iso-8859-1')).toEqual(scanned);
    expect(await health()).toMatchObject({ answered: 3, unreadable: 0, failed: 0 });
    // Broken on its way: refused as not JSON, never answered by the scan.
    expect(await send(plain.slice(0, -1))).toMatchObject({ status: 400 });
    expect(await health()).toMatchObject({ answered: 3, unreadable: 1 });
    expect(scans.mock.results.map((result) => result.value)).toEqual([true, false, false]);
  });

  it('answers through the parse a cart the scan fails on, as if it had declined it', async () => {
    const { post, health } = await serve();
    const scans = vi.spyOn(CartScan.prototype, 'scan').mockImplementation(() => {
      throw new Error('a fault of the scan');
    });
    closers.push(() => scans.mockRestore());
    const answer = await post(example2);
    expect(scans).toHaveBeenCalledTimes(1);
    expect(answer).toMatchObject({ status: 200, body: { items: [{ sku: 'A', ...workedExample2 }] } });
    expect(await health()).toMatchObject({ answered: 1, failed: 0 });
  });

  it('reads another platform’s request through a shape file, and names its answer’s parts', async () => {
    const read = readTaxShape({
      request: {
        items: 'pedido.itens',
        ncm: 'produto.ncm',
        quantity: 'qtd',
        unitPrice: 'valor',
        sku: 'produto.codigo',
        from: 'pedido.ufOrigem',
        to: 'pedido.ufDestino',
        buyerPaysIcms: 'cliente.contribuinte',
        discount: null,
        freight: 'frete',
      },
      answer: { items: 'itens', totals: 'totais' },
    });
    if (!('shape' in read)) throw new Error(read.problems.join('; '));
    const { post } = await serve({ shape: read.shape });
    const answer = await post({
      pedido: {
        ufOrigem: 'sp',
        ufDestino: 'mg',
        itens: [{ produto: { ncm: '8516.60.00', codigo: 'FORNO' }, qtd: 1, valor: '2000.00', frete: 100 }],
      },
      cliente: { contribuinte: false },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.itens).toEqual([
      expect.objectContaining({
        sku: 'FORNO',
        difal: { base: '2366.34', rate: '18', value: '161.34' },
        added: '105.00',
      }),
    ]);
    expect(answer.body.totais).toMatchObject({ difal: '161.34', fcp: '47.33' });
  });

  it('refuses a shape that cannot carry a required value, naming the key', () => {
    expect(readTaxShape({ request: { ncm: null, colour: 'x' }, answer: { items: 'a b' } })).toEqual({
      problems: [
        'request.ncm must be a dot path such as cart.items (it cannot be left out: every answer needs it)',
        'request.colour is not a part of the shape (items, sku, ncm, quantity, unitPrice, discount, freight, from, to, buyerPaysIcms)',
        'answer.items must be a dot path such as cart.items',
      ],
    });
  });

  it('answers 401 without the credential, and compares Basic user and password', async () => {
    const bearer = await serve();
    expect((await bearer.post(example2, 'Bearer wrong')).status).toBe(401);
    expect((await bearer.post(example2, '')).status).toBe(401);
    const basic = await serve({ auth: { kind: 'basic', user: 'plataforma', password: 'segredo-de-16-caracteres' } });
    expect((await basic.post(example2, credential('plataforma:segredo-de-16-caracteres'))).status).toBe(200);
    expect((await basic.post(example2, credential('plataforma:outro'))).status).toBe(401);
    expect((await basic.post(example2, credential('outro:segredo-de-16-caracteres'))).status).toBe(401);
    expect(await basic.health()).toMatchObject({ answered: 1, refused: 2 });
  });

  it('refuses an item without a row in the answer’s error shape, logs the missing key, never answers zero', async () => {
    const { post, lines, health } = await serve();
    const answer = await post({ ...example2, customer: { paysIcms: false } });
    expect(answer).toEqual({
      status: 422,
      body: {
        error: 'no-tax-row',
        message:
          'The tax table has no row for NCM 39269090 (A), SP → RJ, non-taxpayer: add a row for the NCM or a prefix of it; no tax is guessed.',
        missing: ['NCM 39269090 (A)'],
      },
    });
    expect(lines).toContain(`tax callback refused a cart from 127.0.0.1: ${answer.body.message as string}`);
    expect(await health()).toMatchObject({ answered: 0, noRow: 1 });
  });

  // `tax quote` refuses `1.500` (R$ 1,50 or R$ 1.500?); the callback read it, and `1,500`, as 1.5 and answered 200. A
  // JSON number past 15 digits was answered rounded, or refused quoting the value JSON.parse made of it.
  it.each([
    [
      '"unitPrice":"1.500"',
      'item 1: unitPrice "1.500" reads as 1.5 with a decimal point or as 1500 with its thousands grouped: send 1500 for that, or 1.5 for the decimal',
    ],
    [
      '"unitPrice":"1,500"',
      'item 1: unitPrice "1,500" reads as 1.5 with a decimal comma or as 1500 with its thousands grouped: send 1500 for that, or 1.5 for the decimal',
    ],
    // A user test: the advice for the decimal was the very text refused.
    [
      '"unitPrice":"2.125"',
      'item 1: unitPrice "2.125" reads as 2.125 with a decimal point or as 2125 with its thousands grouped: send 2125 for that, or 2.1250 for the decimal',
    ],
    [
      '"unitPrice":"3,333"',
      'item 1: unitPrice "3,333" reads as 3.333 with a decimal comma or as 3333 with its thousands grouped: send 3333 for that, or 3.3330 for the decimal',
    ],
    [
      '"unitPrice":10,"discount":"2.000"',
      'item 1: discount "2.000" reads as 2 with a decimal point or as 2000 with its thousands grouped: send 2000 for that, or 2 for the decimal',
    ],
    [
      '"unitPrice":12345678901234567.89',
      'item 1: unitPrice is a number too large to be read exactly (more than 15 digits); send it as text',
    ],
    // A user test: 1E400 was refused as unitPrice "Infinity", a value never sent; 0.30000000000000004 as "too large".
    [
      '"unitPrice":1E400',
      'item 1: unitPrice is a number too large to be read at all (past 1.8e308, what a JSON number holds)',
    ],
    [
      '"unitPrice":10,"freight":-1e999',
      'item 1: freight is a number too large to be read at all (past 1.8e308, what a JSON number holds)',
    ],
    [
      '"unitPrice":0.30000000000000004',
      'item 1: unitPrice is a number of too many digits to be read exactly (more than 15 significant digits); send it as text',
    ],
    [
      '"unitPrice":10,"freight":1234567890123456',
      'item 1: freight is a number too large to be read exactly (more than 15 digits); send it as text',
    ],
    // The answer carries the SKU back: one that is no text, or a number JSON.parse may have rounded, is refused.
    ['"unitPrice":10,"sku":{"a":1}', 'item 1: sku must be text or a number, not an object'],
    ['"unitPrice":10,"sku":["A"]', 'item 1: sku must be text or a number, not a list'],
    ['"unitPrice":10,"sku":true', 'item 1: sku must be text or a number, not true'],
    [
      '"unitPrice":10,"sku":12345678901234567890',
      'item 1: sku is a number too large to be read exactly (more than 15 digits); send it as text',
    ],
    // A user test: a pt-BR screen's amount was refused without the reason, its thousands separator.
    [
      '"unitPrice":"1.234,56"',
      'item 1: unitPrice "1.234,56" has its thousands grouped (by "."), which an amount does not take: write it 1234.56',
    ],
    [
      '"unitPrice":"1,234.56"',
      'item 1: unitPrice "1,234.56" has its thousands grouped (by ","), which an amount does not take: write it 1234.56',
    ],
    [
      '"unitPrice":"12.345.678,9"',
      'item 1: unitPrice "12.345.678,9" has its thousands grouped (by "."), which an amount does not take: write it 12345678.9',
    ],
    [
      '"unitPrice":10,"quantity":"1e308"',
      'item 1: quantity "1e308" must be a number above 0, written in digits (such as 12 or 1.5)',
    ],
  ])(
    'refuses %s as tax quote would, 400 in the error shape, logged and counted unreadable',
    async (amounts, message) => {
      const { server, lines, health } = await serve();
      const body = `{"origin":{"state":"SP"},"destination":{"state":"RJ"},"customer":{"paysIcms":true},"items":[{"ncm":"39269090",${quantityUnlessGiven(amounts)}${amounts}}]}`;
      const answer = await fetch(`${server.url}/tax`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      expect({ status: answer.status, body: await answer.json() }).toEqual({
        status: 400,
        body: { error: 'bad-request', message },
      });
      expect(lines).toContain(`tax callback refused a cart from 127.0.0.1: ${message}`);
      expect(await health()).toMatchObject({ answered: 0, unreadable: 1 });
    },
  );

  // A user test: a 7-digit NCM was answered with a spreadsheet's advice ("store the column as text") over HTTP.
  it.each([
    [
      4021010,
      'item 1: ncm 4021010 is a number, which keeps no leading zero: send the NCM as text with its leading zero ("04021010")',
    ],
    [
      '4021010',
      'item 1: ncm "4021010" has 7 digits, its leading zero lost: send the NCM as text with its leading zero ("04021010")',
    ],
  ])('refuses the 7-digit NCM %j saying what to send, 400, nothing answered', async (ncm, message) => {
    const { post, lines, health } = await serve();
    const answer = await post({ ...example2, items: [{ sku: 'A', ncm, quantity: 1, unitPrice: 10 }] });
    expect(answer).toEqual({ status: 400, body: { error: 'bad-request', message } });
    expect(lines).toContain(`tax callback refused a cart from 127.0.0.1: ${message}`);
    expect(await health()).toMatchObject({ answered: 0, unreadable: 1 });
  });

  // A user test: " SP " was refused as no state while an NCM's and a SKU's spaces were trimmed: one rule for all.
  it('reads a state with spaces around it as the state, on both paths, as an NCM is read', async () => {
    const { post } = await serve();
    const expected = await post(example2);
    expect(expected.status).toBe(200);
    const padded = { ...example2, origin: { state: ' SP ' }, destination: { state: 'rj\t' } };
    expect(await post(padded)).toEqual(expected);
    // With a NCM of spaces, the cart leaves the one-pass path: the general path trims the states too.
    const general = { ...padded, items: [{ ...example2.items[0], ncm: ' 39269090 ' }] };
    expect(await post(general)).toEqual(expected);
    // Spaces alone are no state.
    expect((await post({ ...example2, origin: { state: '  ' } })).body.message).toBe(
      'origin.state is missing: the state (UF) such as SP',
    );
  });

  // A user test: a SKU sent as a JSON number came back as text ("123"): a typed comparison by SKU found no taxes.
  it('gives each SKU back as the cart sent it: a number a number, text text, on both paths', async () => {
    const { post } = await serve();
    // The one-pass answer (whole SKUs, plain amounts), and the general path (a price of three decimals, a SKU of 1.5).
    const carts: [unknown[], unknown[]][] = [
      [
        [item(123, 1), item('123', 1)],
        [123, '123'],
      ],
      [
        [item(123, 1.005), item(1.5, 1.005), item('123', 1.005)],
        [123, 1.5, '123'],
      ],
    ];
    for (const [items, skus] of carts) {
      const answer = await post({ ...example2, items });
      expect(answer.status).toBe(200);
      expect((answer.body.items as { sku: unknown }[]).map((taxes) => taxes.sku)).toEqual(skus);
    }
  });

  // A user test: a SKU sent as the JSON number 1.50 comes back 1.5, the same number: said once in the log, for a platform
  // that compares SKUs as text.
  it.each([
    ['own', '/tax'],
    ['fastify’s', '/tax?via=fastify'],
  ])(
    'says once in the log that a SKU number written 1.50 is answered 1.5, the same number (%s route)',
    async (_route, path) => {
      const { server, lines } = await serve();
      const send = async (skus: string[]) => {
        const answer = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: cartWith(skus),
        });
        const body = (await answer.json()) as { items?: { sku: unknown }[] };
        return { status: answer.status, skus: body.items?.map((taxes) => taxes.sku) };
      };
      // Numbers written as they come back, text, an amount with a trailing zero, a SKU refused for its digits: no line.
      expect(await send(['123', '1.5', '"1.50"'])).toEqual({ status: 200, skus: [123, 1.5, '1.50'] });
      expect((await send(['12345678901234567.0'])).status).toBe(400);
      const quiet = lines.filter((line) => line.includes('SKU'));
      expect(quiet).toEqual([]);
      expect(await send(['7', '1.50'])).toEqual({ status: 200, skus: [7, 1.5] });
      // A whole number written 1.0, answered on the one-pass path: said no more.
      expect(await send(['1.0', '2.50'])).toEqual({ status: 200, skus: [1, 2.5] });
      expect(lines.filter((line) => line.includes('SKU'))).toEqual([
        'tax callback: a cart\'s item 2 has the SKU 1.50 as a JSON number; the answer gives it back as 1.5, the same number, not the same text. Where the platform compares SKUs as text, send them as text ("1.50"). Said once.',
      ]);
    },
  );

  it('takes the text its refusal of "2.125" advises for the decimal, 2.1250, as a quantity and as a price', async () => {
    const { post } = await serve();
    const answer = await post({
      ...example2,
      items: [{ sku: 'A', ncm: '39269090', quantity: '2.1250', unitPrice: '2.1250' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ items: [{ merchandise: '4.52' }] });
  });

  it('quotes a refused value of 100,000 characters by its start and its length, in the answer and the log', async () => {
    const { server, lines } = await serve();
    const body = `{"origin":{"state":"SP"},"destination":{"state":"RJ"},"customer":{"paysIcms":true},"items":[{"ncm":"39269090","quantity":"${'9'.repeat(100_000)}","unitPrice":10}]}`;
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
    const message = `item 1: quantity "${'9'.repeat(39)}… (100,002 characters) has more digits than a quantity is computed exactly with (at most 15)`;
    expect({ status: answer.status, body: await answer.json() }).toEqual({
      status: 400,
      body: { error: 'bad-request', message },
    });
    expect(lines).toContain(`tax callback refused a cart from 127.0.0.1: ${message}`);
  });

  it('quotes a long refused buyer’s flag by its first 40 characters and its length, in the answer and the log', async () => {
    const { post, lines } = await serve();
    const long = await post({ ...example2, customer: { paysIcms: 'x'.repeat(100_000) } });
    const message = refusalOf(`"${'x'.repeat(39)}… (100,002 characters)`);
    expect(long).toEqual({ status: 400, body: { error: 'bad-request', message } });
    expect(lines).toContain(`tax callback refused a cart from 127.0.0.1: ${message}`);
    // 41 characters with its quotes: shorter whole than cut and counted.
    const whole = `"${'x'.repeat(39)}"`;
    expect((await post({ ...example2, customer: { paysIcms: 'x'.repeat(39) } })).body.message).toBe(refusalOf(whole));
  });

  it('refuses a JSON-number quantity past 15 digits without quoting the value JSON.parse rounded it to', async () => {
    const { server } = await serve();
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{"origin":{"state":"SP"},"destination":{"state":"RJ"},"customer":{"paysIcms":true},"items":[{"ncm":"39269090","quantity":9007199254740993,"unitPrice":1}]}',
    });
    expect({ status: answer.status, body: await answer.json() }).toEqual({
      status: 400,
      body: {
        error: 'bad-request',
        message:
          'item 1: quantity is a number too large to be read exactly (more than 15 digits); a quantity is computed with at most 15',
      },
    });
  });

  it('answers a row that cannot be computed with 500 in the answer’s error shape, logging its place and key', async () => {
    // A row the table's checks would refuse (a destination rate of 100 divides by zero), put in by hand: whatever
    // arithmetic error a row meets, the cart gets the row's place and the log a line, never fastify's bare 500.
    const rows = new TaxTable();
    const rule = checkTaxRule({ ...tableRow, destinationRate: '20' });
    if (!rule.ok) throw new Error('the row is refused');
    rows.add({ ...rule.rule, destinationRate: '100' }, 'regras.csv:7');
    const lines: string[] = [];
    const table = { current: () => rows, tableStatus: () => undefined } as unknown as WatchedTaxTable;
    const server = await startLoopbackTaxServer(
      { table, auth: { kind: 'bearer', token }, log: { warn: (line) => lines.push(line) } },
      closers,
    );
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ ...example2, customer: { paysIcms: false } }),
    });
    const message =
      "regras.csv:7: the tax table's row for NCM 3926, SP → RJ, non-taxpayer cannot be computed for NCM 39269090 (division by zero): correct its rates; no tax is guessed.";
    expect({ status: answer.status, body: await answer.json() }).toEqual({
      status: 500,
      body: { error: 'tax-row-failed', message },
    });
    expect(lines).toEqual([`tax callback failed: ${message}`]);
    expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ answered: 0, refused: 0, failed: 1 });
  });

  it('refuses a request it cannot read with 400 and what is wrong', async () => {
    const { post } = await serve();
    expect(
      await post({ items: [], origin: { state: 'XX' }, destination: { state: 'RJ' }, customer: { paysIcms: true } }),
    ).toMatchObject({ status: 400 });
    expect((await post({ ...example2, customer: { paysIcms: 'talvez' } })).body.message).toBe(
      'customer.paysIcms (whether the buyer pays ICMS) must be true or false, not "talvez"',
    );
    // A user test: a flag left out was answered "… must be true or false, not undefined", a JavaScript word.
    expect((await post({ ...example2, customer: { document: '11.222.333/0001-81' } })).body).toEqual({
      error: 'bad-request',
      message: 'customer.paysIcms is missing: whether the buyer pays ICMS must be true or false',
    });
    expect((await post({ ...example2, items: [{ ncm: '3926', quantity: 1, unitPrice: 1 }] })).body.message).toBe(
      `item 1: ncm "3926" must be the item's 8-digit NCM`,
    );
    expect((await post({ origin: {} })).body.message).toBe('the request has no list of items at "items"');
    // A user test: a cart without its destination state blamed the valid origin too and quoted "" for it.
    for (const destination of [undefined, {}, { state: null }, { state: '' }])
      expect(await post({ ...example2, destination })).toEqual({
        status: 400,
        body: { error: 'bad-request', message: 'destination.state is missing: the state (UF) such as SP' },
      });
    expect((await post({ ...example2, origin: { state: 'XX' } })).body.message).toBe(
      'origin.state must be a state (UF) such as SP, not "XX"',
    );
    expect((await post({ ...example2, origin: { state: 'XX' }, destination: {} })).body.message).toBe(
      'origin.state must be a state (UF) such as SP, not "XX"; destination.state is missing: the state (UF) such as SP',
    );
    // More discount than the line is worth: refused, never negative taxes.
    const overDiscounted = await post({
      ...example2,
      items: [{ ncm: '84713012', quantity: 1, unitPrice: 100, discount: 150 }],
    });
    expect(overDiscounted).toMatchObject({ status: 400 });
    expect(overDiscounted.body.message).toBe(
      `item 1: discount "150" is more than the item's value (quantity × unit price, 100.00)`,
    );
  });

  it('a price that is missing or no amount is refused (400), never read as 0 with taxes of zero', async () => {
    const { post } = await serve();
    for (const price of [undefined, null, true, { amount: 45.9 }, [45.9], ''])
      expect(
        await post({
          ...example2,
          items: [{ sku: 'A', ncm: '39269090', quantity: 10, unitPrice: price, freight: 12 }],
        }),
      ).toMatchObject({ status: 400 });
    // Named otherwise than the shape says (`price`): no unit price, refused.
    const misnamed = await post({ ...example2, items: [{ ncm: '39269090', quantity: 10, price: 45.9 }] });
    expect(misnamed).toMatchObject({ status: 400 });
    expect(misnamed.body.message).toBe(`item 1: unitPrice is required: the item's price per unit`);
    // A freight the shape cannot read (an object) is refused too, not taken as none.
    expect(
      await post({ ...example2, items: [{ ncm: '39269090', quantity: 10, unitPrice: 45.9, freight: { value: 12 } }] }),
    ).toMatchObject({ status: 400 });
    // A free item says so: 0.
    expect(await post({ ...example2, items: [{ ncm: '39269090', quantity: 1, unitPrice: 0 }] })).toMatchObject({
      status: 200,
    });
  });

  it('reads the table again when the file changes, and keeps the old one when the new one is wrong', async () => {
    const { post, rules, logged, health } = await serve();
    const original = readFileSync(rules);
    appendFileSync(rules, Buffer.from('39269090;"SP";"RJ";"non-taxpayer";12;;6.5;;20;2\r\n', 'latin1'));
    await logged(/reloaded: 7 rows/);
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(200);
    writeFileSync(rules, Buffer.concat([original, Buffer.from('84;"SP";"XX";"taxpayer";12;;;;;\r\n', 'latin1')]));
    await logged(
      /impostos\.csv:8: to "XX" must be a state \(UF\) such as RJ[^]*the previous table, 7 rows, is still in use/,
    );
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(200);
    expect(await health()).toMatchObject({ table: { rows: 7, refused: { problem: refusedOnHealthz } } });
  });

  it('never publishes on /healthz a line of a file the table path was pointed at', async () => {
    const { rules, logged, health } = await serve();
    const secret = join(dirname(rules), 'pgpass');
    writeFileSync(secret, 'db.example:5432:*:erp:PgSecretPw9\n', { mode: 0o600 });
    const link = `${rules}.link`;
    symlinkSync(secret, link);
    renameSync(link, rules);
    await logged(/the previous table, 6 rows, is still in use/);
    const page = JSON.stringify(await health());
    expect(page).not.toContain('PgSecretPw9');
    expect(await health()).toMatchObject({ table: { rows: 6, refused: { problem: refusedOnHealthz } } });
  });

  it('reads the table again when its --map alone changes, and keeps the old one when the new map is wrong', async () => {
    const { post, map, logged, lines, health } = await serve();
    const original = readFileSync(map, 'utf8');
    expect((await post(example2)).body).toMatchObject({ totals: { icmsSt: '97.98' } });
    // The MVA column left out: no row computes ICMS-ST from then on.
    writeFileSync(map, JSON.stringify({ ...JSON.parse(original), MVA: null }));
    await logged(/reloaded: 6 rows/);
    expect((await post(example2)).body).toMatchObject({ totals: { icmsSt: '0.00' } });
    const cut = '{"NCM": "ncm",';
    writeFileSync(map, cut);
    const refusal = `${map}: the --map file is not valid JSON (${jsonFault(cut)}).`;
    await logged(/the previous table, 6 rows, is still in use/);
    expect(lines).toContain(`${refusal} (the previous table, 6 rows, is still in use)`);
    expect(await health()).toMatchObject({ table: { rows: 6, refused: { problem: refusedOnHealthz } } });
    expect((await post(example2)).body).toMatchObject({ totals: { icmsSt: '0.00' } });
    writeFileSync(map, original);
    await logged(/reloaded: 6 rows/, 2);
    expect((await post(example2)).body).toMatchObject({ totals: { icmsSt: '97.98' } });
    // The refusal stays on /healthz, with its time, after the later reload (a user test): a monitor polling every
    // minute would otherwise never see it.
    const page = (await health()) as { table: { loadedAt: string; refused: { at: string; problem: string } } };
    expect(page.table.refused.problem).toBe(
      'a new table was refused at that time (the log line then says why); a later one was taken (loadedAt)',
    );
    expect(Date.parse(page.table.refused.at)).toBeLessThanOrEqual(Date.parse(page.table.loadedAt));
    // Refused once, not again at each look until it changed.
    expect(lines.filter((line) => line.includes('is not valid JSON'))).toEqual([
      `${refusal} (the previous table, 6 rows, is still in use)`,
    ]);
  });

  it('a table served through a link is read again when its target is renamed over or written in place', async () => {
    const { post, target, logged } = await serve({ throughLink: true });
    const original = readFileSync(target);
    const row = Buffer.from('39269090;"SP";"RJ";"non-taxpayer";12;;6.5;;20;2\r\n', 'latin1');
    // The ERP exports into its own folder under another name and renames it into place: the link's folder sees nothing.
    writeFileSync(`${target}.new`, Buffer.concat([original, row]));
    renameSync(`${target}.new`, target);
    await logged(/reloaded: 7 rows/);
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(200);
    writeFileSync(target, original);
    await logged(/reloaded: 6 rows/);
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(422);
  });

  it('a link swapped to another table is read, and the new target is the one watched from then on', async () => {
    const { post, rules, target, logged } = await serve({ throughLink: true });
    const original = readFileSync(target);
    const next = join(dirname(target), 'v2.csv');
    writeFileSync(next, original);
    symlinkSync(join('..', 'erp', 'v2.csv'), `${rules}.tmp`);
    renameSync(`${rules}.tmp`, rules);
    await logged(/reloaded: 6 rows/);
    appendFileSync(next, Buffer.from('39269090;"SP";"RJ";"non-taxpayer";12;;6.5;;20;2\r\n', 'latin1'));
    await logged(/reloaded: 7 rows/);
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(200);
  });

  it('a folder link on the way swapped to another folder (a release switch) is read, and watched from then on', async () => {
    const { post, rules, target, logged, health } = await serve({ throughFolderLink: true });
    const releases = dirname(dirname(target));
    const next = join(releases, 'release-2', 'impostos.csv');
    mkdirSync(dirname(next));
    const row = Buffer.from('39269090;"SP";"RJ";"non-taxpayer";12;;6.5;;20;2\r\n', 'latin1');
    writeFileSync(next, Buffer.concat([readFileSync(target), row]));
    // `ln -sfn release-2 tmp && mv -T tmp current`: the path names the new release's file from then on.
    symlinkSync('release-2', join(releases, 'current.tmp'));
    renameSync(join(releases, 'current.tmp'), dirname(rules));
    await logged(/reloaded: 7 rows/);
    expect(await health()).toMatchObject({ table: { rows: 7 } });
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(200);
    writeFileSync(next, readFileSync(target));
    await logged(/reloaded: 6 rows/);
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(422);
  }, 15_000);

  it('a table file being written in place (no line end at its end yet) is not read until it is whole', async () => {
    const { post, rules, logged, health } = await serve();
    // An export paused in the middle of its last row: `...;2` still to come would read as an FCP rate of none.
    appendFileSync(rules, Buffer.from('39269090;"SP";"RJ";"non-taxpayer";12;;6.5;;20;', 'latin1'));
    await logged(/does not end with a line end, so it is probably still being written/);
    expect(await health()).toMatchObject({ table: { rows: 6 } });
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(422);
    appendFileSync(rules, '2\r\n');
    await logged(/reloaded: 7 rows/);
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(200);
  });

  it('a table written in place whole lines at a time, paused after its first rows: held, the old one answering, until the rest comes', async () => {
    // Held far longer than any test runs: only the rest of the file ends the hold.
    const { post, rules, logged, health } = await serve({ settleMs: 3_600_000 });
    const original = readFileSync(rules);
    const head = original.subarray(0, original.indexOf('\n', original.indexOf('\n') + 1) + 1);
    writeFileSync(rules, head);
    await logged(
      /written in place, reads 1 row without 5 rows of the table in use \(the first: NCM \d+, .+\); taken if the file stays as it is for 3600 s/,
    );
    expect(await health()).toMatchObject({ table: { rows: 6 } });
    expect((await post(example2)).body).toMatchObject({ totals: { icmsSt: '97.98' } });
    appendFileSync(rules, original.subarray(head.length));
    await logged(/reloaded: 6 rows\.$/);
    expect((await post(example2)).body).toMatchObject({ totals: { icmsSt: '97.98' } });
  });

  it('a table written in place that lacks rows is taken once the file has stayed as it is, saying how many rows it lacks', async () => {
    const { post, rules, logged, health } = await serve();
    const original = readFileSync(rules);
    const head = original.subarray(0, original.indexOf('\n', original.indexOf('\n') + 1) + 1);
    writeFileSync(rules, head);
    await logged(/reloaded: 1 row, without 5 rows of the table before\./);
    expect(await health()).toMatchObject({ table: { rows: 1 } });
    expect((await post(example2)).status).toBe(422);
  });

  it('a table renamed into place whose last line has no line end is refused, the old one kept, as any cut file', async () => {
    const { post, rules, logged, health } = await serve();
    const next = `${rules}.new`;
    // An FCP rate of 2 where the ERP wrote 20 reads alike: a row cut in its last column is never taken for whole.
    writeFileSync(
      next,
      Buffer.concat([readFileSync(rules), Buffer.from('39269090;"SP";"RJ";"non-taxpayer";12;;6.5;;20;2', 'latin1')]),
    );
    renameSync(next, rules);
    await logged(/the file's last line has no line end, while the lines before it have one/);
    expect(await health()).toMatchObject({ table: { rows: 6, refused: { problem: refusedOnHealthz } } });
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(422);
    appendFileSync(rules, '0\r\n');
    await logged(/reloaded: 7 rows/);
    expect((await post({ ...example2, customer: { paysIcms: false } })).status).toBe(200);
  });
});

/** How a scripted ERP answers: a status and body (after a delay), never, a reset, or a body cut short. */
type ErpScript = { status: number; body: string; delayMs?: number } | 'hang' | 'reset' | 'cut';

/** An ERP on loopback that answers as the test says: a body, after a pause, or never. */
async function scriptedErp(answer: (body: string) => ErpScript) {
  const { createServer } = await import('node:http');
  const seen: string[] = [];
  /** The ERP's side of each request's connection: its client port. */
  const ports: number[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push(text);
      ports.push(request.socket.remotePort ?? 0);
      const scripted = answer(text);
      if (scripted === 'hang') return;
      if (scripted === 'reset') return void request.socket.resetAndDestroy();
      if (scripted === 'cut') {
        // Headers promising 100 bytes, 14 of them, then the connection closed.
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        return void response.write('{"impostos":[', () => request.socket.destroy());
      }
      setTimeout(
        () => response.writeHead(scripted.status, { 'content-type': 'application/json' }).end(scripted.body),
        scripted.delayMs ?? 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  closers.push(() => void server.closeAllConnections());
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/impostos`, seen, ports };
}

/**
 * A server forwarding to `erpUrl`. The budget is one a loaded machine cannot miss unless a test asks for a short one:
 * a test of an ERP that answers is about what it answers, and must not race a timer.
 */
async function serveForwarding(erpUrl: string, withTable: boolean, budgetMs = 30_000) {
  const warnings: string[] = [];
  const table = withTable ? (await watchedFixtureTable('b2bctl-tax-forward-')).table : undefined;
  closers.push(() => table?.close());
  const server = await startLoopbackTaxServer(
    {
      table,
      forward: { url: erpUrl, budgetMs, env: {} },
      auth: { kind: 'none' },
      log: { warn: (line) => warnings.push(line) },
    },
    closers,
  );
  const post = async (cart: unknown = example2) => {
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof cart === 'string' ? cart : JSON.stringify(cart),
    });
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const health = async () => (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, unknown>;
  return { post, warnings, counts: server.counts, url: server.url, health };
}

/** A POST whose headers go at once and whose body follows `pauseMs` later, as from a slow link. */
async function postLate(url: string, body: string, pauseMs: number) {
  const { request } = await import('node:http');
  return new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const sending = request(`${url}/tax`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    sending.on('error', reject);
    sending.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    sending.flushHeaders();
    setTimeout(() => sending.end(body), pauseMs);
  });
}

/** A cart of an NCM the fixture's table has no row for. */
const unknownCart = { ...example2, items: [{ sku: 'Z', ncm: '85176255', quantity: 1, unitPrice: 10 }] };

describe('tax serve --forward-to', () => {
  it('passes the ERP’s answer on as it came, with the platform’s request as it came', async () => {
    const erp = await scriptedErp(() => ({ status: 200, body: '{"impostos":[{"icms":1}]}' }));
    const { post, counts } = await serveForwarding(erp.url, true);
    expect(await post()).toEqual({ status: 200, body: { impostos: [{ icms: 1 }] } });
    expect(JSON.parse(erp.seen[0] as string)).toEqual(example2);
    expect(counts).toMatchObject({ answered: 1, fallbacks: 0 });
  });

  it('passes the platform’s request on byte for byte, as it was written', async () => {
    const erp = await scriptedErp(() => ({ status: 200, body: '{"impostos":[{"icms":1}]}' }));
    const { post } = await serveForwarding(erp.url, true);
    const written = JSON.stringify(example2, null, 2).replace('"SP"', '"S\\u0050"');
    expect(await post(written)).toEqual({ status: 200, body: { impostos: [{ icms: 1 }] } });
    expect(erp.seen).toEqual([written]);
  });

  it.each([
    ['an ERP past its budget', () => ({ status: 200, body: '{}', delayMs: 60_000 }), 'did not answer in 200 ms'],
    ['an ERP that never answers', () => 'hang' as const, 'did not answer in 200 ms'],
    ['an ERP that fails', () => ({ status: 500, body: '{"erro":"banco fora"}' }), 'answered HTTP 500'],
    ['an ERP that answers no JSON', () => ({ status: 200, body: '<html>' }), 'answered a body that is not JSON'],
    // JSON, but no object with a list of items in any shape: the platform would close the cart with it as its taxes.
    [
      'an ERP that answers "ok"',
      () => ({ status: 200, body: '"ok"' }),
      'answered a string, not an object, which cannot be a tax answer',
    ],
    [
      'an ERP that answers a list',
      () => ({ status: 200, body: '[1,2,3]' }),
      'answered a list, not an object, which cannot be a tax answer',
    ],
    ['an ERP that answers null', () => ({ status: 200, body: 'null' }), 'answered null, which cannot be a tax answer'],
    // A break is no slowness: answered at once from the table, and said as a break, not as "did not answer in".
    [
      'an ERP that resets the connection',
      () => 'reset' as const,
      /^closed the connection before its answer ended \((ECONNRESET|UND_ERR_SOCKET)\)$/,
    ],
    [
      'an ERP that closes in the middle of its answer',
      () => 'cut' as const,
      /^closed the connection before its answer ended \((ECONNRESET|UND_ERR_SOCKET)\)$/,
    ],
    [
      'an ERP that answers {}',
      () => ({ status: 201, body: ' {} ' }),
      'answered an empty object, which cannot be a tax answer',
    ],
    // A user test: an ERP that could not compute says so in a 200; passed on, it closed a real order untaxed.
    [
      'an ERP that answers 200 saying it failed',
      () => ({ status: 200, body: '{"success":false,"message":"Erro interno: tabela de impostos indisponivel"}' }),
      'answered that it failed, which cannot be a tax answer: {"success":false,"message":"Erro interno: tabela de impostos indisponivel"}',
    ],
    [
      'an ERP that answers 200 with an error status in an envelope',
      () => ({ status: 200, body: '{"data":{"status":"ERROR","items":[{"sku":"A"}]}}' }),
      'answered that it failed, which cannot be a tax answer: {"data":{"status":"ERROR","items":[{"sku":"A"}]}}',
    ],
    [
      'an ERP that answers no item of a cart of one',
      () => ({ status: 200, body: '{"items":[],"totals":{}}' }),
      'answered the taxes of 0 of the cart\'s 1 items ("items"), which cannot be its tax answer',
    ],
    [
      'an ERP that answers null items for a cart of one',
      () => ({ status: 200, body: '{"items":null,"totals":{}}' }),
      'answered the taxes of 0 of the cart\'s 1 items ("items"), which cannot be its tax answer',
    ],
    // A user test: a gateway's or a framework's fault served with a 200 holds no tax of any item.
    [
      'an ERP that answers totals without a list of items',
      () => ({ status: 200, body: '{"totals":{"icms":"0.00","added":"0.00"}}' }),
      'answered no list of the cart\'s 1 items (none at "items", nor under another name), which cannot be its tax answer: {"totals":{"icms":"0.00","added":"0.00"}}',
    ],
    [
      "a framework's error message served with a 200",
      () => ({ status: 200, body: '{"message":"Internal Server Error"}' }),
      'answered no list of the cart\'s 1 items (none at "items", nor under another name), which cannot be its tax answer: {"message":"Internal Server Error"}',
    ],
    [
      "a gateway's fault served with a 200",
      () => ({
        status: 200,
        body: '{"fault":{"faultstring":"Rate limit quota violation","detail":{"errorcode":"policies.ratelimit.QuotaViolation"}}}',
      }),
      'answered no list of the cart\'s 1 items (none at "items", nor under another name), which cannot be its tax answer: {"fault":{"faultstring":"Rate limit quota violation","detail":{"errorcode":"policies.ratelimit.QuotaViolation"}}}',
    ],
    [
      'an ERP that answers its items as an object',
      () => ({ status: 200, body: '{"items":{"A":{}},"totals":{}}' }),
      'answered "items" as an object, not a list of the cart\'s items, which cannot be its tax answer',
    ],
  ])('answers from the table for %s, logging and counting the fallback', async (_case, script, why) => {
    const erp = await scriptedErp(script);
    // An answer that comes is judged by what it is: a budget a loaded machine cannot miss keeps it from racing.
    const budgetMs = typeof why === 'string' && why.startsWith('did not answer') ? 200 : 30_000;
    const { post, warnings, counts, health } = await serveForwarding(erp.url, true, budgetMs);
    const answer = await post();
    expect(answer.status).toBe(200);
    expect(answer.body.totals).toMatchObject({ icmsSt: '97.98', added: '128.60' });
    const prefix = `tax callback: the ERP at ${erp.url} `;
    const suffix = '; answered from the tax table.';
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.startsWith(prefix) && warnings[0].endsWith(suffix)).toBe(true);
    expect(warnings[0]?.slice(prefix.length, -suffix.length)).toMatch(why);
    expect(counts).toMatchObject({ answered: 1, fallbacks: 1 });
    // A request that ended (answered, refused, broken) holds no place among those open to the ERP; one past its
    // budget still does until it ends.
    expect((await health()).erpOpen).toBe(budgetMs === 200 ? 1 : 0);
  });

  it('passes on an answer that covers every item of the cart, whatever else it holds', async () => {
    const body = '{"items":[{"sku":"A","ipi":30.62}],"totals":{"ipi":30.62},"errors":[],"status":"OK"}';
    const erp = await scriptedErp(() => ({ status: 200, body }));
    const { post, warnings, counts } = await serveForwarding(erp.url, true);
    expect(await post()).toEqual({ status: 200, body: JSON.parse(body) });
    expect(warnings).toEqual([]);
    expect(counts).toMatchObject({ answered: 1, fallbacks: 0 });
  });

  it('passes on an answer whose per-item list sits under another name, in an envelope too', async () => {
    const body = '{"data":{"itens":[{"sku":"A","ipi":30.62}]},"totais":{"ipi":30.62}}';
    const erp = await scriptedErp(() => ({ status: 200, body }));
    const { post, warnings, counts } = await serveForwarding(erp.url, true);
    expect(await post()).toEqual({ status: 200, body: JSON.parse(body) });
    expect(warnings).toEqual([]);
    expect(counts).toMatchObject({ answered: 1, fallbacks: 0 });
  });

  it('answers 503 to an ERP saying it failed without --rules, its answer in the log alone, its credential masked', async () => {
    const erpToken = 'erp-token-0123456789';
    const erp = await scriptedErp(() => ({
      status: 200,
      body: JSON.stringify({ success: false, message: `token Bearer ${erpToken} has expired` }),
    }));
    const warnings: string[] = [];
    const server = await startLoopbackTaxServer(
      {
        forward: { url: erp.url, budgetMs: 30_000, env: {}, authorization: `Bearer ${erpToken}` },
        auth: { kind: 'none' },
        log: { warn: (line) => warnings.push(line) },
      },
      closers,
    );
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(example2),
    });
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      error: 'tax-unavailable',
      message: "The ERP's tax service answered that it failed, which cannot be a tax answer.",
    });
    expect(warnings).toEqual([
      `tax callback: the ERP at ${erp.url} answered that it failed, which cannot be a tax answer: {"success":false,"message":"token Bearer [redacted] has expired"}; answered 503 (no --rules to fall back on).`,
    ]);
    expect(server.counts).toMatchObject({ answered: 0, fallbacks: 1 });
  });

  it('logs no refusal of the table when the ERP answers in time a cart the table has no row for', async () => {
    const erp = await scriptedErp(() => ({ status: 200, body: '{"impostos":[{"sku":"Z","icms":0}]}' }));
    const { post, warnings, counts } = await serveForwarding(erp.url, true);
    expect(await post(unknownCart)).toEqual({ status: 200, body: { impostos: [{ sku: 'Z', icms: 0 }] } });
    expect(warnings).toEqual([]);
    expect(counts).toMatchObject({ answered: 1, noRow: 0, fallbacks: 0 });
  });

  it('refuses from the table, logging both, a cart without a row when the ERP fails', async () => {
    const erp = await scriptedErp(() => ({ status: 500, body: '{}' }));
    const { post, warnings, counts } = await serveForwarding(erp.url, true);
    const answer = await post(unknownCart);
    expect(answer).toMatchObject({ status: 422, body: { error: 'no-tax-row', missing: ['NCM 85176255 (Z)'] } });
    // A user test: the first line said "answered from the tax table" where the platform got a 422.
    expect(warnings).toEqual([
      `tax callback: the ERP at ${erp.url} answered HTTP 500; the tax table, asked instead, answered 422 (no-tax-row).`,
      expect.stringMatching(
        /^tax callback refused a cart from 127\.0\.0\.1: The tax table has no row for NCM 85176255 \(Z\)/,
      ),
    ]);
    expect(counts).toMatchObject({ noRow: 1, fallbacks: 1 });
  });

  it('a slow ERP and a cart without a row: the line says the table answered 422, not that it answered the cart', async () => {
    const erp = await scriptedErp(() => ({ status: 200, body: '{"impostos":[{"icms":1}]}', delayMs: 5_000 }));
    const { post, warnings, counts } = await serveForwarding(erp.url, true, 200);
    const answer = await post(unknownCart);
    expect(answer).toMatchObject({ status: 422, body: { error: 'no-tax-row' } });
    expect(warnings[0]).toBe(
      `tax callback: the ERP at ${erp.url} did not answer in 200 ms; the tax table, asked instead, answered 422 (no-tax-row).`,
    );
    expect(warnings.some((line) => line.includes('answered from the tax table'))).toBe(false);
    expect(counts).toMatchObject({ noRow: 1, fallbacks: 1 });
  });

  it('counts the budget from the request’s arrival: a cart whose body came after it is answered from the table', async () => {
    // The ERP answers well within the budget once asked; the cart itself took longer than the budget to arrive.
    const erp = await scriptedErp(() => ({ status: 200, body: '{"impostos":[{"icms":1}]}', delayMs: 50 }));
    const { warnings, counts, url } = await serveForwarding(erp.url, true, 200);
    const answer = await postLate(url, JSON.stringify(example2), 400);
    expect(answer.status).toBe(200);
    expect(answer.body.totals).toMatchObject({ icmsSt: '97.98', added: '128.60' });
    expect(warnings).toEqual([
      `tax callback: the ERP at ${erp.url} did not answer in 200 ms; answered from the tax table.`,
    ]);
    expect(counts).toMatchObject({ answered: 1, fallbacks: 1 });
  });

  it('/healthz, open to anyone, says forwarding is on by its figures alone, never where the ERP is', async () => {
    const erp = await scriptedErp(() => ({ status: 200, body: '{"impostos":[{"icms":1}]}' }));
    const { health } = await serveForwarding(`${erp.url}?api_key=k-1`, true, 200);
    expect(await health()).toEqual({
      status: 'ok',
      table: expect.any(Object),
      budgetMs: 200,
      erpOpen: 0,
      answered: 0,
      refused: 0,
      unreadable: 0,
      noRow: 0,
      fallbacks: 0,
      failed: 0,
    });
  });

  it('leaves a request past its budget to finish, and sends the next cart on the same connection', async () => {
    const erp = await scriptedErp(() => ({ status: 200, body: '{"impostos":[{"icms":1}]}', delayMs: 400 }));
    const { post, warnings, health } = await serveForwarding(erp.url, true, 200);
    expect((await post()).body.totals).toMatchObject({ icmsSt: '97.98' });
    expect(await health()).toMatchObject({ erpOpen: 1, fallbacks: 1 });
    // The ERP's late answer still comes, on a connection that stays open for the next cart.
    await vi.waitFor(async () => expect(await health()).toMatchObject({ erpOpen: 0 }), { timeout: 10_000 });
    await post();
    expect(erp.ports).toHaveLength(2);
    expect(erp.ports[1]).toBe(erp.ports[0]);
    expect(warnings).toEqual([
      `tax callback: the ERP at ${erp.url} did not answer in 200 ms; answered from the tax table.`,
      `tax callback: the ERP at ${erp.url} did not answer in 200 ms; answered from the tax table.`,
    ]);
  });

  it('answers from the table without asking an ERP that has 64 requests open', async () => {
    const erp = await scriptedErp(() => 'hang');
    const { post, warnings, counts, health } = await serveForwarding(erp.url, true, 200);
    const answers = await Promise.all(Array.from({ length: 64 }, () => post()));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 64 }, () => 200));
    expect(erp.seen).toHaveLength(64);
    const next = await post();
    expect(next.body.totals).toMatchObject({ icmsSt: '97.98', added: '128.60' });
    expect(erp.seen).toHaveLength(64);
    expect(warnings.at(-1)).toBe(
      `tax callback: the ERP at ${erp.url} has 64 requests open (not asked); answered from the tax table.`,
    );
    expect(counts).toMatchObject({ answered: 65, fallbacks: 65 });
    expect(await health()).toMatchObject({ erpOpen: 64 });
  });

  it('answers 503 when the ERP is down and there is no table to fall back on', async () => {
    const { post, warnings, counts } = await serveForwarding('http://127.0.0.1:9/impostos', false);
    const answer = await post();
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: 'tax-unavailable' });
    expect(warnings[0]).toMatch(
      /^tax callback: the ERP at http:\/\/127\.0\.0\.1:9\/impostos failed \(ECONNREFUSED\); answered 503/,
    );
    expect(counts).toMatchObject({ fallbacks: 1 });
  });
});

/** What JSON.parse says of `text`, as the refusal of a --map file quotes it. */
function jsonFault(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parses`);
}

// A user test: `"items"` twice was answered 200 from the last (zero taxes) while an ERP behind --forward-to reading the
// first saw the items; an empty list was answered 200 with zero totals.
const itemText = '{"sku":"A","ncm":"39269090","quantity":10,"unitPrice":45.9}';
const parts = '"origin":{"state":"SP"},"destination":{"state":"RJ"},"customer":{"paysIcms":true}';
const twice = (key: string) =>
  `the cart holds the key "${key}" twice in one object, which readers take differently (the first or the last): send it once`;

describe('tax serve: a cart its readers could read two ways, or of nothing', () => {
  it.each([
    ['items twice, the last empty', `{${parts},"items":[${itemText}],"items":[]}`, twice('items')],
    ['items twice, the first empty', `{${parts},"items":[],"items":[${itemText}]}`, twice('items')],
    ['items twice, spelled with an escape', `{${parts},"items":[${itemText}],"it\\u0065ms":[]}`, twice('items')],
    [
      'a state twice in the origin',
      `{"origin":{"state":"SP","state":"RJ"},"destination":{"state":"RJ"},"customer":{"paysIcms":true},"items":[${itemText}]}`,
      twice('state'),
    ],
    // Inside an item (a user test): the ERP read quantity 1 and NCM 84713012, b2bctl 5 and 22030000.
    [
      'a quantity twice in an item',
      `{${parts},"items":[${itemText.replace('"quantity":10', '"quantity":1,"quantity":5')}]}`,
      twice('quantity'),
    ],
    [
      'an NCM twice in an item',
      `{${parts},"items":[${itemText.replace('"ncm"', '"ncm":"22030000","ncm"')}]}`,
      twice('ncm'),
    ],
    [
      'a unit price twice in the second of two items',
      `{${parts},"items":[${itemText},${itemText.replace('"unitPrice":45.9', '"unitPrice":100,"unitPrice":1')}]}`,
      twice('unitPrice'),
    ],
  ])(
    'with --forward-to, %s: 400 in the error shape, logged, counted unreadable, the ERP not asked',
    async (_case, text, message) => {
      const erp = await scriptedErp(() => ({ status: 200, body: '{}' }));
      const forwarding = await serveForwarding(erp.url, true);
      expect(await forwarding.post(text)).toEqual({ status: 400, body: { error: 'bad-request', message } });
      expect(forwarding.warnings).toContain(`tax callback refused a cart from 127.0.0.1: ${message}`);
      expect(await forwarding.health()).toMatchObject({ answered: 0, unreadable: 1 });
      expect(erp.seen).toEqual([]);
    },
  );

  it('with --forward-to, the same keys in two items are no duplicate: the cart goes to the ERP', async () => {
    const erp = await scriptedErp(() => ({ status: 200, body: '{}' }));
    const forwarding = await serveForwarding(erp.url, true);
    await forwarding.post(`{${parts},"items":[${itemText},${itemText.replace('"A"', '"B"')}]}`);
    expect(erp.seen).toHaveLength(1);
  });

  it('from the table alone, b2bctl is the one reader: a key twice is read as its last, as JSON.parse reads it', async () => {
    const { server } = await serve();
    const send = (body: string) =>
      fetch(`${server.url}/tax`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
    const twiceAnswer = await send(`{${parts},"items":[],"items":[${itemText}]}`);
    const onceAnswer = await send(`{${parts},"items":[${itemText}]}`);
    expect(twiceAnswer.status).toBe(200);
    expect(await twiceAnswer.json()).toEqual(await onceAnswer.json());
  });

  it('an empty list of items: 400 in the error shape, logged, counted unreadable, nothing answered', async () => {
    const { server, lines, health } = await serve();
    const message = 'the request has no list of items at "items" (it is empty)';
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: `{${parts},"items":[]}`,
    });
    expect({ status: answer.status, body: await answer.json() }).toEqual({
      status: 400,
      body: { error: 'bad-request', message },
    });
    expect(lines).toContain(`tax callback refused a cart from 127.0.0.1: ${message}`);
    expect(await health()).toMatchObject({ answered: 0, unreadable: 1 });
  });

  it('the same key in two objects (a state in origin and in destination, a sku in each item) is no duplicate', async () => {
    const { server } = await serve();
    const answer = await fetch(`${server.url}/tax`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: `{${parts},"items":[${itemText},${itemText.replace('"A"', '"B"')}]}`,
    });
    expect(answer.status).toBe(200);
  });
});
