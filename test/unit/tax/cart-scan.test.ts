/**
 * The cart read from its bytes (cart-scan.ts) held to the cart parsed: on random cart texts written in every way
 * JSON allows (blanks anywhere, keys in any order, numbers as `1.50`, `15e-1`, `-0`, text with escapes and accents,
 * keys the shape does not read holding anything, nested deep) and broken in the ways a body breaks (cut short, a
 * byte changed, a BOM, a key twice, a prototype's key), the scan's answer, wherever it gives one, is the parsed
 * cart's byte for byte; and the carts it declines go to the parse. Common carts are answered by the scan, so the
 * comparison is not of declines alone.
 */
import { describe, expect, it } from 'vitest';
import type { TaxTable } from '../../../src/domain/tax/rules.js';
import { readCartBody } from '../../../src/tax/cart-body.js';
import { TableRows } from '../../../src/tax/answer-bytes.js';
import { CartScan } from '../../../src/tax/cart-scan.js';
import { onePassAnswer, scannedAnswer } from '../../../src/tax/one-pass-answer.js';
import { readTaxShape, sandboxTaxShape, type TaxShape } from '../../../src/tax/shape.js';
import { addRow, tableOfRows } from '../../support/tax-table.js';

let seed = 48_2026;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(choices: readonly T[]): T => choices[Math.floor(random() * choices.length)] as T;

/**
 * A table of NCM 84713012 and prefixes 3926, 0101 and 1012 (what 01012100 would find with its leading zero lost) for
 * SP → SP, RJ and MG, both buyers (ST between taxpayers).
 */
function fixtureTable(): TaxTable {
  return tableOfRows(['84713012', '3926', '0101', '1012'], ({ ncm, to, buyer }) => ({
    icmsRate: to === 'SP' ? '18' : '12',
    icmsBaseReduction: ncm === '3926' ? '20' : '',
    // Each row its own IPI: an item answered from the wrong row shows.
    ipiRate: { '84713012': '6.5', '3926': '5', '0101': '0', '1012': '10' }[ncm] as string,
    mva: buyer === 'taxpayer' && ncm === '3926' ? '54' : '',
    destinationRate: '20',
    fcpRate: '2',
  }));
}

/** A JSON number written as given (`1.50`, `15e-1`), which JSON.stringify would write otherwise. */
class Written {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** An object as its keys in order, a key possibly twice. */
class Keys {
  readonly entries: [string, unknown][];
  constructor(entries: [string, unknown][]) {
    this.entries = entries;
  }
}

/** Blanks JSON allows between tokens: mostly none, as platforms send carts. */
const blank = (): string => (random() < 0.85 ? '' : pick([' ', '\n', '\t', '\r\n', '  ']));

/** The cart's text: JSON.stringify's, with blanks, numbers as written and keys as listed. */
function written(value: unknown): string {
  if (value instanceof Written) return value.text;
  if (value instanceof Keys)
    return `{${blank()}${value.entries
      .map(([key, inner]) => `${keyText(key)}${blank()}:${blank()}${written(inner)}`)
      .join(`${blank()},${blank()}`)}${blank()}}`;
  if (Array.isArray(value)) return `[${blank()}${value.map(written).join(`${blank()},${blank()}`)}${blank()}]`;
  if (value !== null && typeof value === 'object')
    return written(new Keys(Object.entries(value as Record<string, unknown>)));
  return JSON.stringify(value) ?? 'null';
}

/** A key as JSON writes it, or now and then with a letter escaped (`"sk\u0075"`), which reads as the same key. */
const keyText = (key: string): string =>
  random() < 0.003 && key.length > 0
    ? `"${key.slice(0, -1)}\\u${key
        .charCodeAt(key.length - 1)
        .toString(16)
        .padStart(4, '0')}"`
    : JSON.stringify(key);

/** An amount in one of the forms a platform writes it. */
function amount(): unknown {
  const cents = Math.floor(random() * 10 ** pick([3, 5, 7, 11]));
  const whole = Math.floor(cents / 100);
  const decimals = String(cents % 100).padStart(2, '0');
  return pick([
    cents / 100,
    whole,
    new Written(`${whole}.${decimals}`),
    `${whole}.${decimals}`,
    `${whole},${decimals}`,
  ]);
}

/** A value the one pass may not take: another form, another type, past its limits. */
function oddAmount(): unknown {
  const whole = Math.floor(random() * 1_000);
  return pick([
    ` ${whole}.5 `,
    '',
    ' ',
    null,
    true,
    new Written(`${whole}.500`),
    new Written(`${whole}50e-2`),
    new Written(`${whole}E0`),
    new Written('-0'),
    new Written(`-${whole}.5`),
    new Written('0.5'),
    new Written('0'),
    new Written('1234567890123.45'),
    new Written('999999999999.99'),
    new Written('12345678901234567.89'),
    { value: 1 },
    [1],
    'R$ 10',
    '1.',
  ]);
}

/** Each of an item's values in a form the one pass may not take. */
const oddItemValues: Record<string, () => unknown> = {
  sku: () => pick(['Ação', 'a "q"', 'tab\there', '', ' ', null, 1234, new Written('12.0'), true, { a: 1 }]),
  ncm: () =>
    pick([
      '3926.90.90',
      '8471301',
      ' 84713012',
      new Written('3.926909e7'),
      new Written('39269090.0'),
      '85176255',
      8471,
    ]),
  quantity: () =>
    pick([
      new Written('2.5'),
      '3',
      new Written('0'),
      new Written('-1'),
      new Written('1e2'),
      new Written('3.0'),
      new Written('123456789012345'),
      new Written('1234567890123456'),
      null,
    ]),
  unitPrice: oddAmount,
  discount: oddAmount,
  freight: oddAmount,
};

function item(odd = random() < 0.2): unknown {
  const fields: [string, unknown][] = [
    ['sku', pick([`SKU-${Math.floor(random() * 100)}`, ` A-${Math.floor(random() * 9)} `, undefined])],
    ['ncm', pick(['84713012', '39269090', new Written('39269090'), new Written('84713012'), '01012100'])],
    ['quantity', new Written(String(1 + Math.floor(random() * 50)))],
    ['unitPrice', amount()],
  ];
  if (random() < 0.3) fields.push(['discount', new Written(`0.${Math.floor(random() * 9)}`)]);
  if (random() < 0.7) fields.push(['freight', amount()]);
  if (odd) {
    const [name, value] = pick(Object.entries(oddItemValues));
    const index = fields.findIndex(([key]) => key === name);
    if (index >= 0) fields[index] = [name, value()];
    else fields.push([name, value()]);
  }
  if (random() < 0.1) fields.push([pick(['description', 'descrição', 'meta', 'x']), anyValue(0)]);
  if (odd && random() < 0.1)
    fields.push([pick(['__proto__', 'constructor', 'toString']), pick([{}, { prototype: {} }, 1])]);
  if (odd && random() < 0.1) fields.push(pick(fields));
  if (odd && random() < 0.05) return pick([null, 1, 'item', [fields]]);
  return new Keys(shuffled(fields.filter(([, value]) => value !== undefined)));
}

/** A value of a key the shape does not read: anything JSON holds. */
function anyValue(depth: number): unknown {
  const kind = depth > 3 ? pick(['text', 'number', 'literal']) : pick(['text', 'number', 'literal', 'object', 'list']);
  if (kind === 'text')
    return pick([
      'Parafuso 1/2"',
      'linha\nnova',
      'ação ✓',
      'emoji 🙂',
      '\\',
      '',
      'a\u0001b',
      '__proto__',
      'constructor',
    ]);
  if (kind === 'number') return pick([0, -1.5, 1e21, new Written('1E-7'), new Written('-0.0')]);
  if (kind === 'literal') return pick([true, false, null]);
  if (kind === 'list') return Array.from({ length: pick([0, 1, 3]) }, () => anyValue(depth + 1));
  return new Keys(
    Array.from({ length: pick([0, 1, 2]) }, () => [
      pick(['a', 'b', 'c', 'nome', '__proto__', 'constructor', 'x.y']),
      anyValue(depth + 1),
    ]),
  );
}

function shuffled<T>(list: T[]): T[] {
  for (let index = list.length - 1; index > 0; index--) {
    const swapped = Math.floor(random() * (index + 1));
    [list[index], list[swapped]] = [list[swapped] as T, list[index] as T];
  }
  return list;
}

/** A cart; `oddOne`: exactly one of its values (the sale's, or one item's) in a form the one pass may not take. */
function randomCart({ oddOne = false } = {}): Keys {
  const odd = oddOne ? random() < 0.3 : random() < 0.15;
  const state = () =>
    odd && random() < 0.4
      ? pick([' sp ', 'Sp', 'XX', '', 12, null, 'SP\u00a0', new Keys([])])
      : pick(['SP', 'RJ', 'MG']);
  const entries: [string, unknown][] = [
    ['origin', new Keys([['state', odd && random() < 0.3 ? state() : 'SP']])],
    ['destination', odd && random() < 0.1 ? pick([[], 'RJ', null]) : new Keys([['state', state()]])],
    [
      'customer',
      new Keys(
        shuffled([
          ['document', '11.222.333/0001-81'],
          [
            'paysIcms',
            odd && random() < 0.4
              ? pick(['true', 'false', new Written('1'), new Written('0'), new Written('1.0'), 'yes', null, 'TRUE'])
              : pick([true, false]),
          ],
        ]),
      ),
    ],
    ['items', cartItems(oddOne ? (odd ? 'none' : 'one') : 'some', odd && random() < 0.2 ? 0 : pick([1, 2, 3, 5]))],
  ];
  if (random() < 0.2) entries.push([pick(['id', 'meta', 'notes']), anyValue(0)]);
  if (random() < 0.02) entries.push(['origin.state', 'RJ']);
  if (random() < 0.02) entries.push(pick(entries));
  return new Keys(shuffled(entries));
}

/** A cart's items: none odd, one, or each now and then. */
function cartItems(odd: 'none' | 'one' | 'some', count: number): unknown[] {
  const oddOne = Math.floor(random() * count);
  return Array.from({ length: count }, (_, index) =>
    odd === 'some' ? item() : item(odd === 'one' && index === oddOne),
  );
}

/** The ways a body breaks on its way, or is sent wrong. */
function broken(text: string): string {
  const at = Math.floor(random() * text.length);
  return pick([
    text.slice(0, at),
    `${text.slice(0, at)}${pick(['"', ',', '}', ']', 'x', '\u0000', '\\', ':'])}${text.slice(at)}`,
    `${text.slice(0, at)}${text.slice(at + 1)}`,
    `\ufeff${text}`,
    `${text}${pick([' x', ',', '}', '{}', '\u0000'])}`,
    `${text.slice(0, at)}\u00e9${text.slice(at + 1)}`,
  ]);
}

/** What the route answers from the parsed cart: its one-pass answer, nothing (the general path's), or a refusal. */
function parsed(text: string, table: TaxTable, shape: TaxShape): string {
  const read = readCartBody(text, 'application/json', `${text.length} characters`);
  if ('refusal' in read) return `refused: ${read.refusal.reason}`;
  return onePassAnswer(read.body, table, shape)?.toString('utf8') ?? 'left to the general path';
}

/** What the scan answers, or that it declines. */
function scanned(bytes: Buffer, scan: CartScan, table: TaxTable, shape: TaxShape): string | undefined {
  if (!scan.scan(bytes)) return undefined;
  return scannedAnswer(scan, table, shape)?.toString('utf8');
}

/** One item, and a cart of the given items' text with more keys after them, in the default shape. */
const plainItem = '{"sku":"A","ncm":"84713012","quantity":2,"unitPrice":10.5}';
const cart = (items: string, more = '') =>
  `{"origin":{"state":"SP"},"destination":{"state":"RJ"},"customer":{"paysIcms":true},"items":[${items}]${more}}`;

describe('a cart read from its bytes', () => {
  it('answers as the parsed cart, byte for byte, or leaves the cart to the parse', () => {
    const table = fixtureTable();
    const scan = new CartScan(sandboxTaxShape.request);
    let answered = 0;
    let declined = 0;
    let brokenDeclined = 0;
    const differing: { text: string; ours: string; theirs: string }[] = [];
    for (let round = 0; round < 6_000; round++) {
      const whole = written(randomCart());
      const text = random() < 0.2 ? broken(whole) : whole;
      const ours = scanned(Buffer.from(text, 'utf8'), scan, table, sandboxTaxShape);
      if (ours === undefined) {
        declined++;
        if (text !== whole) brokenDeclined++;
        continue;
      }
      answered++;
      const theirs = parsed(text, table, sandboxTaxShape);
      // The text goes with the answer, so a failure shows which cart it was.
      if (ours !== theirs) differing.push({ text, ours, theirs });
    }
    expect(differing).toEqual([]);
    // Most carts are of the common kind, and answered by the scan; the rest cover its declines.
    expect(answered).toBeGreaterThan(1_500);
    expect(declined).toBeGreaterThan(3_000);
    expect(brokenDeclined).toBeGreaterThan(1_200);
  });

  it('answers a common cart with one value in an odd form as the parsed cart, or leaves it to the parse', () => {
    const table = fixtureTable();
    const scan = new CartScan(sandboxTaxShape.request);
    let answered = 0;
    let declined = 0;
    const differing: { text: string; ours: string; theirs: string }[] = [];
    for (let round = 0; round < 6_000; round++) {
      const text = written(randomCart({ oddOne: true }));
      const ours = scanned(Buffer.from(text, 'utf8'), scan, table, sandboxTaxShape);
      if (ours === undefined) declined++;
      else {
        answered++;
        const theirs = parsed(text, table, sandboxTaxShape);
        if (ours !== theirs) differing.push({ text, ours, theirs });
      }
    }
    expect(differing).toEqual([]);
    // Some odd forms are answered alike by both readers (text amounts, the buyer as "true"), most are left to the parse.
    expect(answered).toBeGreaterThan(600);
    expect(declined).toBeGreaterThan(4_000);
  });

  it('answers a cart of 200 items, growing its room, as the parsed cart', () => {
    const table = fixtureTable();
    const scan = new CartScan(sandboxTaxShape.request);
    const large = {
      origin: { state: 'SP' },
      destination: { state: 'MG' },
      customer: { paysIcms: false },
      items: Array.from({ length: 200 }, (_, index) => ({
        sku: `SKU-${index}`,
        ncm: index % 2 === 0 ? '84713012' : '39269090',
        quantity: 1 + index,
        unitPrice: (1_000 + index) / 100,
        freight: index % 7,
      })),
    };
    const text = JSON.stringify(large);
    const ours = scanned(Buffer.from(text), scan, table, sandboxTaxShape);
    expect(ours).toBeDefined();
    expect(ours).toBe(parsed(text, table, sandboxTaxShape));
    expect(JSON.parse(ours as string).items).toHaveLength(200);
  });

  it('refuses to vouch for what the parse reads otherwise or refuses', () => {
    const table = fixtureTable();
    const scan = new CartScan(sandboxTaxShape.request);
    // The common cart is answered, as the parse answers it.
    expect(scanned(Buffer.from(cart(plainItem)), scan, table, sandboxTaxShape)).toBe(
      parsed(cart(plainItem), table, sandboxTaxShape),
    );
    for (const text of [
      // A key of the shape twice: the parse keeps the last, another reader the first.
      cart(plainItem.replace('"quantity":2', '"quantity":2,"quantity":5')),
      cart(plainItem, ',"items":[]'),
      // Prototype keys, anywhere.
      cart(plainItem, ',"__proto__":{"x":1}'),
      cart(plainItem, ',"meta":{"constructor":{"prototype":{}}}'),
      // An escaped key may be one of the shape's.
      cart(plainItem.replace('"sku"', '"sk\\u0075"')),
      // Not JSON: a leading zero, a trailing comma, a control character in text, a BOM, anything after the cart.
      cart(plainItem.replace('"quantity":2', '"quantity":02')),
      cart(`${plainItem},`),
      cart(plainItem.replace('"A"', '"A\u0001"')),
      cart(plainItem, ',"nota":"a\u0001b"'),
      cart(plainItem, ',"nota":"ação"x'),
      cart(plainItem, ',"nota":["a\\q"]'),
      `\ufeff${cart(plainItem)}`,
      `${cart(plainItem)}x`,
      cart(plainItem).slice(0, -1),
      // A value nested past 64 levels under a key the shape does not read.
      cart(plainItem, `,"deep":${'['.repeat(65)}${']'.repeat(65)}`),
      // No items, or an empty list: the general path words the refusal.
      '{"origin":{"state":"SP"},"destination":{"state":"RJ"},"customer":{"paysIcms":true}}',
      cart(''),
      // A SKU number: the parse gives it back as JavaScript writes it, and the log may say so.
      cart(plainItem.replace('"A"', '12.50')),
      // Values in forms only the parse reads.
      cart(plainItem.replace('10.5', '1.05e1')),
      // An amount of 10^12 or more, which the parse leaves to the fractions.
      cart(plainItem.replace('10.5', '1234567890123.45')),
      cart(plainItem.replace('"quantity":2', '"quantity":2.0')),
      cart(plainItem).replace('true', '1.0'),
    ])
      expect({ text, scanned: scanned(Buffer.from(text), scan, table, sandboxTaxShape) }).toEqual({
        text,
        scanned: undefined,
      });
  });

  it('follows a shape of other keys and paths, and leaves to the parse a shape it cannot follow', () => {
    const table = fixtureTable();
    const read = readTaxShape({
      request: {
        items: 'pedido.itens',
        sku: 'codigo',
        ncm: 'fiscal.ncm',
        quantity: 'qtd',
        unitPrice: 'preco',
        discount: null,
        freight: 'frete',
        from: 'pedido.uf_origem',
        to: 'entrega.uf',
        buyerPaysIcms: 'cliente.contribuinte',
      },
      answer: { items: 'itens', totals: 'totais' },
    });
    if (!('shape' in read)) throw new Error(read.problems.join('; '));
    const shape = read.shape;
    const scan = new CartScan(shape.request);
    expect(scan.usable).toBe(true);
    const text = JSON.stringify({
      pedido: {
        uf_origem: 'SP',
        itens: [{ codigo: 'X-1', fiscal: { ncm: '39269090' }, qtd: 3, preco: '12,50', frete: 1.1, desconto: 99 }],
      },
      entrega: { uf: 'RJ' },
      cliente: { contribuinte: 'false' },
    });
    const ours = scanned(Buffer.from(text), scan, table, shape);
    expect(ours).toBeDefined();
    expect(ours).toBe(parsed(text, table, shape));
    // A key holding the whole dotted path is read as itself by the shape's readers: left to them.
    const dotted = text.replace('"entrega"', '"entrega.uf":"MG","entrega"');
    expect(scanned(Buffer.from(dotted), scan, table, shape)).toBeUndefined();
    // An index step, or a path that is also the start of another: every cart parsed.
    for (const request of [{ items: 'pedidos.0.itens' }, { from: 'origem', to: 'origem.uf' }]) {
      const unfollowed = readTaxShape({ request });
      if (!('shape' in unfollowed)) throw new Error(unfollowed.problems.join('; '));
      expect(new CartScan(unfollowed.shape.request).usable).toBe(false);
    }
  });
});

/** An NCM as the rows take it: the number its digits write, and the digits. */
const digits = (ncm: string) => ({ ncm: Number(ncm), source: Buffer.from(ncm), start: 0 });
/** The IPI rate's part of a row's answer. */
const ipiOf = (row: ReturnType<TableRows['rowOf']>) => row?.rates.ipi.toString();
/** The slot of the rows' table a sale's NCM lands in. */
const slotOf = (sale: number, ncm: number) => Math.imul(ncm ^ Math.imul(sale + 1, 0x27d4eb2d), 0x9e3779b1) >>> 18;

describe('the rows of a table, by sale and by the digits of an NCM', () => {
  it('keeps two NCMs of one slot apart, and two sales, and knows a table changed since', () => {
    const table = fixtureTable();
    // Chapter 84 for SP → MG to a final consumer, its own IPI: every NCM 84… has a row in both sales below.
    for (const [to, buyer, ipiRate] of [
      ['RJ', 'taxpayer', '6.5'],
      ['MG', 'non-taxpayer', '15'],
    ] as const) {
      addRow(table, { ncm: '84', from: 'SP', to, buyer, icmsRate: '12', ipiRate, destinationRate: '20' });
    }
    const rows = new TableRows(table);
    const toRj = rows.saleOf({ from: 'SP', to: 'RJ', buyer: 'taxpayer' });
    const toMg = rows.saleOf({ from: 'SP', to: 'MG', buyer: 'non-taxpayer' });
    expect(rows.saleOf({ from: 'SP', to: 'RJ', buyer: 'taxpayer' })).toBe(toRj);
    // Two NCMs whose digits land in the same slot of the rows' table: the second takes the first's place.
    const first = 84_713_012;
    let second = 39_260_000;
    while (slotOf(toRj, second) !== slotOf(toRj, first)) second++;
    const [a, b] = [digits(String(first)), digits(String(second))];
    for (let round = 0; round < 2; round++) {
      expect(ipiOf(rows.rowOf(toRj, a.ncm, a.source, a.start))).toContain('"rate":"6.5"');
      expect(ipiOf(rows.rowOf(toRj, b.ncm, b.source, b.start))).toContain('"rate":"5"');
    }
    // The same NCM in another sale is another row, even where the two land in one slot.
    let shared = 84_000_000;
    while (slotOf(toRj, shared) !== slotOf(toMg, shared)) shared++;
    const both = digits(String(shared));
    for (let round = 0; round < 2; round++) {
      expect(ipiOf(rows.rowOf(toRj, both.ncm, both.source, both.start))).toContain('"rate":"6.5"');
      expect(ipiOf(rows.rowOf(toMg, both.ncm, both.source, both.start))).toContain('"rate":"15"');
    }
    // A leading zero is part of the NCM the table is asked for: 01012100 is no 1012100.
    const horse = digits('01012100');
    expect(ipiOf(rows.rowOf(toRj, horse.ncm, horse.source, horse.start))).toContain('"rate":"0"');
    expect(rows.current).toBe(true);
    addRow(table, { ncm: '85176255', from: 'SP', to: 'RJ', buyer: 'taxpayer', icmsRate: '12', ipiRate: '15' });
    expect(rows.current).toBe(false);
  });
});
