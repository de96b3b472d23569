import { stockFields, stockFieldTypes, type StockItem, stockRowCodes, validateStockRow } from '../../domain/stock.js';
import type { InputRecord } from '../../io/input/open-input.js';
import type { FieldCatalogue } from '../../io/input/record-shape.js';
import { RecordChecker, type UniqueValue } from '../../bulk/validation-pass.js';
import type { RecordVerdict } from '../../domain/validation.js';
import { forbiddenCharacter } from '../../domain/invisible-characters.js';

/** The columns a stock file may have: our canonical item fields (rename others with --map). */
export const stockCatalogue: FieldCatalogue = {
  typeOf: (path) =>
    Object.hasOwn(stockFieldTypes, path) ? stockFieldTypes[path as keyof typeof stockFieldTypes] : undefined,
  knownPaths: stockFields,
  requiredColumns: ['sku'],
};

export function checkStockRecord(record: InputRecord): RecordVerdict<StockItem> {
  const verdict = validateStockRow(record.values);
  if (verdict.ok) return verdict;
  // The reader already named a control character in this code, with its position: the rule's own
  // "must not contain control characters" (kept for the sandbox) would say it a second time.
  const problems = verdict.problems.filter(
    (problem) =>
      !(
        problem.message.endsWith('must not contain control characters)') &&
        typeof record.values[problem.field] === 'string' &&
        forbiddenCharacter(record.values[problem.field] as string) !== undefined &&
        record.problems.length > 0
      ),
  );
  return { ok: false, problems };
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
