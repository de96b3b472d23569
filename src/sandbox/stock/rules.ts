import { fromWireItem, validateStockRow, validationProblem, type StockSchema } from '../../domain/stock.js';
import type { Catalogue } from './catalogue.js';
import type { StockStore } from './store.js';

/** The platform's answer for one item: `{"index":0,"sku":"...","warehouse":null,"status":"APPLIED","message":null}`. */
export interface StockItemResult {
  index: number;
  sku: string | null;
  warehouse: string | null;
  status: 'APPLIED' | 'REJECTED';
  message: string | null;
}

/**
 * Applies one item as the platform would: the row rules of src/domain/stock.ts (the same ones the
 * CLI checks locally), then the SKU must be in the catalogue; an applied item sets the line's stock
 * and prices and puts an off-sale product back on sale. A rejected item changes nothing.
 */
export function applyStockItem(
  wireItem: unknown,
  index: number,
  target: { catalogue: Catalogue; store: StockStore; schema: StockSchema },
): StockItemResult {
  if (typeof wireItem !== 'object' || wireItem === null || Array.isArray(wireItem)) {
    const problem = validationProblem(`items[${index}]`, wireItem, 'each item must be an object');
    return { index, sku: null, warehouse: null, status: 'REJECTED', message: problem.message };
  }
  const record = fromWireItem(wireItem as Record<string, unknown>, target.schema);
  const verdict = validateStockRow(record, target.schema);
  if (!verdict.ok) {
    const messages = verdict.problems.map((problem) => problem.message);
    // Every fault of the item at once, as the CLI reports a row: an unknown SKU is one of them.
    const sku = typeof record.sku === 'string' ? record.sku.trim() : null;
    if (
      sku &&
      !verdict.problems.some((problem) => problem.field === target.schema.fields.sku) &&
      !target.catalogue.has(sku)
    ) {
      messages.push(unknownSkuMessage(sku));
    }
    return {
      index,
      sku: sku || null,
      warehouse: textOrNull(record.warehouse),
      status: 'REJECTED',
      message: messages.join('; '),
    };
  }
  const item = verdict.value;
  const warehouse = item.warehouse ?? null;
  if (!target.catalogue.has(item.sku)) {
    return { index, sku: item.sku, warehouse, status: 'REJECTED', message: unknownSkuMessage(item.sku) };
  }
  target.store.apply(item);
  target.catalogue.reactivate(item.sku);
  return { index, sku: item.sku, warehouse, status: 'APPLIED', message: null };
}

export function unknownSkuMessage(sku: string): string {
  return `Unknown SKU [${sku}]`;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
