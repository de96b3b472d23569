import { describe, expect, it } from 'vitest';
import {
  batchRouteMaxItems,
  defaultStockSchema,
  fromWireItem,
  hasAtMostTwoDecimals,
  looseSku,
  parseStockSchema,
  queueRouteMaxItems,
  stockFields,
  stockFieldTypes,
  stockKey,
  StockSchemaError,
  toWireItem,
  validateStockRow,
  type StockItem,
  type StockSchema,
} from '../../../src/domain/stock.js';

const property = (field: string, value: string, reason: string) =>
  `Property [${field}] with value [${value}] does not pass validation (${reason})`;

describe('validateStockRow: valid rows', () => {
  it.each<{ name: string; record: Record<string, unknown>; expected: StockItem }>([
    {
      name: 'sku and quantity only',
      record: { sku: 'PAR-SXT-M8X40-ZN', quantity: 120 },
      expected: { sku: 'PAR-SXT-M8X40-ZN', quantity: 120 },
    },
    {
      name: 'every field',
      record: { sku: 'DJ-MONO-C20', quantity: 35, price: 18.9, salePrice: 16.5, warehouse: 'CD-SP' },
      expected: { sku: 'DJ-MONO-C20', quantity: 35, price: 18.9, salePrice: 16.5, warehouse: 'CD-SP' },
    },
    {
      name: 'zero quantity and zero prices',
      record: { sku: 'A', quantity: 0, price: 0, salePrice: 0 },
      expected: { sku: 'A', quantity: 0, price: 0, salePrice: 0 },
    },
    {
      name: 'prices with 2 decimals',
      record: { sku: 'A', quantity: 1, price: 1234.56, salePrice: 19.99 },
      expected: { sku: 'A', quantity: 1, price: 1234.56, salePrice: 19.99 },
    },
    {
      name: 'price with 1 decimal',
      record: { sku: 'A', quantity: 1, price: 0.1 },
      expected: { sku: 'A', quantity: 1, price: 0.1 },
    },
    {
      name: 'a large whole price',
      record: { sku: 'A', quantity: 1, price: 1e21 },
      expected: { sku: 'A', quantity: 1, price: 1e21 },
    },
    {
      name: 'largest safe quantity',
      record: { sku: 'A', quantity: Number.MAX_SAFE_INTEGER },
      expected: { sku: 'A', quantity: Number.MAX_SAFE_INTEGER },
    },
    {
      name: 'blank optional cells are absent, but a blank sale price is none: it ends the promotion',
      record: { sku: 'A', quantity: 1, price: '', salePrice: '  ', warehouse: '' },
      expected: { sku: 'A', quantity: 1, salePrice: null },
    },
    {
      name: 'JSON nulls are absent, but a null sale price is none: it ends the promotion',
      record: { sku: 'A', quantity: 1, price: null, salePrice: null, warehouse: null },
      expected: { sku: 'A', quantity: 1, salePrice: null },
    },
    {
      name: 'codes are trimmed',
      record: { sku: '  A-1 ', quantity: 1, warehouse: ' CD-RJ\t' },
      expected: { sku: 'A-1', quantity: 1, warehouse: 'CD-RJ' },
    },
    {
      name: 'a numeric SKU from JSON is its digits',
      record: { sku: 100200, quantity: 1, warehouse: 3 },
      expected: { sku: '100200', quantity: 1, warehouse: '3' },
    },
    {
      name: 'other columns are ignored',
      record: { sku: 'A', quantity: 1, name: 'Parafuso', line: 7 },
      expected: { sku: 'A', quantity: 1 },
    },
  ])('$name', ({ record, expected }) => {
    const verdict = validateStockRow(record);
    expect(verdict).toEqual({ ok: true, value: expected });
    // Absent fields are left out, not set to undefined, so the item serialises as it reads.
    expect(verdict.ok && Object.keys(verdict.value)).toEqual(Object.keys(expected));
  });

  it('a file with a salePrice column: its empty cell (left out by the reader) ends the promotion; without it, kept', () => {
    expect(validateStockRow({ sku: 'A', quantity: 1 }, defaultStockSchema, true)).toEqual({
      ok: true,
      value: { sku: 'A', quantity: 1, salePrice: null },
    });
    expect(validateStockRow({ sku: 'A', quantity: 1, salePrice: 9 }, defaultStockSchema, true)).toEqual({
      ok: true,
      value: { sku: 'A', quantity: 1, salePrice: 9 },
    });
    expect(validateStockRow({ sku: 'A', quantity: 1 })).toEqual({ ok: true, value: { sku: 'A', quantity: 1 } });
  });
});

describe('validateStockRow: invalid rows', () => {
  it.each<{
    name: string;
    record: Record<string, unknown>;
    problems: { field: string; value: string; message: string }[];
  }>([
    {
      name: 'negative quantity',
      record: { sku: 'A', quantity: -3 },
      problems: [
        {
          field: 'quantity',
          value: '-3',
          message: property('quantity', '-3', 'quantity must be a whole number of 0 or more'),
        },
      ],
    },
    {
      name: 'quantity abc (unparsable, left as text by the reader)',
      record: { sku: 'A', quantity: 'abc' },
      problems: [
        {
          field: 'quantity',
          value: 'abc',
          message: property('quantity', 'abc', 'quantity must be a whole number of 0 or more'),
        },
      ],
    },
    {
      name: 'quantity 2,5 with a comma delimiter (left as text)',
      record: { sku: 'A', quantity: '2,5' },
      problems: [
        {
          field: 'quantity',
          value: '2,5',
          message: property('quantity', '2,5', 'quantity must be a whole number of 0 or more'),
        },
      ],
    },
    {
      name: 'quantity 2.5 (decimal comma read as a number)',
      record: { sku: 'A', quantity: 2.5 },
      problems: [
        {
          field: 'quantity',
          value: '2.5',
          message: property('quantity', '2.5', 'quantity must be a whole number of 0 or more'),
        },
      ],
    },
    {
      name: 'a numeric string is not a number: the reader parses numbers',
      record: { sku: 'A', quantity: '5' },
      problems: [
        {
          field: 'quantity',
          value: '5',
          message: property('quantity', '5', 'quantity must be a whole number of 0 or more'),
        },
      ],
    },
    {
      name: 'quantity beyond the safe integers',
      record: { sku: 'A', quantity: 2 ** 60 },
      problems: [
        {
          field: 'quantity',
          value: String(2 ** 60),
          message: property('quantity', String(2 ** 60), 'quantity must be a whole number of 0 or more'),
        },
      ],
    },
    {
      name: 'quantity missing',
      record: { sku: 'A' },
      problems: [{ field: 'quantity', value: '', message: property('quantity', '', 'quantity is required') }],
    },
    {
      name: 'quantity blank',
      record: { sku: 'A', quantity: ' ' },
      problems: [{ field: 'quantity', value: ' ', message: property('quantity', ' ', 'quantity is required') }],
    },
    {
      name: 'quantity Infinity',
      record: { sku: 'A', quantity: Number.POSITIVE_INFINITY },
      problems: [
        {
          field: 'quantity',
          value: 'Infinity',
          message: property('quantity', 'Infinity', 'quantity must be a whole number of 0 or more'),
        },
      ],
    },
    {
      name: 'sku missing',
      record: { quantity: 1 },
      problems: [{ field: 'sku', value: '', message: property('sku', '', 'sku is required') }],
    },
    {
      name: 'sku blank',
      record: { sku: '   ', quantity: 1 },
      problems: [{ field: 'sku', value: '   ', message: property('sku', '   ', 'sku is required') }],
    },
    {
      name: 'sku true',
      record: { sku: true, quantity: 1 },
      problems: [{ field: 'sku', value: 'true', message: property('sku', 'true', 'sku must be text') }],
    },
    {
      name: 'sku a decimal number',
      record: { sku: 12.5, quantity: 1 },
      problems: [{ field: 'sku', value: '12.5', message: property('sku', '12.5', 'sku must be text') }],
    },
    {
      name: 'sku with a control character',
      record: { sku: 'A\u0000B', quantity: 1 },
      problems: [
        {
          field: 'sku',
          value: 'A\u0000B',
          message: property('sku', 'A\u0000B', 'sku must not contain control characters'),
        },
      ],
    },
    {
      name: 'negative price',
      record: { sku: 'A', quantity: 1, price: -1 },
      problems: [{ field: 'price', value: '-1', message: property('price', '-1', 'price must be 0 or more') }],
    },
    {
      name: 'price with 3 decimals',
      record: { sku: 'A', quantity: 1, price: 12.345 },
      problems: [
        { field: 'price', value: '12.345', message: property('price', '12.345', 'price must have at most 2 decimals') },
      ],
    },
    {
      name: 'price 1.234,56 with a comma delimiter (left as text)',
      record: { sku: 'A', quantity: 1, price: '1.234,56' },
      problems: [
        {
          field: 'price',
          value: '1.234,56',
          message: property(
            'price',
            '1.234,56',
            'price must be a number of 0 or more with at most 2 decimals, such as 1234.56',
          ),
        },
      ],
    },
    {
      name: 'price NaN',
      record: { sku: 'A', quantity: 1, price: Number.NaN },
      problems: [
        {
          field: 'price',
          value: 'NaN',
          message: property(
            'price',
            'NaN',
            'price must be a number of 0 or more with at most 2 decimals, such as 1234.56',
          ),
        },
      ],
    },
    {
      name: 'negative price with 3 decimals: both reasons',
      record: { sku: 'A', quantity: 1, price: -1.555 },
      problems: [
        {
          field: 'price',
          value: '-1.555',
          message: property('price', '-1.555', 'price must be 0 or more; price must have at most 2 decimals'),
        },
      ],
    },
    {
      name: 'sale price with 3 decimals',
      record: { sku: 'A', quantity: 1, salePrice: 9.999 },
      problems: [
        {
          field: 'salePrice',
          value: '9.999',
          message: property('salePrice', '9.999', 'salePrice must have at most 2 decimals'),
        },
      ],
    },
    {
      name: 'warehouse an object',
      record: { sku: 'A', quantity: 1, warehouse: { code: 'CD' } },
      problems: [
        {
          field: 'warehouse',
          value: '{"code":"CD"}',
          message: property('warehouse', '{"code":"CD"}', 'warehouse must be text'),
        },
      ],
    },
    {
      name: 'every problem of the row, in field order',
      record: { warehouse: false, salePrice: 'x', price: -2, quantity: -3 },
      problems: [
        { field: 'sku', value: '', message: property('sku', '', 'sku is required') },
        {
          field: 'quantity',
          value: '-3',
          message: property('quantity', '-3', 'quantity must be a whole number of 0 or more'),
        },
        { field: 'price', value: '-2', message: property('price', '-2', 'price must be 0 or more') },
        {
          field: 'salePrice',
          value: 'x',
          message: property(
            'salePrice',
            'x',
            'salePrice must be a number of 0 or more with at most 2 decimals, such as 1234.56',
          ),
        },
        { field: 'warehouse', value: 'false', message: property('warehouse', 'false', 'warehouse must be text') },
      ],
    },
  ])('$name', ({ record, problems }) => {
    expect(validateStockRow(record)).toEqual({ ok: false, problems });
  });

  it('names the store fields when given its schema', () => {
    const schema: StockSchema = {
      fields: { sku: 'codigo', quantity: 'saldo', price: 'preco', salePrice: 'precoPromocional', warehouse: 'filial' },
    };
    expect(validateStockRow({ sku: 'A', quantity: -1, salePrice: 1.001 }, schema)).toEqual({
      ok: false,
      problems: [
        { field: 'saldo', value: '-1', message: property('saldo', '-1', 'saldo must be a whole number of 0 or more') },
        {
          field: 'precoPromocional',
          value: '1.001',
          message: property('precoPromocional', '1.001', 'precoPromocional must have at most 2 decimals'),
        },
      ],
    });
  });
});

describe('hasAtMostTwoDecimals', () => {
  it.each([
    [0, true],
    [19.99, true],
    [0.01, true],
    [1234.56, true],
    [0.1 + 0.2, false],
    [1.005, false],
    [19.999, false],
    [0.001, false],
    [1e21, true],
    [-12.34, true],
  ])('%d -> %s', (value, expected) => {
    expect(hasAtMostTwoDecimals(value)).toBe(expected);
  });
});

describe('looseSku', () => {
  it.each([
    ['ABC-1', 'ABC-1'],
    ['abc-1', 'ABC-1'],
    ['00777', '777'],
    ['0', '0'],
    ['000', '0'],
    [' 0A ', 'A'],
    ['\tX', 'X'],
    ['ção', 'ÇÃO'],
    ['', ''],
  ])('%j is %j', (sku, loose) => {
    expect(looseSku(sku)).toBe(loose);
  });

  it('gives back what trimming, capitals and leading zeros give, for any SKU (its shortcut for SKUs already so)', () => {
    const characters = ['0', '0', '1', 'a', 'Z', '-', ' ', '\t', 'ç', 'ß', '~', '\u007f'];
    let state = 11;
    for (let round = 0; round < 5000; round++) {
      let sku = '';
      for (let length = round % 7; length > 0; length--) {
        state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
        sku += characters[Math.floor((state / 2_147_483_648) * characters.length)];
      }
      expect({ sku, loose: looseSku(sku) }).toEqual({
        sku,
        loose: sku
          .trim()
          .toUpperCase()
          .replace(/^0+(?=.)/, ''),
      });
    }
  });
});

describe('stockKey', () => {
  it.each([
    {
      name: 'no warehouse and an empty warehouse are the default stock',
      a: { sku: 'A' },
      b: { sku: 'A', warehouse: undefined },
      same: true,
    },
    {
      name: 'same SKU in two warehouses',
      a: { sku: 'A', warehouse: 'CD-SP' },
      b: { sku: 'A', warehouse: 'CD-RJ' },
      same: false,
    },
    { name: 'same SKU, default and a warehouse', a: { sku: 'A' }, b: { sku: 'A', warehouse: 'CD-SP' }, same: false },
    { name: 'SKUs differ in case', a: { sku: 'a' }, b: { sku: 'A' }, same: false },
    {
      name: 'the separator cannot be forged by concatenation',
      a: { sku: 'AB', warehouse: 'C' },
      b: { sku: 'A', warehouse: 'BC' },
      same: false,
    },
    { name: 'same line', a: { sku: 'A', warehouse: 'CD-SP' }, b: { sku: 'A', warehouse: 'CD-SP' }, same: true },
  ])('$name', ({ a, b, same }) => {
    expect(stockKey(a) === stockKey(b)).toBe(same);
  });
});

describe('parseStockSchema', () => {
  const storeFields = {
    sku: 'codigo',
    quantity: 'saldo',
    price: 'preco',
    salePrice: 'precoPromocional',
    warehouse: 'filial',
  };

  it.each([
    { name: 'the bare mapping', json: storeFields },
    { name: 'the mapping under fields', json: { fields: storeFields } },
  ])('reads $name', ({ json }) => {
    expect(parseStockSchema(json)).toEqual({ fields: storeFields });
  });

  it('reads the default schema back as itself', () => {
    expect(parseStockSchema(defaultStockSchema)).toEqual(defaultStockSchema);
  });

  it.each<{ name: string; json: unknown; problems: string[] }>([
    {
      name: 'not an object',
      json: 'sku',
      problems: [
        'expected an object such as {"sku":"sku","quantity":"quantity","price":"price","salePrice":"salePrice","warehouse":"warehouse"}, got "sku"',
      ],
    },
    {
      name: 'an array',
      json: [],
      problems: [
        'expected an object such as {"sku":"sku","quantity":"quantity","price":"price","salePrice":"salePrice","warehouse":"warehouse"}, got an array',
      ],
    },
    {
      name: 'fields null',
      json: { fields: null },
      problems: [
        'expected an object such as {"sku":"sku","quantity":"quantity","price":"price","salePrice":"salePrice","warehouse":"warehouse"}, got null',
      ],
    },
    {
      name: 'a field not mapped',
      json: { ...storeFields, warehouse: undefined },
      problems: ["field [warehouse] is not mapped; give the store's name for it"],
    },
    {
      name: 'an empty name',
      json: { ...storeFields, price: ' ' },
      problems: ['field [price] must map to a non-empty name, got " "'],
    },
    {
      name: 'a name that is not text',
      json: { ...storeFields, quantity: 3 },
      problems: ['field [quantity] must map to a non-empty name, got 3'],
    },
    {
      name: 'a name with spaces around it',
      json: { ...storeFields, sku: ' codigo' },
      problems: ['field [sku] maps to " codigo", which has surrounding spaces'],
    },
    {
      name: 'two fields on one name',
      json: { ...storeFields, salePrice: 'preco' },
      problems: ['fields [price] and [salePrice] both map to [preco]'],
    },
    {
      name: 'an unknown field',
      json: { ...storeFields, stock: 'estoque' },
      problems: ['unknown field [stock]; the fields are sku, quantity, price, salePrice, warehouse'],
    },
    {
      name: '__proto__ as a name',
      json: { ...storeFields, sku: '__proto__' },
      problems: ['field [sku] cannot map to __proto__'],
    },
    {
      name: 'every problem at once',
      json: { sku: 'a', quantity: 'a', qty: 'b' },
      problems: [
        'unknown field [qty]; the fields are sku, quantity, price, salePrice, warehouse',
        'fields [sku] and [quantity] both map to [a]',
        "field [price] is not mapped; give the store's name for it",
        "field [salePrice] is not mapped; give the store's name for it",
        "field [warehouse] is not mapped; give the store's name for it",
      ],
    },
  ])('rejects $name', ({ json, problems }) => {
    let thrown: unknown;
    try {
      parseStockSchema(json);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StockSchemaError);
    expect((thrown as StockSchemaError).problems).toEqual(problems);
    expect((thrown as StockSchemaError).message).toBe(`Invalid stock schema: ${problems.join('; ')}`);
  });
});

describe('toWireItem and fromWireItem', () => {
  const schema: StockSchema = {
    fields: { sku: 'codigo', quantity: 'saldo', price: 'preco', salePrice: 'precoPromocional', warehouse: 'filial' },
  };

  it.each<{ name: string; item: StockItem; schema: StockSchema; wire: Record<string, unknown> }>([
    {
      name: 'default schema, every field',
      item: { sku: 'A', quantity: 2, price: 3.5, salePrice: 3, warehouse: 'CD' },
      schema: defaultStockSchema,
      wire: { sku: 'A', quantity: 2, price: 3.5, salePrice: 3, warehouse: 'CD' },
    },
    {
      name: 'default schema, absent fields left out',
      item: { sku: 'A', quantity: 0 },
      schema: defaultStockSchema,
      wire: { sku: 'A', quantity: 0 },
    },
    {
      name: "the store's names",
      item: { sku: 'A', quantity: 2, price: 3.5, salePrice: 3, warehouse: 'CD' },
      schema,
      wire: { codigo: 'A', saldo: 2, preco: 3.5, precoPromocional: 3, filial: 'CD' },
    },
    {
      name: "the store's names, absent fields left out",
      item: { sku: 'A', quantity: 2, warehouse: 'CD' },
      schema,
      wire: { codigo: 'A', saldo: 2, filial: 'CD' },
    },
    {
      name: "the store's names, a promotion ended: the sale price sent as null",
      item: { sku: 'A', quantity: 2, salePrice: null },
      schema,
      wire: { codigo: 'A', saldo: 2, precoPromocional: null },
    },
  ])('$name', ({ item, schema: itemSchema, wire }) => {
    expect(toWireItem(item, itemSchema)).toEqual(wire);
    expect(Object.keys(toWireItem(item, itemSchema))).toEqual(Object.keys(wire));
    const back = validateStockRow(fromWireItem(wire, itemSchema));
    expect(back).toEqual({ ok: true, value: item });
  });

  it('reads only the mapped names, and only own properties', () => {
    const wire = JSON.parse('{"codigo":"A","saldo":1,"sku":"B","quantity":9}') as Record<string, unknown>;
    expect(fromWireItem(wire, schema)).toEqual({ sku: 'A', quantity: 1 });
    const inherited = { fields: { ...schema.fields, warehouse: 'toString' } };
    expect(fromWireItem(wire, inherited)).toEqual({ sku: 'A', quantity: 1 });
  });

  it('keeps values it cannot validate, for validateStockRow to report', () => {
    expect(fromWireItem({ codigo: 7, saldo: '2,5', preco: null }, schema)).toEqual({
      sku: 7,
      quantity: '2,5',
      price: null,
    });
  });
});

describe('constants', () => {
  it('route limits are those of the platform document', () => {
    expect(batchRouteMaxItems).toBe(50);
    expect(queueRouteMaxItems).toBe(200);
  });

  it('every field has a type for the reader', () => {
    expect(Object.keys(stockFieldTypes)).toEqual([...stockFields]);
    expect(stockFieldTypes).toEqual({
      sku: 'string',
      quantity: 'integer',
      price: 'number',
      salePrice: 'number',
      warehouse: 'string',
    });
  });
});
