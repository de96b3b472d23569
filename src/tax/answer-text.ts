/**
 * The callback's answer written as JSON text in one pass over the cart: each item read through the shape, its taxes
 * worked out in whole centavos, its text and the totals written as it goes, with no record, item or answer object in
 * between. Only carts the general path (itemRecord, checkTaxItem, quoteItems, taxTotals, JSON.stringify) answers
 * through its safe integers are taken; for anything else (a value to refuse or to read otherwise, an item without a
 * row, an amount that does not fit) this returns undefined and the general path answers. Held to the general path,
 * byte for byte, by test/unit/tax/answer-text.test.ts.
 */
import { centavoTaxes, type CentavoTaxes, preparedRule } from '../domain/tax/fast-taxes.js';
import type { TaxRule } from '../domain/tax/rules.js';
import { moneyText, product, sum } from '../domain/tax/scaled.js';
import type { TaxSale } from '../domain/tax/terms.js';
import { type Reader, requestReaders, type TaxShape } from './shape.js';

/** The answer's JSON text for a cart whose every item is read and computed on the fast path; else undefined. */
export function answerText(
  items: readonly unknown[],
  find: (ncm: string) => TaxRule | undefined,
  sale: TaxSale,
  shape: TaxShape,
): string | undefined {
  const frame = answerFrame(shape.answer);
  if (frame === undefined) return undefined;
  const readers = requestReaders(shape.request);
  const totals = new CentavoTotals();
  let text = frame.opening;
  for (let index = 0; index < items.length; index++) {
    const written = itemText(items[index], readers, find, sale, totals);
    if (written === undefined) return undefined;
    text += index === 0 ? written : `,${written}`;
  }
  const totalsText = totals.text();
  return totalsText === undefined ? undefined : `${text}${frame.between}${totalsText}}`;
}

/** One item's answer as text, its taxes added to the totals; undefined when the general path must answer. */
function itemText(
  item: unknown,
  readers: Record<keyof TaxShape['request'], Reader>,
  find: (ncm: string) => TaxRule | undefined,
  sale: TaxSale,
  totals: CentavoTotals,
): string | undefined {
  const ncm = ncmOf(readers.ncm(item));
  if (ncm === undefined) return undefined;
  const quantity = quantityOf(readers.quantity(item));
  const unitPrice = centavosOfAmount(readers.unitPrice(item));
  const discount = centavosOfAmount(readers.discount(item));
  const freight = centavosOfAmount(readers.freight(item));
  if (Number.isNaN(quantity + unitPrice + discount + freight)) return undefined;
  const rule = find(ncm);
  if (rule === undefined) return undefined;
  const taxes = centavoTaxes(preparedRule(rule), sum(product(unitPrice, quantity), -discount), freight, sale);
  if (taxes === undefined) return undefined;
  totals.add(taxes);
  return writtenItem(skuOf(readers.sku(item)), ncm, rateTexts(rule), taxes);
}

/** The rates of a row as JSON strings, written once per row. */
interface RateTexts {
  ipi: string;
  icms: string;
  destination: string;
  fcp: string;
}

const rates = new WeakMap<TaxRule, RateTexts>();

function rateTexts(rule: TaxRule): RateTexts {
  let texts = rates.get(rule);
  if (texts === undefined) {
    texts = {
      ipi: JSON.stringify(rule.ipiRate),
      icms: JSON.stringify(rule.icmsRate),
      destination: JSON.stringify(rule.destinationRate),
      fcp: JSON.stringify(rule.fcpRate),
    };
    rates.set(rule, texts);
  }
  return texts;
}

/** The text JSON.stringify writes for the general path's item object: the same keys in the same order. */
function writtenItem(sku: string, ncm: string, rate: RateTexts, taxes: CentavoTaxes): string {
  const opening = sku === '' ? '{' : `{"sku":${JSON.stringify(sku)},`;
  let text = `${opening}"ncm":"${ncm}","merchandise":"${moneyText(taxes.merchandise)}","ipi":{"base":"${moneyText(taxes.operation)}","rate":${rate.ipi},"value":"${moneyText(taxes.ipi)}"},"icms":{"base":"${moneyText(taxes.icmsBase)}","rate":${rate.icms},"value":"${moneyText(taxes.icms)}"},"added":"${moneyText(taxes.added)}"`;
  if (taxes.st !== undefined)
    text += `,"icmsSt":{"base":"${moneyText(taxes.st.base)}","rate":${rate.destination},"value":"${moneyText(taxes.st.value)}","mva":${JSON.stringify(taxes.st.mva)}}`;
  if (taxes.destinationBase !== undefined) {
    const base = moneyText(taxes.destinationBase);
    text += `,"difal":{"base":"${base}","rate":${rate.destination},"value":"${moneyText(taxes.difal as number)}"},"fcp":{"base":"${base}","rate":${rate.fcp},"value":"${moneyText(taxes.fcp as number)}"}`;
  }
  return `${text}}`;
}

/** The cart's totals in centavos, as taxTotals sums them; undefined text when a sum does not fit. */
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

  text(): string | undefined {
    const all = [this.merchandise, this.ipi, this.icms, this.icmsSt, this.difal, this.fcp, this.added];
    if (all.some(Number.isNaN)) return undefined;
    return `{"merchandise":"${moneyText(this.merchandise)}","ipi":"${moneyText(this.ipi)}","icms":"${moneyText(this.icms)}","icmsSt":"${moneyText(this.icmsSt)}","difal":"${moneyText(this.difal)}","fcp":"${moneyText(this.fcp)}","added":"${moneyText(this.added)}"}`;
  }
}

/** The answer's text around its items and totals; undefined where JSON.stringify would order or merge the names. */
const frames = new WeakMap<TaxShape['answer'], { opening: string; between: string } | undefined>();

function answerFrame(answer: TaxShape['answer']): { opening: string; between: string } | undefined {
  if (frames.has(answer)) return frames.get(answer);
  // An index-like name ("0") comes first in an object, and two equal names are one: the general path handles those.
  const keys = Object.keys({ [answer.items]: 0, [answer.totals]: 0 });
  const frame =
    keys.length === 2 && keys[0] === answer.items
      ? { opening: `{${JSON.stringify(answer.items)}:[`, between: `],${JSON.stringify(answer.totals)}:` }
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
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : Number.NaN;
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
  return 0;
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

/** The SKU as checkTaxItem reads it: text trimmed, a number as JavaScript writes it; empty when there is none. */
function skuOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}
