/**
 * validateStockRow checks the stock rules with plain code for speed (issue 14); stockRowSchema (zod) is
 * the reference it must follow. Every combination of awkward values per field is judged both ways and
 * the verdicts must be equal: the same item, or the same problems with the same reasons in the same order.
 */
import { describe, expect, it } from 'vitest';
import {
  defaultStockSchema,
  stockFields,
  stockRowSchema,
  type StockField,
  type StockSchema,
  validateStockRow,
  validationProblem,
} from '../../../src/domain/stock.js';
import { seededRandom } from '../../support/seeded-text.js';

const absentWhenBlank = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;
const codeText = (value: unknown) => {
  const present = absentWhenBlank(value);
  if (typeof present === 'string') return present.trim();
  if (typeof present === 'number' && Number.isSafeInteger(present) && present >= 0) return String(present);
  return present;
};

/** validateStockRow as it was, through zod: blank cells absent, codes trimmed, issues grouped per field. */
function judgedByZod(record: Record<string, unknown>, schema: StockSchema = defaultStockSchema) {
  const parsed = stockRowSchema.safeParse({
    sku: codeText(record.sku),
    quantity: absentWhenBlank(record.quantity),
    price: absentWhenBlank(record.price),
    salePrice: absentWhenBlank(record.salePrice),
    warehouse: codeText(record.warehouse),
  });
  if (parsed.success) {
    const value: Record<string, unknown> = { sku: parsed.data.sku, quantity: parsed.data.quantity };
    if (parsed.data.price !== undefined) value.price = parsed.data.price;
    if (parsed.data.salePrice !== undefined) value.salePrice = parsed.data.salePrice;
    // A sale price given empty (null, a blank cell) ends the promotion: null (decision 0030).
    else if (record.salePrice !== undefined) value.salePrice = null;
    if (parsed.data.warehouse !== undefined) value.warehouse = parsed.data.warehouse;
    return { ok: true, value };
  }
  const reasonsByField = new Map<StockField, string[]>();
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as StockField;
    const reasons = reasonsByField.get(field) ?? [];
    if (!reasons.includes(issue.message)) reasons.push(issue.message);
    reasonsByField.set(field, reasons);
  }
  const problems = stockFields
    .filter((field) => reasonsByField.has(field))
    .map((field) => {
      const name = schema.fields[field];
      const reason = (reasonsByField.get(field) ?? []).join('; ').replaceAll('{field}', name);
      return validationProblem(name, record[field], reason);
    });
  return { ok: false, problems };
}

const codes: unknown[] = [
  undefined,
  null,
  '',
  '   ',
  'ABC-1',
  '  ABC-1  ',
  'A\u0007B',
  'A\u007fB',
  'A\tB',
  1001,
  0,
  -3,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  { nested: 1 },
  ['x'],
];
const quantities: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  0,
  5,
  -1,
  1.5,
  -1.5,
  'abc',
  '2,5',
  Infinity,
  NaN,
  true,
  1e21,
  2 ** 53,
  2 ** 53 - 1,
];
const moneys: unknown[] = [
  undefined,
  null,
  '',
  0,
  19.99,
  19.999,
  1.005,
  -1,
  -1.555,
  -0,
  'abc',
  Infinity,
  -Infinity,
  NaN,
  false,
  1e21,
];

/**
 * The whole product of the awkward values is 23,120 records, each judged four times: about 50 s on a busy machine.
 * The suite judges a seeded sample of it, every value of every field included; `npm run test:exhaustive` (nightly,
 * or after a change to the stock rules) judges all of it. The seed is in the test's title, so a failure replays.
 */
const exhaustive = process.env.B2BCTL_EXHAUSTIVE === '1';
const sampleSeed = Number(process.env.B2BCTL_SEED ?? 20261128);
const warehouses = [codes[0], codes[4], codes[6], codes[9], codes[15]];

/** Every combination, or a seeded sample of them in which each value of each field appears at least once. */
function* combinations(): Generator<[unknown, unknown, unknown, unknown, unknown]> {
  if (exhaustive) {
    let index = 0;
    for (const sku of codes)
      for (const quantity of quantities)
        for (const price of moneys)
          for (const warehouse of warehouses)
            yield [sku, quantity, price, moneys[(index++ * 7) % moneys.length], warehouse];
    return;
  }
  const random = seededRandom(sampleSeed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T;
  const longest = Math.max(codes.length, quantities.length, moneys.length);
  for (let index = 0; index < 1500; index++) {
    // The first rounds walk each field through all its values, the others drawn at random.
    const walk = <T>(values: readonly T[]) => (index < longest ? (values[index % values.length] as T) : pick(values));
    yield [walk(codes), walk(quantities), walk(moneys), pick(moneys), walk(warehouses)];
  }
}

describe('validateStockRow follows stockRowSchema', () => {
  it(`on ${exhaustive ? 'every combination' : `a sample (seed ${sampleSeed}) of the combinations`} of awkward values, with the default schema and a store schema`, () => {
    const storeSchema: StockSchema = {
      fields: { sku: 'codigo', quantity: 'qtd', price: 'preco', salePrice: 'promo', warehouse: 'deposito' },
    };
    let compared = 0;
    for (const [sku, quantity, price, salePrice, warehouse] of combinations()) {
      const record = { sku, quantity, price, salePrice, warehouse };
      expect(validateStockRow(record)).toEqual(judgedByZod(record));
      expect(validateStockRow(record, storeSchema)).toEqual(judgedByZod(record, storeSchema));
      compared++;
    }
    expect(compared).toBe(exhaustive ? codes.length * quantities.length * moneys.length * warehouses.length : 1500);
  });

  it('on every money value in both price fields', () => {
    for (const price of moneys)
      for (const salePrice of moneys) {
        const record = { sku: 'A', quantity: 1, price, salePrice };
        expect(validateStockRow(record)).toEqual(judgedByZod(record));
      }
  });
});
