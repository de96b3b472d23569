import { countOf } from '../../lib/plural.js';
import { printable } from '../../lib/printable.js';
import { InputError } from '../../base/errors.js';
import { fieldForHeader } from '../../domain/header-aliases.js';
import { type InputOptions, recordPlace } from './opened-input.js';
import type { HeaderProblems } from './record-shape.js';
import { notTakenField } from './unmapped-columns.js';

/*
 * What the header row of a CSV or workbook says before any record is read: a header that stops the run (unreadable,
 * repeated, a missing required column, a --delimiter the header lacks) and the warnings of columns no field reads.
 */

/** A header or key as a message quotes it: at most 80 characters, so an 8 MB header line is not echoed back. */
export function shortText(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} characters)` : text;
}

/**
 * What the header row says about the reading itself, told before any column is named missing: a `--delimiter` the
 * header does not contain while it holds another one.
 */
export function headerHint(
  headers: readonly string[],
  options: { delimiter: string; delimiterGiven?: boolean },
): string | undefined {
  if (!options.delimiterGiven || headers.length !== 1) return undefined;
  const header = headers[0] ?? '';
  const other = [';', ',', '\t', '|'].find(
    (candidate) => candidate !== options.delimiter && header.includes(candidate),
  );
  if (!other) return undefined;
  return `the header has no ${delimiterName(options.delimiter)} (--delimiter) but has ${delimiterName(other)}: the file is probably ${delimiterName(other)}-separated. Drop --delimiter (b2bctl finds it) or pass --delimiter ${other === '\t' ? "$'\\t'" : `"${other}"`}`;
}

/** A delimiter as a message names it. */
function delimiterName(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `"${delimiter}"`;
}

/** A header named as ERPs name the field (`CNPJ` for document), or misspelt (`usrname`): the --map entry that reads it. */
function aliasHint(
  problems: HeaderProblems & { headers: readonly string[] },
  knownPaths: readonly string[],
  field: string,
): string {
  const header = (
    problems.unknown.find((unknown) => fieldForHeader(unknown.header, knownPaths) === field) ??
    problems.unknown.find((unknown) => unknown.suggestion === field)
  )?.header;
  return header === undefined
    ? ''
    : ` Your column "${shortText(header)}" looks like it: rename it "${field}", or pass --map with a JSON file such as {${JSON.stringify(header)}:${JSON.stringify(field)}}.`;
}

/**
 * Every required column the header lacks, in one line: a file without its e-mail column is one error, not one per
 * record, and one without two columns is not fixed one run at a time.
 */
function missingColumns(
  problems: HeaderProblems & { headers: readonly string[] },
  knownPaths: readonly string[],
  quotesHeader: boolean,
): string {
  const quoted = problems.missing.map((field) => `"${field}"`);
  // A column that looks like a field is a table's, safe to quote; the rest of the header may be any file's first line.
  const hints = problems.missing.map((field) => aliasHint(problems, knownPaths, field));
  const unhinted = quoted.filter((_, index) => hints[index] === '');
  const nameThem =
    unhinted.length === 0
      ? ''
      : unhinted.length === 1
        ? ` Name the column ${unhinted[0]}, or map yours to it with --map.`
        : ` Name the columns ${unhinted.join(', ')}, or map yours to them with --map.`;
  return `${missingColumnsText(problems, quotesHeader)}.${hints.join('')}${nameThem}`;
}

/** `no "username" or "password" column (the columns are …)`: what a header without required columns lacks. */
export function missingColumnsText(
  problems: { missing: readonly string[]; headers: readonly string[] },
  quotesHeader = true,
): string {
  const quoted = problems.missing.map((field) => `"${field}"`);
  const listed = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  return `no ${listed} column (${quotesHeader ? `the columns are ${headersText(problems)}` : unquotedHeaderText(problems)})`;
}

/**
 * The problem of columns read as one field. Under one header, that header repeated; under several (`Telefone` and
 * `Celular`, both mapped to phone by --map, or `Phone` and `phone`), each column by its header and what makes it the
 * field: said as a `phone` column that "appears 2 times", it sent the operator to a column the file does not have
 * (a user test).
 */
function repeatedColumnText(
  repeated: { path: string; columns: readonly number[] },
  headers: readonly string[],
  options: Pick<InputOptions, 'headerMap' | 'headerMapFile' | 'quotesHeader'>,
): string {
  const written = repeated.columns.map((column) => (headers[column - 1] ?? '').trim());
  if (options.quotesHeader === false || written.every((header) => header === repeated.path))
    return `column "${repeated.path}" appears ${repeated.columns.length} times (columns ${repeated.columns.join(', ')}). Keep one, or rename the other with --map.`;
  const named = repeated.columns.map((column, index) => `${column} "${shortText(written[index] ?? '')}"`);
  const columns = `${named.slice(0, -1).join(', ')} and ${named.at(-1) ?? ''}`;
  const mapped = written.filter(
    (header) => options.headerMap !== undefined && Object.hasOwn(options.headerMap, header),
  );
  const map = options.headerMapFile === undefined ? '--map' : printable(options.headerMapFile);
  const read = `are ${named.length === 2 ? 'both' : 'all'} read as the field ${repeated.path}`;
  const others = named.length === 2 ? 'the other' : 'the others';
  if (mapped.length === 0)
    return `columns ${columns} ${read}. Keep one, or map ${others} to another field (or to null, to leave ${named.length === 2 ? 'it' : 'them'} out) with --map.`;
  const maps = `${map} maps ${mapped.map((header) => `"${shortText(header)}"`).join(' and ')} to it`;
  return `columns ${columns} ${read} (${maps}). Keep one: in ${map}, map ${others} to another field, or to null to leave ${named.length === 2 ? 'it' : 'them'} out.`;
}

/** A header described without its words (InputOptions.quotesHeader): how many columns, and where to see them. */
function unquotedHeaderText(problems: { headers: readonly string[] }): string {
  const named = problems.headers.filter((header) => header.trim() !== '').length;
  return `the header has ${countOf(named, 'named columns')}, not quoted here; a command run by hand, such as tax quote, quotes them`;
}

/** Stops at the header for what no record can survive (a repeated or missing column); warns of unknown columns. */
export function reportHeaderProblems(
  file: string,
  { line, row }: { line: number; row?: number },
  problems: HeaderProblems & { headers: readonly string[] },
  options: InputOptions & { hint?: string },
): void {
  const at = recordPlace({ line, row });
  if (options.hint) throw new InputError(`${file}:${at}: ${options.hint}.`, { file, line });
  const unreadable = problems.unreadable[0];
  if (unreadable)
    throw new InputError(
      options.quotesHeader === false
        ? `${file}:${at}: column ${unreadable.column} of the header: ${unreadable.reason}.`
        : `${file}:${at}: column ${unreadable.column} "${shortText(unreadable.header)}": ${unreadable.reason}.`,
      {
        file,
        line,
        field: options.quotesHeader === false ? `column ${unreadable.column}` : shortText(unreadable.header),
      },
    );
  const repeated = problems.repeated[0];
  if (repeated) {
    throw new InputError(`${file}:${at}: ${repeatedColumnText(repeated, problems.headers, options)}`, {
      file,
      line,
      field: repeated.path,
    });
  }
  if (problems.missing.length > 0) {
    throw new InputError(
      `${file}:${at}: ${missingColumns(problems, options.catalogue.knownPaths, options.quotesHeader !== false)}`,
      {
        file,
        line,
        field: problems.missing[0],
      },
    );
  }
  for (const unknown of problems.unknown.slice(0, maxUnknownWarnings))
    warnOfUnknownColumn(file, at, { ...unknown, line }, options, 'column');
  const more = problems.unknown.length - maxUnknownWarnings;
  if (more > 0) options.warn(`warning: ${file}:${at}: ${more} more unknown columns.`);
}

/**
 * A column (or JSON key) no field reads, told once: a warning that the run stops if it holds data, with the field it
 * probably means; an error under `--strict`.
 */
export function warnOfUnknownColumn(
  file: string,
  /** After `file:`: the header's line, or the JSON record where the key is first met. */
  at: string,
  unknown: { header: string; suggestion: string | undefined; line: number },
  options: Pick<InputOptions, 'catalogue' | 'strict' | 'warn'>,
  noun: 'column' | 'key',
): void {
  const refused =
    options.catalogue.notTaken === undefined ? undefined : notTakenField(unknown.header, options.catalogue.notTaken);
  if (refused !== undefined && !options.strict) {
    options.warn(
      `warning: ${file}:${at}: ${noun} "${shortText(unknown.header)}" is not sent by this command (${refused}); the run stops if it holds data (leave it out with --ignore-column).`,
    );
    return;
  }
  const meant = fieldForHeader(unknown.header, options.catalogue.knownPaths);
  const hint = meant
    ? ` (it looks like "${meant}": rename it, or put {${JSON.stringify(unknown.header)}:${JSON.stringify(meant)}} in a --map file)`
    : unknown.suggestion
      ? ` (did you mean "${unknown.suggestion}"?)`
      : '';
  const message = `${file}:${at}: unknown ${noun} "${shortText(unknown.header)}"${hint}`;
  if (options.strict)
    throw new InputError(`${message}. Rename it with --map, or drop --strict to ignore it.`, {
      file,
      line: unknown.line,
      field: shortText(unknown.header),
    });
  options.warn(
    `warning: ${message}: no field reads it, and the run stops if it holds data (map it with --map, or leave it out with --ignore-column).`,
  );
}

/** Unknown columns warned about one by one; a file with 100,000 of them is not a wall of text. */
const maxUnknownWarnings = 10;

function headersText(problems: { headers: readonly string[] }): string {
  const named = problems.headers.filter((header) => header.trim() !== '');
  const shown = named.slice(0, 20).map(shortText).join(', ');
  return named.length > 20 ? `${shown} and ${named.length - 20} more` : shown || 'none';
}
