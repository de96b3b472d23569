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

describe('validateStockRow follows stockRowSchema', () => {
  it('on every combination of awkward values, with the default schema and a store schema', () => {
    const storeSchema: StockSchema = {
      fields: { sku: 'codigo', quantity: 'qtd', price: 'preco', salePrice: 'promo', warehouse: 'deposito' },
    };
    let compared = 0;
    for (const sku of codes)
      for (const quantity of quantities)
        for (const price of moneys)
          for (const warehouse of [codes[0], codes[4], codes[6], codes[9], codes[15]]) {
            const record = { sku, quantity, price, salePrice: moneys[(compared * 7) % moneys.length], warehouse };
            expect(validateStockRow(record)).toEqual(judgedByZod(record));
            expect(validateStockRow(record, storeSchema)).toEqual(judgedByZod(record, storeSchema));
            compared++;
          }
    expect(compared).toBe(codes.length * quantities.length * moneys.length * 5);
  });

  it('on every money value in both price fields', () => {
    for (const price of moneys)
      for (const salePrice of moneys) {
        const record = { sku: 'A', quantity: 1, price, salePrice };
        expect(validateStockRow(record)).toEqual(judgedByZod(record));
      }
  });
});
