import { fieldForHeader, fieldSpelledAs, headerCaution, headerKey, namesASecret } from '../../domain/header-aliases.js';
import { InputError } from '../../base/errors.js';
import { nothingSent } from './nothing-sent.js';
import type { InputOptions } from './opened-input.js';
import type { FieldCatalogue, HeaderMap } from './record-shape.js';
import { columnLetter, shortValue } from './row-shape-problems.js';

/*
 * Every column accounted for: a column whose header names no field is read by nothing, so the data under it would
 * be dropped while the record is sent. It is mapped (`--map`), left out on purpose (`--ignore-column`, or `null` in
 * the map), or the run stops at the first rows that hold data in it (docs/decisions/0015-every-column-accounted-for.md).
 */

/** A column no field reads, as the header check found it. */
export interface UnmappedColumn {
  header: string;
  /** 1 for the first column. */
  column: number;
  /** The closest known field, if any. */
  suggestion: string | undefined;
}

/**
 * The map with `--ignore-column` names added as `null` (left out): each name is matched to the header it means as
 * headers are (case, accents, spaces and punctuation aside); a name that matches no header is warned about.
 */
export function withIgnoredColumns(
  {
    headerMap,
    ignoredColumns: ignored = [],
    warn,
    note,
    catalogue,
  }: Pick<InputOptions, 'headerMap' | 'ignoredColumns' | 'warn' | 'note' | 'catalogue'>,
  headers: readonly string[],
  where: { file: string; at: string },
): HeaderMap | undefined {
  if (ignored.length === 0) return headerMap;
  const map: HeaderMap = Object.assign(Object.create(null) as HeaderMap, headerMap);
  for (const name of ignored) {
    const key = headerKey(name);
    const matching = headers.filter(
      (header) => header.trim() !== '' && (header.trim() === name.trim() || headerKey(header) === key),
    );
    if (matching.length === 0) warn(`warning: --ignore-column "${name}": no column has that header.`);
    for (const header of matching) {
      map[header.trim()] = null;
      // Said once per run, so what is left out on purpose is never left out unseen.
      const caution = headerCaution(header, catalogue.knownPaths);
      note?.(
        `${where.file}:${where.at}: column "${shortValue(header.trim())}" is left out (--ignore-column).${caution === undefined ? '' : ` Note: ${caution.holds}.`}`,
      );
    }
  }
  return map;
}

/** The most columns one message lists; the rest are counted. */
const maxListed = 10;

/** Data found where no field reads it: a CSV column or a JSON key, as the message names it, with a value. */
export interface UnreadData {
  /** The header or key, as `--map` and `--ignore-column` take it. */
  header: string;
  /** How the message names it: `column 9 (I) "Obs"`, `key "obs"`. */
  named: string;
  /** The closest known field, if any. */
  suggestion: string | undefined;
  /** Where the value is, after `file:`: a line, or a JSON record's place. */
  place: string;
  line: number;
  value: string;
}

/**
 * Checks a batch of rows for data in the columns no field reads; throws at the end of the first batch that holds
 * some, naming each such column with a value from it, the `--map` entry that would read it and `--ignore-column`.
 * Costs a look at those cells only: nothing when every column is read.
 */
export function unmappedDataCheck(
  file: string,
  columns: readonly UnmappedColumn[],
  { knownPaths, notTaken }: Pick<FieldCatalogue, 'knownPaths' | 'notTaken'>,
  sends: boolean | undefined,
): (rows: readonly { cells: readonly string[]; line: number }[], from: number) => void {
  if (columns.length === 0) return () => {};
  const indexes = columns.map((column) => column.column - 1);
  return (rows, from) => {
    let found: { column: UnmappedColumn; line: number; value: string }[] | undefined;
    for (let index = from; index < rows.length; index++) {
      const row = rows[index] as { cells: readonly string[]; line: number };
      for (let position = 0; position < indexes.length; position++) {
        const cell = row.cells[indexes[position] as number];
        if (cell === undefined || cell === '' || cell.trim() === '') continue;
        const column = columns[position] as UnmappedColumn;
        found ??= [];
        if (!found.some((seen) => seen.column === column)) found.push({ column, line: row.line, value: cell.trim() });
      }
    }
    if (!found) return;
    const byColumn = found.toSorted((a, b) => a.column.column - b.column.column);
    throw unreadDataError(
      file,
      byColumn.map(({ column, line, value }) => ({
        header: column.header,
        named: `column ${column.column} (${columnLetter(column.column - 1)}) "${shortValue(column.header)}"`,
        suggestion: column.suggestion,
        place: String(line),
        line,
        value,
      })),
      knownPaths,
      'column',
      notTaken,
      sends,
    );
  };
}

/**
 * The run's stop for data no field reads, CSV column or JSON key alike: each with a value, the `--map` entry that
 * would read it and the `--ignore-column` that leaves it out; "nothing was sent" unless the command never sends.
 */
export function unreadDataError(
  file: string,
  found: readonly UnreadData[],
  knownPaths: readonly string[],
  /** What the input calls the place data sits under: a CSV's or a sheet's column, a JSON object's key. */
  noun: 'column' | 'key',
  notTaken: Readonly<Record<string, string>> | undefined,
  sends: boolean | undefined,
): InputError {
  const first = found[0] as UnreadData;
  const details = { file, line: first.line, field: shortValue(first.header) };
  // A lookalike's column is named for what it holds, so the map entry is not taken for the obvious one.
  const cautions = found
    .map((data) => headerCaution(data.header, knownPaths)?.holds)
    .filter((holds) => holds !== undefined)
    .map((holds) => ` Note: ${holds}.`)
    .join('');
  const reasonOf = (data: UnreadData) => (notTaken === undefined ? undefined : notTakenField(data.header, notTaken));
  const refused = found.filter((data) => reasonOf(data) !== undefined);
  const unread = found.filter((data) => reasonOf(data) === undefined);
  if (found.length === 1 && refused.length === 1)
    return new InputError(
      `${file}:${first.place}: ${first.named} holds data this command does not send (${reasonOf(first)})${nothingSent(sends)}. Leave the ${noun} out with --ignore-column ${quotedArgument(first.header)}.`,
      details,
    );
  if (refused.length > 0) {
    // Every column to leave out said at once (a create file fed to update has three): one run, not one per column.
    const named = refused.map((data) => `${data.named} (${reasonOf(data)})`);
    const flags = refused.map((data) => `--ignore-column ${quotedArgument(data.header)}`).join(' ');
    const others =
      unread.length === 0
        ? ''
        : ` No field reads the ${unread.length === 1 ? `other ${noun}` : `other ${unread.length} ${noun}s`}: map each in a --map file, or leave it out with --ignore-column: ${unreadList(unread, knownPaths)}.${cautions}`;
    return new InputError(
      `${file}:${first.place}: ${found.length} ${noun}s hold data this command would not send${nothingSent(sends)}. The command does not send ${named.join('; ')}: leave ${refused.length === 1 ? 'it' : 'them'} out with ${flags}.${others}`,
      details,
    );
  }
  if (found.length === 1)
    return new InputError(
      `${file}:${first.place}: ${first.named} holds "${shownValue(first, knownPaths)}" but no field reads it, so it would not be sent${nothingSent(sends)}. Map it with ${mapEntry(first, knownPaths)} in a --map file, or leave it out with --ignore-column ${quotedArgument(first.header)}.${cautions}`,
      details,
    );
  return new InputError(
    `${file}:${first.place}: ${found.length} ${noun}s hold data no field reads, so it would not be sent${nothingSent(sends)}. Map each in a --map file, or leave it out with --ignore-column: ${unreadList(found, knownPaths)}.${cautions}`,
    details,
  );
}

/** The `--map` entry that would read a column: the field its header or the closest known field names. */
function mapEntry(data: UnreadData, knownPaths: readonly string[]): string {
  return `{${JSON.stringify(data.header)}:${JSON.stringify(fieldForHeader(data.header, knownPaths) ?? data.suggestion ?? 'FIELD')}}`;
}

/** A value found, shown short; a password under an unknown header (`senha_portal`) is still a password: never quoted. */
function shownValue(data: UnreadData, knownPaths: readonly string[]): string {
  return namesASecret(data.header) || [data.suggestion, fieldForHeader(data.header, knownPaths)].includes('password')
    ? '***'
    : shortValue(data.value);
}

/** Each column no field reads with a value, its map entry and its --ignore-column; past the first ten, counted. */
function unreadList(found: readonly UnreadData[], knownPaths: readonly string[]): string {
  const listed = found
    .slice(0, maxListed)
    .map(
      (data) =>
        `${data.named} holds "${shownValue(data, knownPaths)}" on line ${data.place} (${mapEntry(data, knownPaths)}, or --ignore-column ${quotedArgument(data.header)})`,
    );
  const more = found.length - maxListed;
  return `${listed.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** Why a header names a field the command's route does not take (spelled as the field, case and spaces aside). */
export function notTakenField(header: string, notTaken: Readonly<Record<string, string>>): string | undefined {
  const field = fieldSpelledAs(header, Object.keys(notTaken));
  return field === undefined ? undefined : notTaken[field];
}

/** A header as a shell argument: quoted when it holds anything but letters, digits, `.`, `_` and `-`. */
function quotedArgument(header: string): string {
  return /^[\p{L}\p{N}._-]+$/u.test(header) ? header : `'${header.replaceAll("'", "'\\''")}'`;
}
