import type { FieldProblem } from '../../domain/validation.js';
import { parseDecimal } from './cell-values.js';
import type { InputRecord } from './open-input.js';

/**
 * A record's problems as the user will read them against their spreadsheet: a number quoted as its
 * cell was written (`[104,313]`, never the parsed `[104.313]`), a currency sign explained, and the
 * example of a number written with the file's own decimal separator.
 */
export function problemsAsWritten(record: InputRecord, problems: readonly FieldProblem[]): FieldProblem[] {
  const cells = record.cells;
  if (!cells || !Array.isArray(record.original)) return [...problems];
  const original = record.original as readonly string[];
  return problems.map((problem) => {
    const column = cells.columns.find((candidate) => candidate.path === problem.field);
    if (!column || (column.type !== 'number' && column.type !== 'integer')) return problem;
    const written = original[column.index]?.trim();
    if (written === undefined || written === '') return problem;
    let message = problem.message;
    if (written !== problem.value)
      message = message.replace(`with value [${problem.value}]`, `with value [${written}]`);
    // The rules give their example in the platform's notation; in a decimal-comma file that example is itself refused.
    if (cells.decimal === ',') message = message.replace('such as 1234.56', 'such as 1234,56');
    const hint = currencyHint(written, cells.decimal);
    if (hint) message = message.endsWith(')') ? `${message.slice(0, -1)}; ${hint})` : `${message} (${hint})`;
    return message === problem.message && written === problem.value ? problem : { ...problem, value: written, message };
  });
}

const currencySign = /^([+-]?)\s*R\$\s*/i;

/** `R$ 1.234,50`: what to write instead, in this file's notation, or with the --decimal that reads it. */
export function currencyHint(written: string, decimal: ',' | '.'): string | undefined {
  const sign = currencySign.exec(written);
  if (!sign) return undefined;
  const number = `${sign[1]}${written.slice(sign[0].length)}`;
  if (parseDecimal(number, decimal) !== undefined) return `drop the currency sign: write ${number}`;
  // `R$ 1,234.50` in a decimal-point file: its thousands commas would be refused next.
  const ungrouped =
    decimal === '.' && /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(number) ? number.replaceAll(',', '') : number;
  if (parseDecimal(ungrouped, decimal) !== undefined)
    return `drop the currency sign and the thousands commas: write ${ungrouped}`;
  const other = decimal === ',' ? '.' : ',';
  if (parseDecimal(number, other) !== undefined)
    return `drop the currency sign, and pass --decimal ${other} since ${number} uses "${other}" for decimals`;
  return 'drop the currency sign R$';
}
