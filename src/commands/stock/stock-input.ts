import { readFileSync } from 'node:fs';
import {
  defaultStockSchema,
  parseStockSchema,
  StockSchemaError,
  stockFields,
  stockFieldTypes,
  type StockItem,
  type StockSchema,
  validateStockRow,
} from '../../domain/stock.js';
import { UsageError } from '../../errors.js';
import type { InputRecord } from '../../io/input/open-input.js';
import { InputError } from '../../errors.js';
import type { FieldCatalogue } from '../../io/input/record-shape.js';
import { RecordChecker, type RecordVerdict, type UniqueValue } from '../../bulk/validation-pass.js';

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
  return new RecordChecker(checkStockRecord, stockUniqueValues);
}

export function stockUniqueValues(item: StockItem): UniqueValue[] {
  return [
    {
      label: item.warehouse ? 'SKU in this warehouse' : 'SKU',
      field: 'sku',
      value: item.warehouse ? `${item.sku} @ ${item.warehouse}` : item.sku,
    },
  ];
}

/** The wire field names: `--schema FILE`, else the `stock.schema` setting (a file path or inline JSON), else our defaults. */
export function loadStockSchema(source: string | undefined, origin: string): StockSchema {
  if (!source) return defaultStockSchema;
  let text = source;
  if (!source.trim().startsWith('{')) {
    try {
      text = readFileSync(source, 'utf8');
    } catch (error) {
      throw new InputError(
        `${source}: cannot read the stock schema (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        { file: source, missing: true },
      );
    }
  }
  try {
    return parseStockSchema(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof StockSchemaError)
      throw new UsageError(`The stock schema from ${origin} is not usable: ${error.message}`);
    throw error;
  }
}
