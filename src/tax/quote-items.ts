import { InputError } from '../base/errors.js';
import type { FederativeUnit } from '../domain/brazil-codes.js';
import { computeItemTaxes } from '../domain/tax/compute.js';
import type { ItemTaxes, TaxItem, TaxSale } from '../domain/tax/terms.js';
import type { BuyerKind, TaxRule, TaxTable } from '../domain/tax/rules.js';

/** Thrown when the table has no row for some items: their NCMs, for the answer and the log. */
export class NoTaxRowError extends InputError {
  readonly missing: readonly string[];
  constructor(message: string, missing: readonly string[]) {
    super(message);
    this.missing = missing;
  }
}

/**
 * Thrown when an item's row cannot be computed (an arithmetic error the table's checks did not foresee): the row's
 * place and key, so that the operator can correct it, rather than a bare `division by zero`.
 */
export class TaxRowFailedError extends InputError {}

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
    if (rule !== undefined) quoted.push(itemTaxes(table, item, rule, taxSale));
    else missing.push(`NCM ${item.ncm}${item.sku === undefined ? '' : ` (${item.sku})`}`);
  }
  if (missing.length > 0)
    throw new NoTaxRowError(
      `The tax table has no row for ${missing.join(', ')}, ${sale.from} → ${sale.to}, ${sale.buyer}: add a row for the NCM or a prefix of it; no tax is guessed.`,
      missing,
    );
  return quoted;
}

function itemTaxes(table: TaxTable, item: TaxItem, rule: TaxRule, sale: TaxSale): ItemTaxes {
  try {
    return computeItemTaxes(item, rule, sale);
  } catch (error) {
    // Exact arithmetic raises RangeError (a division by zero); anything else is a defect, shown as one.
    if (!(error instanceof RangeError)) throw error;
    const place = table.placeOf(rule);
    throw new TaxRowFailedError(
      `${place === undefined ? '' : `${place}: `}the tax table's row for NCM ${rule.ncm}, ${rule.from} → ${rule.to}, ${rule.buyer} cannot be computed for NCM ${item.ncm} (${error.message}): correct its rates; no tax is guessed.`,
    );
  }
}
