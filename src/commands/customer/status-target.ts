import { existsSync } from 'node:fs';
import { UsageError } from '../../base/errors.js';
import { looksLikeDocument } from '../../domain/documents.js';
import { activeStateWords, parseActiveState } from '../../io/input/cell-values.js';
import { shellWord } from '../../lib/shell-word.js';

/** One customer by document, or every row of a FILE with document and active columns. */
export type CustomerStatusTarget = { document: string; active: boolean } | { file: string };

/**
 * What `customer status TARGET [STATE]` means: `DOC active|inactive`, or a FILE of document,active rows. A bare
 * document is a forgotten state, not a file to open: say what is missing and what to type instead of "file not
 * found". A file with a state is not opened here (stdin cannot be read twice): the line says what to do whether or
 * not it has the active column.
 */
export function statusTarget(target: string, state: string | undefined): CustomerStatusTarget {
  if (state !== undefined && !looksLikeDocument(target) && looksLikeFile(target)) {
    // A word the run would refuse on every row is refused here, before a command line is offered with it.
    stateWord(state);
    throw new UsageError(
      `customer status ${target} ${state}: a file gives each customer's state in its active column, not on the command line. If ${target} has that column, drop "${state}": b2bctl customer status ${target}; if not, add it (${state} on each row) and do the same${plainListLine(target, state)}. For one customer, give the document: b2bctl customer status 529.982.247-25 ${state}.`,
    );
  }
  if (state !== undefined) return { document: target, active: stateWord(state) };
  if (looksLikeDocument(target))
    throw new UsageError(
      `customer status ${target}: the state is missing; type b2bctl customer status ${target} active (or inactive).`,
    );
  return { file: target };
}

/**
 * The one line that gives a text file of documents alone (one column, as pasted from an e-mail) its active column,
 * the same state on each row, and sends it: a list of customers to block is the usual case. A workbook has no such
 * line: its column is added in the spreadsheet.
 */
function plainListLine(target: string, state: string): string {
  // Blank lines (a paste's last one) would be rows without a document; a last line without its line end, refused
  // by every CSV reader of b2bctl (decision 0029), gets one: GNU sed keeps it missing otherwise.
  const addColumn = `sed -e 's/\\r$//' -e '/^$/d' -e '1s/$/,active/' -e '2,$s/$/,${state}/' -e '$a\\'`;
  if (target === '-')
    return `; for a list of documents alone, one a line: ... | ${addColumn} | b2bctl customer status -`;
  if (!/\.(csv|txt)$/i.test(target)) return '';
  const withState = target.replace(/\.(csv|txt)$/i, `-${state}.csv`);
  return `; for a list of documents alone, one a line: ${addColumn} ${shellWord(target)} > ${shellWord(withState)} && b2bctl customer status ${shellWord(withState)}`;
}

/** stdin, a name with an extension (`clientes.csv`), or a path that exists: a file rather than a mistyped document. */
function looksLikeFile(text: string): boolean {
  return text === '-' || /\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(text) || existsSync(text);
}

/** The state word of `customer status DOC STATE`: active/inactive, their Portuguese words, or any boolean cell word. */
function stateWord(word: string): boolean {
  const flag = parseActiveState(word);
  if (flag === undefined) throw new UsageError(`The state must be ${activeStateWords}; not "${word}".`);
  return flag;
}
