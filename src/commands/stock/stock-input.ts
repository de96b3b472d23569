import { stockFields, stockFieldTypes, type StockItem, stockRowCodes, validateStockRow } from '../../domain/stock.js';
import type { InputRecord } from '../../io/input/open-input.js';
import type { FieldCatalogue } from '../../io/input/record-shape.js';
import { RecordChecker, type UniqueValue } from '../../bulk/validation-pass.js';
import type { RecordVerdict } from '../../domain/validation.js';

/** The columns a stock file may have: our canonical item fields (rename others with --map). */
export const stockCatalogue: FieldCatalogue = {
  typeOf: (path) =>
    Object.hasOwn(stockFieldTypes, path) ? stockFieldTypes[path as keyof typeof stockFieldTypes] : undefined,
  knownPaths: stockFields,
  requiredColumns: ['sku'],
};

export function checkStockRecord(record: InputRecord): RecordVerdict<StockItem> {
  return validateStockRow(record.values);
}

/** A fresh judge of stock rows: the row rules, and one line per SKU (per warehouse). */
export function newStockChecker(): RecordChecker<StockItem> {
  return new RecordChecker(checkStockRecord, stockUniqueValues, (record) => {
    const codes = stockRowCodes(record.values);
    return codes ? stockUniqueValues(codes) : [];
  });
}

export function stockUniqueValues(item: { sku: string; warehouse?: string }): UniqueValue[] {
  return [
    {
      label: item.warehouse ? 'SKU in this warehouse' : 'SKU',
      field: 'sku',
      value: item.warehouse ? `${item.sku} @ ${item.warehouse}` : item.sku,
      composed: item.warehouse !== undefined,
    },
  ];
}
