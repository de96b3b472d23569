import { InputError } from '../base/errors.js';
import type { FederativeUnit } from '../domain/brazil-codes.js';
import { computeItemTaxes } from '../domain/tax/compute.js';
import type { ItemTaxes, TaxItem } from '../domain/tax/terms.js';
import type { BuyerKind, TaxTable } from '../domain/tax/rules.js';

/** Thrown when the table has no row for some items: their NCMs, for the answer and the log. */
export class NoTaxRowError extends InputError {
  constructor(
    message: string,
    readonly missing: readonly string[],
  ) {
    super(message);
  }
}

/** Each item's taxes, or one error naming every item the table has no row for. */
export function quoteItems(
  table: TaxTable,
  items: readonly TaxItem[],
  sale: { from: FederativeUnit; to: FederativeUnit; buyer: BuyerKind },
): ItemTaxes[] {
  const interstate = sale.from !== sale.to;
  const missing: string[] = [];
  const find = table.finderFor(sale);
  const taxSale = { buyer: sale.buyer, interstate };
  const quoted: ItemTaxes[] = [];
  for (const item of items) {
    const rule = find(item.ncm);
    if (rule !== undefined) quoted.push(computeItemTaxes(item, rule, taxSale));
    else missing.push(`NCM ${item.ncm}${item.sku === undefined ? '' : ` (${item.sku})`}`);
  }
  if (missing.length > 0)
    throw new NoTaxRowError(
      `The tax table has no row for ${missing.join(', ')}, ${sale.from} → ${sale.to}, ${sale.buyer}: add a row for the NCM or a prefix of it; no tax is guessed.`,
      missing,
    );
  return quoted;
}
