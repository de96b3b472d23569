/**
 * Stock and price rows: the item the CLI reads from a file and the sandbox reads from a request,
 * its rules in the platform's wording, and the schema that maps our field names to a store's. Pure.
 *
 * The platform document does not show the item fields; this item is our assumption (README).
 */
import { z } from 'zod';
import { numberTextReason, type TextKind } from './spreadsheet-numbers.js';
import { fieldProblem, type FieldProblem, type RecordVerdict } from './validation.js';
import { isJsonNumber, jsonFieldPrefixes, jsonString } from '../lib/json-text.js';

/** One stock and price line, with our canonical field names. */
export interface StockItem {
  sku: string;
  /** Units in stock: a whole number of 0 or more. */
  quantity: number;
  /** List price: 0 or more, at most 2 decimals. */
  price?: number;
  /**
   * Sale (promotional) price: 0 or more, at most 2 decimals; null ends the promotion (an empty cell of a salePrice
   * column, a JSON null), absent keeps the platform's (decision 0030).
   */
  salePrice?: number | null;
  /** Branch or warehouse code; absent for the store's default stock. */
  warehouse?: string;
}

export type StockField = keyof StockItem;

/** The canonical fields, in the order the README, reports and wire items list them. */
export const stockFields: readonly StockField[] = ['sku', 'quantity', 'price', 'salePrice', 'warehouse'];

/** How a reader should type each field's cell before validation. */
export const stockFieldTypes: Record<StockField, 'string' | 'integer' | 'number'> = {
  sku: 'string',
  quantity: 'integer',
  price: 'number',
  salePrice: 'number',
  warehouse: 'string',
};

/** What a spreadsheet's cell spoils in each text field (see TextKind): a SKU is a code; a warehouse is named freely. */
export const stockTextKinds: Readonly<Partial<Record<StockField, TextKind>>> = { sku: 'code' };

/** Items per request on `PUT /v1/stock/batch`. */
export const batchRouteMaxItems = 50;
/** Items per request on `POST /api/v1/stocks/batch`. */
export const queueRouteMaxItems = 200;

/** Reasons name the field through this placeholder, so a store's own field names can be shown. */
const fieldPlaceholder = '{field}';

const wholeNumberReason = `${fieldPlaceholder} must be a whole number of 0 or more`;

/** A number's reason for text with more digits than a number holds, naming the field, or undefined. */
function manyDigitsReason(value: unknown): string | undefined {
  const reason = numberTextReason(value);
  return reason === undefined ? undefined : `${fieldPlaceholder} ${reason}`;
}

// Blank cells and JSON nulls are absent fields, never empty values (docs/input-files.md); but a sale price's: below.
function absentWhenBlank(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

// Codes are compared after trimming; a JSON number such as 1001 is the code "1001".
function codeText(value: unknown): unknown {
  // A cell's text trimmed once (absentWhenBlank's blank test and the trim were two passes on every code of every row).
  if (typeof value === 'string') {
    const code = value.trim();
    return code === '' ? undefined : code;
  }
  if (value === null) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return value;
}

// Control characters would be invisible in reports and would break stockKey's separator.
// oxlint-disable-next-line no-control-regex -- matching them is the point
const controlCharacters = /[\u0000-\u001f\u007f]/;

function codeSchema() {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined ? `${fieldPlaceholder} is required` : `${fieldPlaceholder} must be text`,
    })
    .refine((code) => !controlCharacters.test(code), {
      error: `${fieldPlaceholder} must not contain control characters`,
    });
}

/** Exactly representable with 2 decimals: 19.99 is, 19.999 and 1.005 are not. */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isInteger(value) || Math.round(value * 100) / 100 === value;
}

const moneyTypeReason = `${fieldPlaceholder} must be a number of 0 or more with at most 2 decimals, such as 1234.56`;
const moneyNegativeReason = `${fieldPlaceholder} must be 0 or more`;
const moneyPrecisionReason = `${fieldPlaceholder} must have at most 2 decimals`;

const moneySchema = z
  .number({ error: (issue) => manyDigitsReason(issue.input) ?? moneyTypeReason })
  .min(0, { error: moneyNegativeReason })
  .refine(hasAtMostTwoDecimals, { error: moneyPrecisionReason })
  .optional();

// Cells are normalised by hand rather than with z.preprocess, which costs five times as much on a
// million-row file (the CLI and the sandbox both validate every row).
/**
 * The stock row rules as a zod schema: the reference that validateStockRow's plain checks follow
 * (test/unit/domain/stock-plain-rules.test.ts holds them to it on every kind of value).
 */
export const stockRowSchema = z.object({
  sku: codeSchema(),
  quantity: z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? `${fieldPlaceholder} is required`
          : (manyDigitsReason(issue.input) ?? wholeNumberReason),
    })
    .int({ error: wholeNumberReason })
    .min(0, { error: wholeNumberReason }),
  price: moneySchema,
  salePrice: moneySchema,
  warehouse: codeSchema().optional(),
});

/**
 * Checks one record against the stock row rules and returns the item, or every problem of the row.
 * Numeric fields must arrive as numbers: a string there (`abc`, `2,5`) is a value the reader could
 * not parse. Fields outside the item are ignored. With a schema, problems name the store's fields.
 *
 * The rules of stockRowSchema as plain checks: zod's object machinery on each of a million rows was
 * the larger part of validating them. Reasons and their order are the schema's.
 */
export function validateStockRow(
  record: Record<string, unknown>,
  schema: StockSchema = defaultStockSchema,
  /** The file has a salePrice column, whose empty cell the reader left out of `record`: it ends the promotion. */
  salePriceColumn = false,
): RecordVerdict<StockItem> {
  const sku = codeText(record.sku);
  const quantity = absentWhenBlank(record.quantity);
  const price = absentWhenBlank(record.price);
  const salePriceCell = record.salePrice;
  const salePrice = absentWhenBlank(salePriceCell);
  const warehouse = codeText(record.warehouse);
  const skuReason = codeReason(sku, true);
  const quantityReason = quantityReasonOf(quantity);
  const priceReason = moneyReason(price);
  const salePriceReason = moneyReason(salePrice);
  const warehouseReason = codeReason(warehouse, false);
  if (
    skuReason === undefined &&
    quantityReason === undefined &&
    priceReason === undefined &&
    salePriceReason === undefined &&
    warehouseReason === undefined
  ) {
    const value: StockItem = { sku: sku as string, quantity: quantity as number };
    if (price !== undefined) value.price = price as number;
    if (salePrice !== undefined) value.salePrice = salePrice as number;
    // Given but empty (a null, a blank cell of the column) is no sale price: null ends the promotion on the platform.
    else if (salePriceCell !== undefined || salePriceColumn) value.salePrice = null;
    if (warehouse !== undefined) value.warehouse = warehouse as string;
    return { ok: true, value };
  }
  const problems: FieldProblem[] = [];
  const add = (field: StockField, reason: string | undefined) => {
    if (reason === undefined) return;
    const name = schema.fields[field];
    problems.push(validationProblem(name, record[field], reason.replaceAll(fieldPlaceholder, name)));
  };
  add('sku', skuReason);
  add('quantity', quantityReason);
  add('price', priceReason);
  add('salePrice', salePriceReason);
  add('warehouse', warehouseReason);
  return { ok: false, problems };
}

/** codeSchema()'s reason, or undefined when the code passes. */
function codeReason(code: unknown, required: boolean): string | undefined {
  if (code === undefined) return required ? `${fieldPlaceholder} is required` : undefined;
  if (typeof code !== 'string') return `${fieldPlaceholder} must be text`;
  return controlCharacters.test(code) ? `${fieldPlaceholder} must not contain control characters` : undefined;
}

/** The quantity rule's reason (one reason whatever fails: type, whole number, sign), or undefined. */
function quantityReasonOf(quantity: unknown): string | undefined {
  if (quantity === undefined) return `${fieldPlaceholder} is required`;
  if (typeof quantity !== 'number' || !Number.isFinite(quantity))
    return manyDigitsReason(quantity) ?? wholeNumberReason;
  return Number.isSafeInteger(quantity) && quantity >= 0 ? undefined : wholeNumberReason;
}

/** moneySchema's reasons joined as validateStockRow shows them, or undefined when absent or good. */
function moneyReason(money: unknown): string | undefined {
  if (money === undefined) return undefined;
  if (typeof money !== 'number' || !Number.isFinite(money)) return manyDigitsReason(money) ?? moneyTypeReason;
  const negative = money < 0;
  const tooPrecise = !hasAtMostTwoDecimals(money);
  if (negative && tooPrecise) return `${moneyNegativeReason}; ${moneyPrecisionReason}`;
  if (negative) return moneyNegativeReason;
  return tooPrecise ? moneyPrecisionReason : undefined;
}

/** A problem in the platform's 422 wording: `Property [field] with value [value] does not pass validation (reason)`. */
export function validationProblem(field: string, value: unknown, reason?: string): FieldProblem {
  const text = valueText(value);
  return fieldProblem(field, text, reason);
}

function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/**
 * The SKU and warehouse of a row read as the validation reads them (trimmed codes), even when the row is invalid
 * for another reason; undefined without a usable SKU.
 */
export function stockRowCodes(row: Record<string, unknown>): { sku: string; warehouse?: string } | undefined {
  const sku = codeText(row.sku);
  const warehouse = codeText(row.warehouse);
  if (typeof sku !== 'string' || sku === '') return undefined;
  return typeof warehouse === 'string' && warehouse !== '' ? { sku, warehouse } : { sku };
}

/**
 * A SKU as a platform that stores codes as numbers or in capitals may take it: the same but for case and leading
 * zeros (`123` for `00123`, `AB-7` for `ab-7`). b2bctl matches a platform's answers to the items sent so
 * (platform.md), and names two rows of one file that are the same so (stock-input.ts). Pure.
 */
export function looseSku(sku: string): string {
  if (alreadyLoose(sku)) return sku;
  return sku
    .trim()
    .toUpperCase()
    .replace(/^0+(?=.)/, '');
}

/**
 * True when looseSku would give the SKU back as it is: printable ASCII without lower case, no space at either end, no
 * leading zero before another character. Most SKUs are so; asked for each line of a file, it spares three passes.
 */
function alreadyLoose(sku: string): boolean {
  const last = sku.length - 1;
  if (last < 0 || sku.charCodeAt(0) === 32 || sku.charCodeAt(last) === 32) return false;
  if (last > 0 && sku.charCodeAt(0) === 48) return false;
  for (let index = 0; index <= last; index++) {
    const code = sku.charCodeAt(index);
    if (code < 32 || code > 126 || (code >= 97 && code <= 122)) return false;
  }
  return true;
}

/** The identity of a stock line: one SKU in one warehouse; the same key twice in a file is a duplicate. */
export function stockKey(item: { sku: string; warehouse?: string }): string {
  return `${item.sku}\u0000${item.warehouse ?? ''}`;
}

/** Which name each canonical field has on the wire for a store. */
export interface StockSchema {
  fields: Record<StockField, string>;
}

export const defaultStockSchema: StockSchema = {
  fields: { sku: 'sku', quantity: 'quantity', price: 'price', salePrice: 'salePrice', warehouse: 'warehouse' },
};

/** A `--schema` file that is not a complete, unambiguous mapping; `problems` lists every fault. */
export class StockSchemaError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid stock schema: ${problems.join('; ')}`);
    this.name = 'StockSchemaError';
    this.problems = problems;
  }
}

/**
 * Reads a user's schema: `{"fields":{"sku":"codigo",...}}` or the bare mapping `{"sku":"codigo",...}`.
 * Every canonical field must map to a non-empty name, and no two fields to the same name.
 */
export function parseStockSchema(json: unknown): StockSchema {
  const container = isPlainObject(json) && Object.hasOwn(json, 'fields') ? json.fields : json;
  if (!isPlainObject(container)) {
    throw new StockSchemaError([
      `expected an object such as ${JSON.stringify(defaultStockSchema.fields)}, got ${describeJson(container)}`,
    ]);
  }
  const problems: string[] = [];
  for (const key of Object.keys(container)) {
    if (!(stockFields as readonly string[]).includes(key)) {
      problems.push(`unknown field [${key}]; the fields are ${stockFields.join(', ')}`);
    }
  }
  const fields = {} as Record<StockField, string>;
  const fieldByName = new Map<string, StockField>();
  for (const field of stockFields) {
    const name = Object.hasOwn(container, field) ? container[field] : undefined;
    if (name === undefined) {
      problems.push(`field [${field}] is not mapped; give the store's name for it`);
    } else if (typeof name !== 'string' || name.trim() === '') {
      problems.push(`field [${field}] must map to a non-empty name, got ${describeJson(name)}`);
    } else if (name !== name.trim()) {
      problems.push(`field [${field}] maps to ${JSON.stringify(name)}, which has surrounding spaces`);
    } else if (name === '__proto__') {
      problems.push(`field [${field}] cannot map to __proto__`);
    } else {
      const other = fieldByName.get(name);
      if (other) problems.push(`fields [${other}] and [${field}] both map to [${name}]`);
      fieldByName.set(name, field);
      fields[field] = name;
    }
  }
  if (problems.length > 0) throw new StockSchemaError(problems);
  return { fields };
}

/** The item as the store expects it on the wire; absent optional fields are left out, a null sale price is sent. */
export function toWireItem(
  item: StockItem,
  schema: StockSchema = defaultStockSchema,
): Record<string, string | number | null> {
  const wire: Record<string, string | number | null> = {};
  for (const field of stockFields) {
    const value = item[field];
    if (value !== undefined) wire[schema.fields[field]] = value;
  }
  return wire;
}

/**
 * JSON.stringify(toWireItem(item, schema)), byte for byte, written with a template: JSON.stringify cost ~600 ns
 * an item on Node 20 (docs/decisions/0002-json-text.md). Anything a template cannot write
 * as JSON.stringify would (a schema name that is an array index, a number that is not finite) goes to it.
 */
export function wireItemJsonWriter(schema: StockSchema = defaultStockSchema): (item: StockItem) => string {
  const slow = (item: StockItem) => JSON.stringify(toWireItem(item, schema));
  const prefixes = jsonFieldPrefixes(stockFields.map((field) => schema.fields[field]));
  if (!prefixes) return slow;
  const [sku, quantity, price, salePrice, warehouse] = prefixes as [string, string, string, string, string];
  return (item) => {
    if (
      !isJsonNumber(item.quantity) ||
      (item.price !== undefined && !isJsonNumber(item.price)) ||
      (typeof item.salePrice === 'number' && !isJsonNumber(item.salePrice))
    )
      return slow(item);
    let text = `{${sku}${jsonString(item.sku)},${quantity}${item.quantity}`;
    if (item.price !== undefined) text += `,${price}${item.price}`;
    // A null sale price is written `null`, as JSON.stringify writes it.
    if (item.salePrice !== undefined) text += `,${salePrice}${item.salePrice}`;
    if (item.warehouse !== undefined) text += `,${warehouse}${jsonString(item.warehouse)}`;
    return `${text}}`;
  };
}

/** A wire object renamed to canonical fields, not yet validated (pass it to validateStockRow). */
export function fromWireItem(
  object: Record<string, unknown>,
  schema: StockSchema = defaultStockSchema,
): Partial<Record<StockField, unknown>> {
  const record: Partial<Record<StockField, unknown>> = {};
  for (const field of stockFields) {
    const name = schema.fields[field];
    if (Object.hasOwn(object, name)) record[field] = object[name];
  }
  return record;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return JSON.stringify(value);
}
