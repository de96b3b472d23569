import type { Context } from '../context.js';
import { InputError } from '../base/errors.js';
import { openCommandInput } from '../bulk/command-input.js';
import type { InputFlags } from '../bulk/flags.js';
import { type FieldCatalogue, kindsByField } from '../io/input/record-shape.js';
import { recordPlace } from '../io/input/open-input.js';
import { ambiguousNumber, type DecimalSeparator, parseDecimal } from '../io/input/cell-values.js';
import { decimalCommaHint, decimalPointHint } from '../io/input/written-values.js';
import { countOf } from '../lib/plural.js';
import {
  assumedDestinationReduction,
  checkTaxRule,
  fractionRateProblem,
  sixDigitNcmWarning,
  rateFields,
  TaxTable,
  taxRuleFields,
  twoInternalRates,
  unusedFcpRate,
  unusedMva,
} from '../domain/tax/rules.js';
import { Exact } from '../domain/tax/exact.js';
import { interstateRate, unexpectedInterstateRate } from '../domain/tax/interstate-rate.js';
import { grossValue, type TaxItem } from '../domain/tax/terms.js';
import { amountFields, jsonAmountProblem, jsonSkuProblem } from './json-amounts.js';
import { digitsANumberHolds, numberTextReason, type TextKind } from '../domain/spreadsheet-numbers.js';
import { printable } from '../lib/printable.js';

/**
 * Every column as text: an NCM keeps its leading zero (chapter 01), a rate every digit it was written with. `kinds`:
 * what a spreadsheet's cell spoils in a field (see TextKind).
 */
const textColumns = (
  fields: readonly string[],
  required: readonly string[],
  kinds: Readonly<Partial<Record<string, TextKind>>>,
): FieldCatalogue => ({
  typeOf: (path) => (fields.includes(path) ? 'string' : undefined),
  textKindOf: kindsByField(kinds),
  knownPaths: fields,
  requiredColumns: required,
});

export const ruleCatalogue = textColumns(taxRuleFields, ['ncm', 'from', 'to', 'buyer', 'icmsRate', 'ipiRate'], {
  ncm: 'ncm',
});

/** The fields of an item of a cart file (`tax quote --items`). */
export const taxItemFields = ['sku', 'ncm', 'quantity', 'unitPrice', 'discount', 'freight'] as const;
export const itemCatalogue = textColumns(taxItemFields, ['ncm', 'quantity', 'unitPrice'], { sku: 'code', ncm: 'ncm' });

/**
 * Reads a tax table whole, or refuses it: every wrong row (file:line, the column, what it must be) and every row
 * that repeats another's NCM prefix, states and buyer, in one error (exit 65). An empty table is refused too.
 * `quotesHeader: false` for the server, whose refusals go to its log (InputOptions.quotesHeader).
 */
export async function readTaxTable(
  context: Context,
  path: string,
  flags: InputFlags,
  { quotesHeader = true }: { quotesHeader?: boolean } = {},
): Promise<TaxTable> {
  // A tax command sends nothing to the platform: a reader's refusal saying "nothing was sent" would read as if it could.
  const input = await openCommandInput(context, path, flags, ruleCatalogue, { sends: false, quotesHeader });
  const table = new TaxTable();
  const problems: string[] = [];
  const firstLine = new Map<unknown, number>();
  const warnings = new LoadWarnings();
  try {
    for await (const record of input.records) {
      const place = `${printable(input.file)}:${recordPlace(record)}`;
      // A cell the reader refused (a formula's #N/D, an NCM number cell) is said once, by the reader, which knows why.
      const readerRefused = new Set<string>();
      for (const problem of record.problems) {
        if (typeof problem !== 'string') readerRefused.add(problem.field);
        problems.push(`${place}: ${typeof problem === 'string' ? problem : problem.message}`);
      }
      const read = ratesRead(record.values, flags.decimal);
      if (typeof read === 'string') {
        problems.push(`${place}: ${read}`);
        continue;
      }
      const checked = checkTaxRule(read);
      if (!checked.ok) {
        for (const problem of checked.problems)
          if (!readerRefused.has(problem.field))
            problems.push(`${place}: ${problem.field} ${quoted(record.values[problem.field])}${problem.message}`);
        continue;
      }
      const fraction = fractionRateProblem(checked.rule);
      if (fraction !== undefined) {
        problems.push(`${place}: ${fraction.field} ${quoted(record.values[fraction.field])}${fraction.message}`);
        continue;
      }
      warnings.add('with an FCP rate that is not applied', place, unusedFcpRate(checked.rule));
      warnings.add('with an MVA that is not applied', place, unusedMva(checked.rule));
      warnings.add('inside a state at two rates', place, twoInternalRates(checked.rule));
      warnings.add(
        'with DIFAL and a reduction the destination is taken to share',
        place,
        assumedDestinationReduction(checked.rule),
      );
      warnings.add('of 6 digits without dots', place, sixDigitNcmWarning(String(read.ncm ?? '')));
      const { from, to, icmsRate } = checked.rule;
      warnings.add('between states at another rate', place, unexpectedInterstateRate(checked.rule), {
        detail: `${from} → ${to} at ${icmsRate}, not ${interstateRate(from, to)}`,
      });
      const earlier = table.add(checked.rule, place);
      if (earlier === undefined) firstLine.set(checked.rule, record.line);
      else
        problems.push(
          `${place}: repeats the row of line ${firstLine.get(earlier)} (NCM ${checked.rule.ncm}, ${checked.rule.from} → ${checked.rule.to}, ${checked.rule.buyer}); keep one of them`,
        );
    }
  } finally {
    input.close();
  }
  if (problems.length > 0) throw new InputError(tableProblems(input.file, problems), { file: input.file });
  if (table.size === 0)
    throw new InputError(`${printable(input.file)}: the tax table has no rows.`, { file: input.file });
  warnings.write(context);
  return table;
}

/**
 * What a table's rows load with but may not mean, one line per kind for the table, not one per row: an ERP writing
 * the destination's FCP (or its internal rate in the interstate column) on every row has many. The line names every
 * such row's place, up to as many as a bulk run prints problem lines (decision 0036), so none must be hunted for.
 */
class LoadWarnings {
  private readonly byKind = new Map<string, { first: string; others: string[] }>();

  /**
   * A row's warning (if any) at `place`, counted under `kind` (`with an FCP rate that is not applied`); `detail`, what
   * tells this row from the others of its kind where the warning's words differ (`SP → MG at 7, not 12`).
   */
  add(kind: string, place: string, warning: string | undefined, { detail }: { detail?: string } = {}): void {
    if (warning === undefined) return;
    const rows = this.byKind.get(kind);
    if (rows === undefined) this.byKind.set(kind, { first: `${place}: ${warning}`, others: [] });
    else rows.others.push(detail === undefined ? place : `${place} (${detail})`);
  }

  /** The first row of each kind in full, then the place of each other one. */
  write(context: Context): void {
    for (const [kind, { first, others }] of this.byKind) {
      const named = others.slice(0, namedWarningRows);
      const unnamed = others.length - named.length;
      const rest = unnamed > 0 ? ` and ${unnamed} more, not named one by one` : '';
      context.log.warn(
        `warning: ${first}${others.length > 0 ? ` (and ${countOf(others.length, 'more rows')} ${kind}: ${named.join(', ')}${rest})` : ''}.`,
      );
    }
  }
}

/** The other rows a load warning names by their place: as many as a bulk run prints problem lines (decision 0036). */
const namedWarningRows = 100;

/** The items of a cart file, checked: ncm, a positive quantity, and money as decimals. */
export async function readTaxItems(context: Context, path: string, flags: InputFlags): Promise<TaxItem[]> {
  const input = await openCommandInput(context, path, flags, itemCatalogue, { sends: false });
  const items: TaxItem[] = [];
  const problems: string[] = [];
  // Amounts as the file writes them (`3.500,00` in a `;` export), read as the bulk commands read a stock file's.
  const decimal = input.csv?.decimal;
  // JSON writes numbers as numbers, and text that only JSON sends as it is: read as a callback's cart is.
  const json = input.format === 'json' || input.format === 'ndjson';
  try {
    for await (const record of input.records) {
      const place = `${printable(input.file)}:${recordPlace(record)}`;
      // The reader's own problems (a row longer than the header, a cut last line) first: its values are not the row's.
      if (record.problems.length > 0) {
        for (const problem of record.problems)
          problems.push(`${place}: ${typeof problem === 'string' ? problem : problem.message}`);
        continue;
      }
      const read = json
        ? jsonAmountsRead(record.values)
        : decimal === undefined
          ? record.values
          : amountsRead(record.values, decimal, record.cells?.decimalSettled === true);
      const checked = typeof read === 'string' ? read : checkTaxItem(read);
      if (typeof checked === 'string') problems.push(`${place}: ${checked}`);
      else items.push(checked);
    }
  } finally {
    input.close();
  }
  if (problems.length > 0)
    throw new InputError(problemList(input.file, problems, 'in the items; nothing was quoted'), { file: input.file });
  return items;
}

/**
 * A JSON item's values with its amounts as text (`1`, `45.9`), as the item checks read them; or why an amount cannot
 * be read as written (a number past what a double holds, a `1.500` that may be 1,5 or 1500).
 */
function jsonAmountsRead(values: Record<string, unknown>): Record<string, unknown> | string {
  const read = { ...values };
  for (const field of amountFields) {
    const value = values[field];
    const problem = jsonAmountProblem(field, value);
    if (problem !== undefined) return problem;
    if (typeof value === 'number') read[field] = String(value);
  }
  return jsonSkuProblem(values.sku) ?? read;
}

/**
 * A CSV item's amounts written with the file's decimal separator (and its thousands grouping) as JavaScript
 * decimals; or what is wrong with one written the other way. `12.5` in a decimal-comma file is refused as the stock
 * reader refuses it, not read as 12.5 beside a `1.250` read as 1250.
 */
function amountsRead(
  values: Readonly<Record<string, unknown>>,
  decimal: DecimalSeparator,
  settled: boolean,
): Record<string, unknown> | string {
  const read: Record<string, unknown> = { ...values };
  for (const field of ['quantity', 'unitPrice', 'discount', 'freight']) {
    const value = values[field];
    if (typeof value !== 'string' || value.trim() === '') continue;
    // `1.250` where neither --decimal nor the file's decimal commas say how it reads: 1.25 or 1250.
    const ambiguous = settled ? undefined : ambiguousNumber(field, value);
    if (ambiguous !== undefined) return ambiguous.message;
    const number = parseDecimal(value, decimal);
    if (number !== undefined && number >= 0) read[field] = String(number);
    else {
      // A negative or a text that is no number at all is left as written: checkTaxItem names it.
      const other =
        decimalPointHint(value.trim(), decimal, 'number') ?? decimalCommaHint(value.trim(), decimal, 'number');
      if (other !== undefined) return `${field} ${quoted(value)}is not an amount as this file writes them (${other})`;
    }
  }
  return read;
}

/**
 * A row's rates where the file's way of writing numbers decides them. A rate takes either separator (`4,5` and
 * LibreOffice's `6.5` in a `;` export are the same rate), but `1.800` or `12.500` is 1.8 to one hand and 1800 to a
 * pt-BR one: refused naming both readings unless --decimal says which (then 1800 is refused as no percentage).
 */
function ratesRead(
  values: Readonly<Record<string, unknown>>,
  decimal: DecimalSeparator | undefined,
): Record<string, unknown> | string {
  let read: Record<string, unknown> | undefined;
  for (const field of rateFields) {
    const value = values[field];
    if (typeof value !== 'string') continue;
    const written = value.trim().replace(/\s*%$/, '');
    const ambiguous = ambiguousNumber(field, written);
    if (ambiguous === undefined) continue;
    if (decimal === undefined) return ambiguous.message;
    (read ??= { ...values })[field] = String(parseDecimal(written, decimal));
  }
  return read ?? values;
}

/** An item from its fields as text, or what is wrong with it. */
export function checkTaxItem(values: Readonly<Record<string, unknown>>): TaxItem | string {
  const text = (field: string): string => (typeof values[field] === 'string' ? (values[field] as string).trim() : '');
  const decimal = (field: string): string | undefined => {
    const value = text(field).replace(',', '.');
    return value === '' ? '0' : /^\d+(\.\d+)?$/.test(value) ? value : undefined;
  };
  const ncm = text('ncm').replaceAll('.', '');
  if (!/^\d{8}$/.test(ncm))
    return /^\d{7}$/.test(ncm)
      ? `ncm ${quoted(values.ncm)}has 7 digits: a leading zero was probably lost in a spreadsheet (0${ncm}); store the column as text`
      : `ncm ${quoted(values.ncm)}must be the item's 8-digit NCM`;
  const quantity = decimal('quantity');
  if (quantity === undefined || Number(quantity) <= 0)
    return `quantity ${quoted(values.quantity)}must be a number above 0, written in digits (such as 12 or 1.5)`;
  // The quantity is held as a number: past its 15 digits it would be computed rounded (9007199254740993 as …992),
  // where an amount is decimal text and exact. Trailing decimal zeros change nothing, so they do not count.
  if (numberTextReason(quantity.replace(/(\.\d*?)0+$/, '$1')) !== undefined)
    return `quantity ${quoted(values.quantity)}has more digits than a quantity is computed exactly with (at most ${digitsANumberHolds})`;
  // A missing price is no price of 0: its taxes would be answered as zero (a free item is written 0).
  if (text('unitPrice') === '') return `unitPrice ${quoted(values.unitPrice)}is required: the item's price per unit`;
  const unitPrice = decimal('unitPrice');
  if (unitPrice === undefined) return amountProblem('unitPrice', values);
  const discount = decimal('discount');
  if (discount === undefined) return amountProblem('discount', values);
  const freight = decimal('freight');
  if (freight === undefined) return amountProblem('freight', values);
  // More discount than the line is worth would answer negative taxes. The line is worth its gross value as the
  // taxes round it (vProd: 1 × 0.015 is 0.02); the float product only spares that exact step to a discount that
  // stays below it by more than rounding can move it.
  if (Number(discount) > Number(quantity) * Number(unitPrice) - 0.005) {
    const gross = grossValue(Number(quantity), unitPrice);
    if (Exact.of(discount).gt(gross))
      return `discount ${quoted(values.discount)}is more than the item's value (quantity × unit price, ${gross.toFixed(2)})`;
  }
  const sku = text('sku');
  // Two literal shapes rather than a spread: the callback builds fifty of these a cart.
  return sku === ''
    ? { ncm, quantity: Number(quantity), unitPrice, discount, freight }
    : { sku, ncm, quantity: Number(quantity), unitPrice, discount, freight };
}

function amountProblem(field: string, values: Readonly<Record<string, unknown>>): string {
  const value = values[field];
  // `1.234,56` (a pt-BR screen's amount) or `1,234.56`: the thousands separator is why, as the `1.500` refusal says.
  const written = typeof value === 'string' ? value.trim() : '';
  const grouped = /^\d{1,3}(?:([.,])\d{3})+(?:([.,])\d+)?$/.exec(written);
  if (grouped !== null && grouped[1] !== grouped[2]) {
    const plain = written.replaceAll(grouped[1] as string, '').replace(',', '.');
    return `${field} ${quoted(value)}has its thousands grouped (by "${grouped[1]}"), which an amount does not take: write it ${plain}`;
  }
  return `${field} ${quoted(value)}must be an amount such as 1234.50`;
}

/** A value as a refusal quotes it: whole when short, else its start and its length (a cart may send a megabyte). */
function quoted(value: unknown): string {
  if (value === undefined || value === '') return '';
  const written = JSON.stringify(value);
  return written.length <= quotedLength
    ? `${written} `
    : `${written.slice(0, quotedLength)}… (${written.length.toLocaleString('en')} characters) `;
}

const quotedLength = 40;

/** `FILE: 3 problems WHERE:` and the first 20 of them, a line each. */
function problemList(file: string, problems: readonly string[], where: string): string {
  const shown = problems.slice(0, 20);
  const more = problems.length > shown.length ? `\n… and ${problems.length - shown.length} more problems` : '';
  return `${file}: ${countOf(problems.length, 'problems')} ${where}:\n${shown.join('\n')}${more}`;
}

function tableProblems(file: string, problems: readonly string[]): string {
  return problemList(file, problems, 'in the tax table, which is not used');
}
