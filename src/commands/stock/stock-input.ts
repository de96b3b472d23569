import {
  stockFields,
  stockFieldTypes,
  stockTextKinds,
  type StockItem,
  looseSku,
  stockRowCodes,
  validateStockRow,
} from '../../domain/stock.js';
import type { InputRecord } from '../../io/input/open-input.js';
import { type FieldCatalogue, kindsByField } from '../../io/input/record-shape.js';
import { RecordChecker, type UniqueValue } from '../../bulk/validation-pass.js';
import { spreadsheetExponentProblem } from '../../domain/spreadsheet-numbers.js';
import { fieldProblem, type FieldProblem, type RecordVerdict, withProblems } from '../../domain/validation.js';
import { forbiddenCharacter } from '../../domain/invisible-characters.js';

/** The columns a stock file may have: our canonical item fields (rename others with --map). */
export const stockCatalogue: FieldCatalogue = {
  typeOf: (path) =>
    Object.hasOwn(stockFieldTypes, path) ? stockFieldTypes[path as keyof typeof stockFieldTypes] : undefined,
  textKindOf: kindsByField(stockTextKinds),
  knownPaths: stockFields,
  requiredColumns: ['sku'],
};

export function checkStockRecord(record: InputRecord): RecordVerdict<StockItem> {
  const verdict = withProblems(
    validateStockRow(record.values, undefined, namesSalePrice(record)),
    mangledCodes(record.values),
  );
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

/**
 * Whether the record's file has a salePrice column (a CSV's or workbook's header, a JSON record's key), so that an
 * empty cell there ends the promotion (decision 0030). A loop, not some(): it runs for every row of a large file.
 */
function namesSalePrice(record: InputRecord): boolean {
  if (record.cells === undefined) return record.emptyFields?.includes('salePrice') ?? false;
  const columns = record.cells.columns;
  for (let index = 0; index < columns.length; index++) if (columns[index]?.path === 'salePrice') return true;
  return false;
}

/** The SKU or warehouse a spreadsheet wrote in scientific notation (an EAN-13 SKU in a "General" column). */
function mangledCodes(values: Record<string, unknown>): readonly FieldProblem[] {
  const sku = spreadsheetExponentProblem('sku', values.sku);
  const warehouse = spreadsheetExponentProblem('warehouse', values.warehouse);
  if (sku === undefined && warehouse === undefined) return noProblems;
  return [sku, warehouse].filter((problem) => problem !== undefined);
}

const noProblems: readonly FieldProblem[] = [];

/** What a stock file's rows are judged by beyond the platform's rules. */
export interface StockCheckOptions {
  /** `--allow-zero-price`: a price of 0 is meant. */
  allowZeroPrice?: boolean;
}

/**
 * Why a price of 0 is not sent unless asked for: the platform takes it, and puts the product on sale for nothing (a
 * push also puts a product that was off sale back on sale). An ERP writes 0 where it has no price; an empty cell
 * keeps the platform's (a price of none is not a thing: decision 0030).
 */
const zeroPriceReason =
  "a price of 0 puts the product on sale for nothing, and stock sent puts a product that was off sale back on sale; leave the cell empty to keep the platform's price, or pass --allow-zero-price if 0 is meant";

/**
 * The same for a sale price: ERPs write 0 in a promotion column for "no promotion" even more often. There the empty
 * cell is what ends a promotion (decision 0030).
 */
const zeroSalePriceReason =
  'a sale price of 0 would sell the product for nothing; leave the cell empty to end a promotion, or pass --allow-zero-price if 0 is meant';

/** checkStockRecord, with a price or sale price of 0 refused unless `allowZeroPrice`. */
function checkStockRecordWith(options: StockCheckOptions): (record: InputRecord) => RecordVerdict<StockItem> {
  if (options.allowZeroPrice) return checkStockRecord;
  return (record) => {
    const verdict = checkStockRecord(record);
    const problems = (['price', 'salePrice'] as const)
      .filter((field) => isZero(verdict.ok ? verdict.value[field] : record.values[field]))
      .map((field) =>
        fieldProblem(field, String(record.values[field]), field === 'price' ? zeroPriceReason : zeroSalePriceReason),
      );
    if (problems.length === 0) return verdict;
    return { ok: false, problems: verdict.ok ? problems : [...verdict.problems, ...problems] };
  };
}

/** 0 as a number, or as text a reader left unread (`0,00`, ` 0 `). */
function isZero(value: unknown): boolean {
  return value === 0 || (typeof value === 'string' && /^\s*[+-]?0+(?:[.,]0*)?\s*$/.test(value));
}

/**
 * A fresh judge of stock rows: the row rules, and one line per SKU (per warehouse; every line of a repeated one is
 * invalid).
 */
export function newStockChecker(options: StockCheckOptions = {}): RecordChecker<StockItem> {
  return new RecordChecker(checkStockRecordWith(options), stockUniqueValues, (record) => {
    const codes = stockRowCodes(record.values);
    return codes ? stockUniqueValues(codes) : [];
  });
}

/**
 * A SKU (in a warehouse), once per file: two lines for one product are two quantities (or prices) that contradict,
 * so both are left out for the operator to keep one (UniqueValue.everyRepeatInvalid), whatever the file's order.
 */
export function stockUniqueValues(item: { sku: string; warehouse?: string }): UniqueValue[] {
  return [
    {
      label: item.warehouse ? 'SKU in this warehouse' : 'SKU',
      field: 'sku',
      value: item.warehouse ? `${item.sku} @ ${item.warehouse}` : item.sku,
      composed: item.warehouse !== undefined,
      everyRepeatInvalid: true,
      // A warehouse code the same but for case is as likely one warehouse to the platform (a user test).
      loose: item.warehouse ? `${looseSku(item.sku)} @ ${item.warehouse.trim().toUpperCase()}` : looseSku(item.sku),
    },
  ];
}
