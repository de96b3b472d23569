import { InputError } from '../../base/errors.js';
import type { SheetEntry, WorkbookRow } from './workbook-cells.js';
import type { MergedCells } from './workbook-merges.js';

/** What every workbook format's reader gives: the chosen sheet's rows, streamed, and what it learnt on the way. */
export interface SheetReader {
  /** The chosen sheet: known once the first batch of rows has come (OpenDocument finds it while streaming). */
  readonly sheet: SheetEntry | undefined;
  /** Merged ranges of the sheet, filled in as the rows come (see MergedCells). */
  readonly merges: MergedCells;
  /** Columns the sheet hides (from 0): read like the others, as a CSV export would. */
  readonly hiddenColumns: ReadonlySet<number>;
  /** The rows with at least one cell, in order, a batch per chunk of the sheet's XML. */
  rows(): AsyncGenerator<WorkbookRow[]>;
  /** The names of the workbook's other visible sheets (OpenDocument knows them once the rows have been read). */
  otherSheets(): string[];
  /** The sheet the workbook was saved showing (its active tab), when it says. */
  activeSheet(): string | undefined;
  close(): void;
}

/** `--sheet NAME|N`: a sheet by its name, or the Nth tab (from 1); none for the first visible sheet. */
export type SheetChoice = string | undefined;

/** Which of `sheets` (in tab order) `choice` names: a name first, then a tab number; the first visible one by default. */
export function chooseSheet(sheets: readonly SheetEntry[], choice: SheetChoice, file: string): number {
  if (choice === undefined) {
    const visible = sheets.findIndex((sheet) => !sheet.hidden);
    if (visible === -1)
      throw new InputError(`${file}: the workbook has no visible sheet. Pass --sheet NAME.`, { file });
    return visible;
  }
  refuseAmbiguousSheet(sheets, choice, file);
  const named = sheets.findIndex((sheet) => sheet.name === choice);
  if (named !== -1) return named;
  const folded = sheets.findIndex((sheet) => sheet.name.toLocaleLowerCase() === choice.toLocaleLowerCase());
  if (folded !== -1) return folded;
  if (/^\d+$/.test(choice) && Number(choice) >= 1 && Number(choice) <= sheets.length) return Number(choice) - 1;
  throw noSuchSheet(sheets, choice, file);
}

/**
 * `--sheet 1` where a sheet is named "1" but is not the first tab (month or week tabs, newest first): which one is
 * meant cannot be told, and an .xlsx and an .ods would each pick another. Refused, naming both.
 */
export function refuseAmbiguousSheet(sheets: readonly SheetEntry[], choice: SheetChoice, file: string): void {
  if (choice === undefined || !/^\d+$/.test(choice)) return;
  const named = sheets.findIndex((sheet) => sheet.name.toLocaleLowerCase() === choice.toLocaleLowerCase());
  const tab = sheets[Number(choice) - 1];
  if (named === -1 || tab === undefined || named === Number(choice) - 1) return;
  // A tab named with a number too (sheets "3", "2", "1") is chosen by no --sheet: only a new name tells them apart.
  const way = /^\d+$/.test(tab.name)
    ? `rename the sheets with words (such as "Semana 1"), as a number names both a sheet and a tab`
    : `pass --sheet "${tab.name}" for that tab, or rename the sheet "${choice}"`;
  throw new InputError(
    `${file}: --sheet ${choice} is both the sheet named "${choice}" (tab ${named + 1}) and tab ${choice} ("${tab.name}"); ${way}.`,
    { file },
  );
}

/** `--sheet` names no sheet of the workbook: the sheets it has, to pick from. */
export function noSuchSheet(sheets: readonly SheetEntry[], choice: string, file: string): InputError {
  const names = sheets.map((sheet, index) => `${index + 1} "${sheet.name}"${sheet.hidden ? ' (hidden)' : ''}`);
  return new InputError(
    `${file}: no sheet "${choice}" (--sheet); the workbook has ${names.join(', ') || 'no sheets'}. Pass --sheet with one of those names or numbers.`,
    { file },
  );
}
