/**
 * The callback's answer written as JSON bytes in one pass over the cart: each item read through the shape, its
 * taxes worked out in whole centavos, its JSON and the totals written as it goes, with no record, item, answer
 * object or string in between. Only carts the general path (itemRecord, checkTaxItem, quoteItems, taxTotals,
 * JSON.stringify) answers through its safe integers are taken; for anything else (a value to refuse or to read
 * otherwise, an item without a row, an amount that does not fit) this returns undefined and the general path
 * answers. Held to the general path, byte for byte, by test/unit/tax/answer-bytes.test.ts
 * (docs/decisions/0023-tax-callback-one-pass.md).
 */
import { centavoTaxes, type CentavoTaxes, type PreparedRule, preparedRule } from '../domain/tax/fast-taxes.js';
import type { RuleKey, TaxRule, TaxTable } from '../domain/tax/rules.js';
import { product, sum } from '../domain/tax/scaled.js';
import type { TaxSale } from '../domain/tax/terms.js';
import { asciiText, type CartScan, itemSlot, itemSlots, Token } from './cart-scan.js';
import { JsonBytes } from './json-bytes.js';
import { type Reader, requestReaders, type TaxShape } from './shape.js';

/** One writer for every answer: the server answers one cart at a time, and each answer is copied out. */
const writer = new JsonBytes();
const encoded = (text: string): Uint8Array => Buffer.from(text, 'utf8');

/** The answer's JSON for a cart whose every item is read and computed on the fast path; else undefined. */
export function answerBytes(
  items: readonly unknown[],
  find: (ncm: string) => TaxRule | undefined,
  sale: TaxSale,
  shape: TaxShape,
): Buffer | undefined {
  const frame = answerFrame(shape.answer);
  if (frame === undefined) return undefined;
  const readers = requestReaders(shape.request);
  const totals = new CentavoTotals();
  writer.clear();
  writer.fragment(frame.opening);
  for (let index = 0; index < items.length; index++) {
    if (index > 0) writer.fragment(part.comma);
    if (!writeItem(items[index], readers, find, sale, totals)) return undefined;
  }
  writer.fragment(frame.between);
  if (!totals.write()) return undefined;
  writer.fragment(part.closing);
  return writer.bytes();
}

/** One item's answer written, its taxes added to the totals; false when the general path must answer. */
function writeItem(
  item: unknown,
  readers: Record<keyof TaxShape['request'], Reader>,
  find: (ncm: string) => TaxRule | undefined,
  sale: TaxSale,
  totals: CentavoTotals,
): boolean {
  const ncm = ncmOf(readers.ncm(item));
  const sku = skuOf(readers.sku(item));
  if (ncm === undefined || sku === undefined) return false;
  const quantity = quantityOf(readers.quantity(item));
  const price = readers.unitPrice(item);
  // No price, or one that is no amount: the general path refuses it (a price of 0 is written 0).
  const unitPrice = price === undefined || price === null || price === '' ? Number.NaN : centavosOfAmount(price);
  const discount = centavosOfAmount(readers.discount(item));
  const freight = centavosOfAmount(readers.freight(item));
  if (Number.isNaN(quantity + unitPrice + discount + freight)) return false;
  const rule = find(ncm);
  if (rule === undefined) return false;
  const merchandise = sum(product(unitPrice, quantity), -discount);
  // A discount above the line's value: the general path refuses the item.
  if (!(merchandise >= 0)) return false;
  const row = rowPartsOf(rule);
  const taxes = centavoTaxes(row.prepared, merchandise, freight, sale);
  if (taxes === undefined) return false;
  totals.add(taxes);
  writeTaxes(sku, ncm, row.rates, taxes);
  return true;
}

/** The fixed parts of an item's JSON, encoded once. */
const part = {
  comma: encoded(','),
  opening: encoded('{'),
  closing: encoded('}'),
  sku: encoded('{"sku":'),
  /** The SKU's opening and closing around its text copied from the cart (a JSON string as it came). */
  skuText: encoded('{"sku":"'),
  quoteComma: encoded('",'),
  ncm: encoded('"ncm":"'),
  merchandise: encoded('","merchandise":"'),
  ipi: encoded('","ipi":{"base":"'),
  icms: encoded('"},"icms":{"base":"'),
  added: encoded('"},"added":"'),
  icmsSt: encoded(',"icmsSt":{"base":"'),
  mva: encoded('","mva":'),
  difal: encoded(',"difal":{"base":"'),
  fcp: encoded('"},"fcp":{"base":"'),
  quoteClosing: encoded('"}'),
  quote: encoded('"'),
};

/** The parts of an item's JSON that carry a row's rates, encoded once per row. */
interface RateParts {
  ipi: Uint8Array;
  icms: Uint8Array;
  destination: Uint8Array;
  fcp: Uint8Array;
}

/**
 * What a row fixes for each of its items: its prepared fractions and its encoded rates, found with one look by the
 * row (a look a map keyed by objects costs about 1% of a cart's CPU).
 */
const rowParts = new WeakMap<TaxRule, { prepared: PreparedRule; rates: RateParts }>();

function rowPartsOf(rule: TaxRule): { prepared: PreparedRule; rates: RateParts } {
  let parts = rowParts.get(rule);
  if (parts === undefined) {
    const rate = (value: string) => encoded(`","rate":${JSON.stringify(value)},"value":"`);
    const rates = {
      ipi: rate(rule.ipiRate),
      icms: rate(rule.icmsRate),
      destination: rate(rule.destinationRate),
      fcp: rate(rule.fcpRate),
    };
    parts = { prepared: preparedRule(rule), rates };
    rowParts.set(rule, parts);
  }
  return parts;
}

/** The JSON JSON.stringify writes for the general path's item object: the same keys in the same order. */
function writeTaxes(sku: string | number, ncm: string, rate: RateParts, taxes: CentavoTaxes): void {
  if (sku === '') writer.fragment(part.opening);
  else {
    writer.fragment(part.sku);
    // A SKU sent as a JSON number goes back a number, as the general path gives it back (skusAsSent).
    if (typeof sku === 'number') writer.ascii(String(sku));
    else writer.string(sku);
    writer.fragment(part.comma);
  }
  writer.fragment(part.ncm);
  writer.ascii(ncm);
  writeTaxParts(rate, taxes);
}

/** The item's JSON after its NCM's text: its merchandise and taxes, to its closing brace. */
function writeTaxParts(rate: RateParts, taxes: CentavoTaxes): void {
  writer.fragment(part.merchandise);
  writer.money(taxes.merchandise);
  writer.fragment(part.ipi);
  writer.money(taxes.operation);
  writer.fragment(rate.ipi);
  writer.money(taxes.ipi);
  writer.fragment(part.icms);
  writer.money(taxes.icmsBase);
  writer.fragment(rate.icms);
  writer.money(taxes.icms);
  writer.fragment(part.added);
  writer.money(taxes.added);
  writer.fragment(part.quote);
  if (taxes.st !== undefined) {
    writer.fragment(part.icmsSt);
    writer.money(taxes.st.base);
    writer.fragment(rate.destination);
    writer.money(taxes.st.value);
    writer.fragment(part.mva);
    writer.string(taxes.st.mva);
    writer.fragment(part.closing);
  }
  if (taxes.destinationBase !== undefined) {
    writer.fragment(part.difal);
    writer.money(taxes.destinationBase);
    writer.fragment(rate.destination);
    writer.money(taxes.difal as number);
    writer.fragment(part.fcp);
    writer.money(taxes.destinationBase);
    writer.fragment(rate.fcp);
    writer.money(taxes.fcp as number);
    writer.fragment(part.quoteClosing);
  }
  writer.fragment(part.closing);
}

const totalParts = ['merchandise', 'ipi', 'icms', 'icmsSt', 'difal', 'fcp', 'added'].map((name, index) =>
  encoded(`${index === 0 ? '{' : '",'}"${name}":"`),
);

/** The cart's totals in centavos, as taxTotals sums them. */
class CentavoTotals {
  private merchandise = 0;
  private ipi = 0;
  private icms = 0;
  private icmsSt = 0;
  private difal = 0;
  private fcp = 0;
  private added = 0;

  add(taxes: CentavoTaxes): void {
    this.merchandise = sum(this.merchandise, taxes.merchandise);
    this.ipi = sum(this.ipi, taxes.ipi);
    this.icms = sum(this.icms, taxes.icms);
    if (taxes.st !== undefined) this.icmsSt = sum(this.icmsSt, taxes.st.value);
    if (taxes.difal !== undefined) this.difal = sum(this.difal, taxes.difal);
    if (taxes.fcp !== undefined) this.fcp = sum(this.fcp, taxes.fcp);
    this.added = sum(this.added, taxes.added);
  }

  /** The totals' JSON written; false when a sum did not fit. */
  write(): boolean {
    const all = [this.merchandise, this.ipi, this.icms, this.icmsSt, this.difal, this.fcp, this.added];
    if (all.some(Number.isNaN)) return false;
    for (const [index, value] of all.entries()) {
      writer.fragment(totalParts[index] as Uint8Array);
      writer.money(value);
    }
    writer.fragment(part.quoteClosing);
    return true;
  }
}

/** The answer's text around its items and totals; undefined where JSON.stringify would order or merge the names. */
const frames = new WeakMap<TaxShape['answer'], { opening: Uint8Array; between: Uint8Array } | undefined>();

function answerFrame(answer: TaxShape['answer']): { opening: Uint8Array; between: Uint8Array } | undefined {
  if (frames.has(answer)) return frames.get(answer);
  // An index-like name ("0") comes first in an object, and two equal names are one: the general path handles those.
  const keys = Object.keys({ [answer.items]: 0, [answer.totals]: 0 });
  const frame =
    keys.length === 2 && keys[0] === answer.items
      ? {
          opening: encoded(`{${JSON.stringify(answer.items)}:[`),
          between: encoded(`],${JSON.stringify(answer.totals)}:`),
        }
      : undefined;
  frames.set(answer, frame);
  return frame;
}

// The readers below accept a subset of what checkTaxItem accepts, reading the same value from it; anything
// else is undefined or NaN, and the general path checks it (and words the refusal).

/** An NCM of 8 digits as text, or an 8-digit whole number. */
function ncmOf(value: unknown): string | undefined {
  if (typeof value === 'number')
    return Number.isInteger(value) && value >= 1e7 && value < 1e8 ? String(value) : undefined;
  if (typeof value !== 'string' || value.length !== 8) return undefined;
  for (let index = 0; index < 8; index++) {
    const code = value.charCodeAt(index);
    if (code < 48 || code > 57) return undefined;
  }
  return value;
}

/** A whole quantity above 0; NaN for anything else (a fraction of a unit, text). */
function quantityOf(value: unknown): number {
  // Past 15 digits the general path refuses a quantity (checkCartItem): a double may have rounded it.
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 1e15 ? value : Number.NaN;
}

/**
 * An amount in whole centavos: a JSON number or decimal text with at most two decimals, under 10^12; absent is 0.
 * A number's value is the decimal JavaScript writes for it (String(n), as checkTaxItem reads it): below 10^12 a
 * double holds every amount of two decimals apart from its neighbours, so n × 100 rounded, divided back, is n
 * exactly when that decimal has at most two decimals.
 */
function centavosOfAmount(value: unknown): number {
  if (typeof value === 'number') {
    if (!(value >= 0 && value < 1e12)) return Number.NaN;
    const centavos = Math.round(value * 100);
    return centavos / 100 === value ? centavos + 0 : Number.NaN;
  }
  if (typeof value === 'string') return centavosOfText(value.trim());
  // Absent is 0 (no discount, no freight); null, true, an object or a list are left to the general path to refuse.
  return value === undefined ? 0 : Number.NaN;
}

/** `1234`, `1234.5`, `1234,50` in whole centavos; NaN for anything else, or more than 12 whole digits. */
function centavosOfText(text: string): number {
  if (text === '') return 0;
  let whole = 0;
  let index = 0;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) break;
    whole = whole * 10 + (code - 48);
  }
  if (index === 0 || index > 12) return Number.NaN;
  if (index === text.length) return whole * 100;
  const separator = text.charCodeAt(index);
  const decimals = text.length - index - 1;
  if ((separator !== 46 && separator !== 44) || decimals < 1 || decimals > 2) return Number.NaN;
  let fraction = 0;
  for (let at = index + 1; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 48 || code > 57) return Number.NaN;
    fraction = fraction * 10 + (code - 48);
  }
  return whole * 100 + (decimals === 1 ? fraction * 10 : fraction);
}

/**
 * The SKU as the answer gives it back: text trimmed, a whole number under 10^15 as the number it is; empty when there
 * is none. Undefined for anything else (an object, a list, a number a double may have rounded): the general path
 * refuses it (jsonSkuProblem).
 */
function skuOf(value: unknown): string | number | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e15 ? value : undefined;
  return value === undefined || value === null ? '' : undefined;
}

/**
 * The answer's JSON for a cart read by its bytes (cart-scan.ts), as answerBytes writes it for the same cart parsed;
 * undefined where answerBytes would decline, or where a value is in a form only the parse reads (the cart is then
 * parsed and answered as before).
 */
export function answerScanned(
  scan: CartScan,
  rows: TableRows,
  saleNumber: number,
  sale: TaxSale,
  shape: TaxShape,
): Buffer | undefined {
  const frame = answerFrame(shape.answer);
  const count = scan.itemCount;
  if (frame === undefined || count === 0) return undefined;
  const slots = scan.items;
  const source = scan.source;
  const totals = new CentavoTotals();
  writer.clear();
  writer.fragment(frame.opening);
  for (let index = 0, item = 0; index < count; index++, item += itemSlots) {
    if (index > 0) writer.fragment(part.comma);
    const ncm = scannedNcm(source, slots, item + itemSlot.ncm);
    const quantity = scannedQuantity(source, slots, item + itemSlot.quantity);
    const price = item + itemSlot.unitPrice;
    // No price, or an empty text: the general path refuses it (as answerBytes leaves it).
    const noPrice =
      slots[price] === Token.Absent || (slots[price] === Token.Text && slots[price + 1] === slots[price + 2]);
    const unitPrice = noPrice ? Number.NaN : scannedAmount(scan, slots, price);
    const discount = scannedAmount(scan, slots, item + itemSlot.discount);
    const freight = scannedAmount(scan, slots, item + itemSlot.freight);
    if (Number.isNaN(ncm + quantity + unitPrice + discount + freight)) return undefined;
    const row = rows.rowOf(saleNumber, ncm, source, slots[item + itemSlot.ncm + 1] as number);
    if (row === undefined) return undefined;
    const merchandise = sum(product(unitPrice, quantity), -discount);
    if (!(merchandise >= 0)) return undefined;
    const taxes = centavoTaxes(row.prepared, merchandise, freight, sale);
    if (taxes === undefined) return undefined;
    totals.add(taxes);
    if (!writeScannedSku(source, slots, item + itemSlot.sku)) return undefined;
    writer.fragment(part.ncm);
    writer.copied(source, slots[item + itemSlot.ncm + 1] as number, 8);
    writeTaxParts(row.rates, taxes);
  }
  writer.fragment(frame.between);
  if (!totals.write()) return undefined;
  writer.fragment(part.closing);
  return writer.bytes();
}

/** The SKU's part of the item's JSON (skuOf's text, trimmed; none when absent or blank); false for another form. */
function writeScannedSku(source: Uint8Array, slots: Int32Array, slot: number): boolean {
  const token = slots[slot];
  if (token === Token.Absent || token === Token.Null) {
    writer.fragment(part.opening);
    return true;
  }
  // A SKU number, or text with an escape: read from the parse, as the general path gives it back.
  if (token !== Token.Text) return false;
  let start = slots[slot + 1] as number;
  let end = slots[slot + 2] as number;
  // Printable ASCII holds one blank that trim() removes: the space.
  while (start < end && source[start] === 32) start++;
  while (end > start && source[end - 1] === 32) end--;
  if (start === end) writer.fragment(part.opening);
  else {
    writer.fragment(part.skuText);
    writer.copied(source, start, end - start);
    writer.fragment(part.quoteComma);
  }
  return true;
}

/**
 * ncmOf of a scanned value (8 digits as text, or an 8-digit whole number) as the number its digits write, which
 * keys it among the sale's rows; else NaN.
 */
function scannedNcm(source: Uint8Array, slots: Int32Array, slot: number): number {
  const token = slots[slot];
  const start = slots[slot + 1] as number;
  if ((token !== Token.Text && token !== Token.Number) || (slots[slot + 2] as number) - start !== 8) return Number.NaN;
  let digits = 0;
  for (let at = start; at < start + 8; at++) {
    const byte = source[at] as number;
    if (byte < 48 || byte > 57) return Number.NaN;
    digits = digits * 10 + (byte - 48);
  }
  return digits;
}

/** What answerScanned needs of a row: its prepared fractions and its encoded rates. */
type RowParts = ReturnType<typeof rowPartsOf>;

/** Slots of a TableRows: 16,384, by a hash of the sale and the NCM's digits. */
const rowSlotBits = 14;

/**
 * The rows of one version of the table by sale (its states and buyer) and by the 8 digits of an item's NCM: the
 * table's look-up (the NCM's text made, its hash, a probe of the prefixes' map, then of the row's parts) done once for
 * a sale's NCM rather than for every item of every cart, in a table of the last ones met (16,384 slots, ~160 KB for
 * the table version, however many sales it answers; one met after another of the same slot takes its place). A table
 * changed since (a row added) is looked up afresh. Only rows found are kept: an NCM without one leaves the cart to the
 * general path, which words it.
 */
export class TableRows {
  private readonly digits = new Int32Array(1 << rowSlotBits).fill(-1);
  private readonly sales = new Int16Array(1 << rowSlotBits);
  private readonly rows: (RowParts | undefined)[] = Array.from({ length: 1 << rowSlotBits }, () => undefined);
  /** Each sale met, by its key, and its finder in the table by its number. */
  private readonly saleNumbers = new Map<string, number>();
  private readonly finders: ((ncm: string) => TaxRule | undefined)[] = [];
  private readonly table: TaxTable;
  private readonly size: number;

  constructor(table: TaxTable) {
    this.table = table;
    this.size = table.size;
  }

  /** Whether the table is as it was when these rows were found. */
  get current(): boolean {
    return this.table.size === this.size;
  }

  /** The number of a sale among those met (27 × 27 states × 2 buyers at most), for rowOf. */
  saleOf(sale: Omit<RuleKey, 'ncm'>): number {
    const key = `${sale.from}|${sale.to}|${sale.buyer}`;
    let number = this.saleNumbers.get(key);
    if (number === undefined) {
      number = this.finders.push(this.table.finderFor(sale)) - 1;
      this.saleNumbers.set(key, number);
    }
    return number;
  }

  /**
   * The row of a sale's 8-digit NCM, and its parts; undefined when the table has none. `ncm` is the number its digits
   * write, which its digits at `start` in `source` spell with any leading zero (`01012100`, a horse).
   */
  rowOf(sale: number, ncm: number, source: Uint8Array, start: number): RowParts | undefined {
    const slot = Math.imul(ncm ^ Math.imul(sale + 1, 0x27d4eb2d), 0x9e3779b1) >>> (32 - rowSlotBits);
    if (this.digits[slot] === ncm && this.sales[slot] === sale) return this.rows[slot];
    const rule = (this.finders[sale] as (ncm: string) => TaxRule | undefined)(asciiText(source, start, start + 8));
    if (rule === undefined) return undefined;
    const row = rowPartsOf(rule);
    this.digits[slot] = ncm;
    this.sales[slot] = sale;
    this.rows[slot] = row;
    return row;
  }
}

/** quantityOf of a scanned value: a whole number of up to 15 digits above 0; NaN for anything else. */
function scannedQuantity(source: Uint8Array, slots: Int32Array, slot: number): number {
  if (slots[slot] !== Token.Number) return Number.NaN;
  const start = slots[slot + 1] as number;
  const end = slots[slot + 2] as number;
  if (end - start > 15) return Number.NaN;
  let value = 0;
  for (let at = start; at < end; at++) {
    const byte = source[at] as number;
    // A sign, a point or an exponent: the parse reads it.
    if (byte < 48 || byte > 57) return Number.NaN;
    value = value * 10 + (byte - 48);
  }
  return value > 0 ? value : Number.NaN;
}

/**
 * centavosOfAmount of a scanned value: a number of up to 12 whole digits and 2 decimals, or text as centavosOfText
 * reads it; absent is 0; NaN for anything else.
 */
function scannedAmount(scan: CartScan, slots: Int32Array, slot: number): number {
  const token = slots[slot];
  if (token === Token.Absent) return 0;
  const start = slots[slot + 1] as number;
  const end = slots[slot + 2] as number;
  if (token === Token.Text) return centavosOfText(scan.textOf(start, end).trim());
  if (token !== Token.Number) return Number.NaN;
  const source = scan.source;
  let whole = 0;
  let at = start;
  for (; at < end; at++) {
    const byte = source[at] as number;
    if (byte < 48 || byte > 57) break;
    whole = whole * 10 + (byte - 48);
  }
  // A sign, or more than 12 whole digits (10^12 and above, which the parse refuses to read as centavos).
  if (at === start || at - start > 12) return Number.NaN;
  if (at === end) return whole * 100;
  const decimals = end - at - 1;
  if (source[at] !== 46 || decimals < 1 || decimals > 2) return Number.NaN;
  let fraction = 0;
  for (let digit = at + 1; digit < end; digit++) {
    const byte = source[digit] as number;
    // An exponent: the parse reads it.
    if (byte < 48 || byte > 57) return Number.NaN;
    fraction = fraction * 10 + (byte - 48);
  }
  return whole * 100 + (decimals === 1 ? fraction * 10 : fraction);
}
