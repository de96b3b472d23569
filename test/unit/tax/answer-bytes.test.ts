/**
 * The callback's one-pass answer held to the general path, byte for byte, on random carts: each item read through
 * the shape as a record of text and checked (checkCartItem), its taxes as objects (quoteItems), the totals
 * (taxTotals) and JSON.stringify. Values of every kind the platform might send (numbers, text with a comma, blanks,
 * too many decimals, amounts past safe integers, items without a row) so that both the carts it answers and those
 * it leaves to the general path are many.
 */
import { describe, expect, it } from 'vitest';
import { taxTotals } from '../../../src/domain/tax/compute.js';
import { type BuyerKind, TaxTable } from '../../../src/domain/tax/rules.js';
import type { TaxItem } from '../../../src/domain/tax/terms.js';
import { moneyText } from '../../../src/domain/tax/scaled.js';
import { answerBytes } from '../../../src/tax/answer-bytes.js';
import { JsonBytes } from '../../../src/tax/json-bytes.js';
import { quoteItems } from '../../../src/tax/quote-items.js';
import { readTaxShape, sandboxTaxShape, type TaxShape } from '../../../src/tax/shape.js';
import { checkCartItem, skusAsSent } from '../../../src/tax/cart-item.js';
import { addRow, tableOfRows } from '../../support/tax-table.js';

let seed = 37_2026;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(choices: readonly T[]): T => choices[Math.floor(random() * choices.length)] as T;

/** A percentage as a table writes it: mostly whole or one decimal, sometimes four (fractions that grow). */
const rate = (ceiling: number): string =>
  pick(['0', (random() * ceiling).toFixed(pick([0, 0, 1, 2, 4]))]).replace(/\.?0+$/, '') || '0';

/** A table of NCM prefixes 8471 and 3926 for SP → SP, RJ and MG, both buyers, random rates (or fixed ones). */
function randomTable(fixed = false): TaxTable {
  return tableOfRows(['8471', '3926'], () =>
    fixed
      ? { icmsRate: '12', ipiRate: '6.5', mva: '54', destinationRate: '20', fcpRate: '2' }
      : {
          icmsRate: rate(30),
          icmsBaseReduction: pick(['', '', rate(70)]),
          ipiRate: rate(20),
          mva: pick(['', rate(150)]),
          destinationRate: pick([rate(99), '18', '20']),
          fcpRate: rate(4),
          destinationBaseReduction: pick(['', '', rate(70)]),
        },
  );
}

/** An amount as the platform might send it: mostly a number of cents, else text, a blank, or something odd. */
function randomAmount(digits: number): unknown {
  const cents = Math.floor(random() * 10 ** digits);
  if (random() < 0.85) return pick([cents / 100, Math.floor(cents / 100), (cents / 100).toFixed(2)]);
  return pick([
    (cents / 100).toFixed(2),
    (cents / 100).toFixed(2).replace('.', ','),
    ` ${(cents / 100).toFixed(1)} `,
    (cents / 1000).toFixed(3),
    cents / 1000,
    undefined,
    null,
    '',
    -1.5,
    '1.',
    '.5',
    ',5',
    'R$ 10',
    '1,5,0',
    1e-7,
    12_345_678_901_234.56,
    '123456789012345',
    true,
    '1.500',
    '1,500',
    '2.000',
    // Past what a double holds: JSON.parse would have rounded what the platform wrote.
    Number('12345678901234567.89'),
  ]);
}

function randomItem(): Record<string, unknown> {
  return {
    sku: pick([`SKU-${Math.floor(random() * 100)}`, ' A "quoted" \\ sku ', 'Ação', 1234, '', undefined]),
    ncm:
      random() < 0.8
        ? pick(['84713012', '39269090', 39_269_090])
        : pick([3_926_909, '3926.90.90', '85176255', '8471301', ' 84713012', 84_713_012.5]),
    quantity:
      random() < 0.85
        ? 1 + Math.floor(random() * 50)
        : pick([
            2.5,
            '3',
            0,
            -1,
            1e20,
            Number('9007199254740993'),
            1_234_567_890_123_456,
            123_456_789_012_345,
            '1.500',
          ]),
    unitPrice: randomAmount(pick([4, 6, 8, 15])),
    discount: random() < 0.6 ? undefined : randomAmount(3),
    freight: random() < 0.3 ? undefined : randomAmount(4),
  };
}

/** The general path's answer, as the server writes it: the JSON text, or undefined when it refuses the cart. */
function generalAnswer(items: readonly unknown[], table: TaxTable, sale: SaleCase, shape: TaxShape) {
  const checked: TaxItem[] = [];
  for (const value of items) {
    const item = checkCartItem(value, shape.request);
    if (typeof item === 'string') return undefined;
    checked.push(item);
  }
  try {
    const quoted = quoteItems(table, checked, sale);
    const answered = skusAsSent(quoted, items, shape.request);
    return JSON.stringify({ [shape.answer.items]: answered, [shape.answer.totals]: taxTotals(quoted) });
  } catch {
    return undefined;
  }
}

/** The default shape with the answer's parts named otherwise. */
function shaped(answer: Record<string, string>): TaxShape {
  const read = readTaxShape({ answer });
  if (!('shape' in read)) throw new Error(read.problems.join('; '));
  return read.shape;
}

interface SaleCase {
  from: 'SP';
  to: 'SP' | 'RJ' | 'MG';
  buyer: BuyerKind;
}

function oneAnswer(items: readonly unknown[], table: TaxTable, sale: SaleCase, shape: TaxShape) {
  const sold = { buyer: sale.buyer, interstate: sale.from !== sale.to };
  return answerBytes(items, table.finderFor(sale), sold, shape)?.toString('utf8');
}

describe('the callback’s answer in one pass', () => {
  it('writes the general path’s answer byte for byte, or leaves the cart to it', () => {
    /** Items answered in one pass, and carts left to the general path. */
    let written = 0;
    let left = 0;
    for (let round = 0; round < 5_000; round++) {
      const table = randomTable();
      const sale: SaleCase = { from: 'SP', to: pick(['SP', 'RJ', 'MG']), buyer: pick(['taxpayer', 'non-taxpayer']) };
      const items = Array.from({ length: pick([0, 1, 1, 2, 3]) }, randomItem);
      const ours = oneAnswer(items, table, sale, sandboxTaxShape);
      if (ours === undefined) {
        left++;
        continue;
      }
      written += items.length;
      // The cart goes with the text, so a failure shows which one it was.
      expect({ items, sale, answer: ours }).toEqual({
        items,
        sale,
        answer: generalAnswer(items, table, sale, sandboxTaxShape),
      });
    }
    // Both outcomes are common, so the comparison covers many carts of every kind of row.
    expect(written).toBeGreaterThan(1_200);
    expect(left).toBeGreaterThan(2_000);
  });

  it('leaves to the general path a SKU it could not answer back as sent, and writes a whole-number SKU', () => {
    const table = randomTable(true);
    const sale: SaleCase = { from: 'SP', to: 'RJ', buyer: 'taxpayer' };
    const item = { ncm: '84713012', quantity: 2, unitPrice: 99.9 };
    for (const sku of [{ a: 1 }, ['A'], true, Number('12345678901234567890'), 12.5]) {
      expect(oneAnswer([{ ...item, sku }], table, sale, sandboxTaxShape)).toBeUndefined();
    }
    for (const sku of [1234, null, ' A-1 ']) {
      const ours = oneAnswer([{ ...item, sku }], table, sale, sandboxTaxShape);
      expect(ours).toBeDefined();
      expect(ours).toBe(generalAnswer([{ ...item, sku }], table, sale, sandboxTaxShape));
    }
  });

  it('writes every item of a large cart, in order', () => {
    const table = randomTable(true);
    const sale: SaleCase = { from: 'SP', to: 'RJ', buyer: 'non-taxpayer' };
    const items = Array.from({ length: 200 }, (_, index) => ({
      sku: `SKU-${index}`,
      ncm: '84713012',
      quantity: 1 + index,
      unitPrice: (1_000 + index) / 100,
      freight: '1,5',
    }));
    const ours = oneAnswer(items, table, sale, sandboxTaxShape);
    expect(ours).toBeDefined();
    expect(ours).toBe(generalAnswer(items, table, sale, sandboxTaxShape));
  });

  it('rounds the ICMS-ST due once, as the general path does (a user test: 0.24 and 0.12, not 0.25 and 0.11)', () => {
    const table = new TaxTable();
    addRow(table, {
      ncm: '22021000',
      from: 'SP',
      to: 'SP',
      buyer: 'taxpayer',
      icmsRate: '18',
      ipiRate: '0',
      mva: '40',
      destinationRate: '18',
    });
    const sale: SaleCase = { from: 'SP', to: 'SP', buyer: 'taxpayer' };
    const items = [3.39, 1.61].map((unitPrice) => ({ ncm: '22021000', quantity: 1, unitPrice }));
    const ours = oneAnswer(items, table, sale, sandboxTaxShape);
    expect(ours).toBeDefined();
    expect(ours).toBe(generalAnswer(items, table, sale, sandboxTaxShape));
    const answered = JSON.parse(ours as string) as { items: { icmsSt: { value: string } }[] };
    expect(answered.items.map((item) => item.icmsSt.value)).toEqual(['0.24', '0.12']);
  });

  it('names the answer’s parts as the shape says, and leaves to the general path names JSON would reorder', () => {
    const table = randomTable(true);
    const sale: SaleCase = { from: 'SP', to: 'MG', buyer: 'taxpayer' };
    const items = [{ ncm: '84713012', quantity: 2, unitPrice: 99.9 }];
    const named = shaped({ items: 'itens', totals: 'totais' });
    expect(oneAnswer(items, table, sale, named)).toBe(generalAnswer(items, table, sale, named));
    expect(JSON.parse(oneAnswer(items, table, sale, named) as string)).toHaveProperty('totais.merchandise', '199.80');
    // An index-like name comes first in a JavaScript object; a name used twice is one member (a shape file naming
    // both parts alike is refused at start: this one is made by hand).
    expect(oneAnswer(items, table, sale, shaped({ items: '1', totals: '0' }))).toBeUndefined();
    const oneName = { ...sandboxTaxShape, answer: { items: 'a', totals: 'a' } };
    expect(oneAnswer(items, table, sale, oneName)).toBeUndefined();
    expect(readTaxShape({ answer: { items: 'a', totals: 'a' } })).toEqual({
      problems: ['answer.items and answer.totals are both "a": the answer\'s two parts need two names'],
    });
  });
});

describe('JSON written as bytes', () => {
  it('writes money as moneyText does and strings as JSON.stringify does, at every boundary', () => {
    const writer = new JsonBytes();
    const amounts = [0, 5, 10, 99, 100, 999, 1_000, 99_999, 10 ** 7, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, -5, -123_456];
    for (let power = 0; power < 12; power++) amounts.push(10 ** power - 1, 10 ** power, 10 ** power + 7);
    for (let round = 0; round < 2_000; round++) amounts.push(Math.floor(random() * 10 ** Math.floor(random() * 14)));
    const texts = [
      '',
      'SKU-1',
      'a "quoted" one',
      'back\\slash',
      'Ação',
      'tab\there',
      '\u0000\u001f',
      '😀',
      '\ud800',
      '~\u007f',
    ];
    for (const amount of amounts) {
      writer.clear();
      writer.money(amount);
      expect({ amount, text: writer.bytes().toString('utf8') }).toEqual({ amount, text: moneyText(amount) });
    }
    for (const text of texts) {
      writer.clear();
      writer.string(text);
      expect(writer.bytes().toString('utf8')).toBe(JSON.stringify(text));
    }
  });

  it('never writes over a text it handed out, across slabs, and drops a text begun again', () => {
    const writer = new JsonBytes();
    const handed: { bytes: Buffer; text: string }[] = [];
    // Texts of 1 to ~40 KB: many share a slab, some fill it and move to the next, one is larger than a slab.
    for (let round = 0; round < 400; round++) {
      const text = `${round}:${'é'.repeat(Math.floor(random() * (round === 7 ? 150_000 : 20_000)))}`;
      writer.clear();
      writer.string('begun and dropped');
      writer.clear();
      writer.string(text);
      writer.money(round);
      handed.push({ bytes: writer.bytes(), text: `${JSON.stringify(text)}${moneyText(round)}` });
    }
    for (const { bytes, text } of handed) expect(bytes.toString('utf8')).toBe(text);
  });
});
