/**
 * An item of a callback's cart, checked as `tax quote` checks an item, with the two things only JSON can carry
 * refused first: an amount written `1.500` or `1,500` (one and a half, or fifteen hundred: `tax quote` refuses the
 * same text), and a JSON number with more digits than a double holds, which JSON.parse has already rounded
 * (`12345678901234567.89` arrives as 12345678901234568): quoting it back would name a value the platform did not send.
 */
import type { ItemTaxes, TaxItem } from '../domain/tax/terms.js';
import { itemRecord, requestReaders, type TaxShape } from './shape.js';
import { amountFields, jsonAmountProblem, jsonSkuProblem } from './json-amounts.js';
import { checkTaxItem } from './table-file.js';

/** A cart's item as the general path reads it: a TaxItem, or what is wrong with it. */
export function checkCartItem(item: unknown, shape: TaxShape['request']): TaxItem | string {
  const readers = requestReaders(shape);
  for (const field of amountFields) {
    const problem = jsonAmountProblem(field, readers[field](item));
    if (problem !== undefined) return problem;
  }
  const skuProblem = jsonSkuProblem(readers.sku(item));
  if (skuProblem !== undefined) return skuProblem;
  const ncmProblem = lostZeroNcmProblem(readers.ncm(item));
  if (ncmProblem !== undefined) return ncmProblem;
  return checkTaxItem(itemRecord(item, shape));
}

/**
 * A cart's NCM of 7 digits, a whole NCM of chapters 01 to 09 without its leading zero (4021010 for 04021010), most
 * often sent as a JSON number, which has none: said as what the platform must send, not as a spreadsheet's advice.
 */
function lostZeroNcmProblem(ncm: unknown): string | undefined {
  const digits = typeof ncm === 'number' ? String(ncm) : typeof ncm === 'string' ? ncm.trim().replaceAll('.', '') : '';
  if (!/^[1-9]\d{6}$/.test(digits)) return undefined;
  const how =
    typeof ncm === 'number' ? 'is a number, which keeps no leading zero' : 'has 7 digits, its leading zero lost';
  return `ncm ${JSON.stringify(ncm)} ${how}: send the NCM as text with its leading zero ("0${digits}")`;
}

/**
 * The items' taxes with each SKU as the cart sent it: a SKU sent as a JSON number goes back a number (`123`, not
 * `"123"`), so a platform matching its cart's items by SKU with a typed comparison finds them. The table's checks
 * read every SKU as text; only the answer gives it back. (A number comes back as JavaScript writes it: `1.50` is
 * `1.5`, the same JSON number; sku-number-text.ts says so once in the log.)
 */
export function skusAsSent(
  quoted: readonly ItemTaxes[],
  items: readonly unknown[],
  shape: TaxShape['request'],
): ItemTaxes[] {
  const readSku = requestReaders(shape).sku;
  return quoted.map((taxes, index) => {
    const sent = readSku(items[index]);
    // Spread over the object it replaces a key of: the sku keeps its place, first.
    return typeof sent === 'number' ? ({ ...taxes, sku: sent } as unknown as ItemTaxes) : taxes;
  });
}
