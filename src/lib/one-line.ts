import { printable } from './printable.js';

/*
 * A text put on one line, in the three ways b2bctl needs one. They differ in what becomes of the characters other
 * than line breaks, and each name says which: kept (a message the logger makes printable), escaped (a value a
 * table shows, where a tab or an ESC in a cell must stay visible), or spaces (prose whose invisible characters
 * carry nothing, such as an error page's text).
 */

/** Each line break, with the white space around it, as one space; every other character as it is. */
export function lineBreaksAsSpaces(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

/**
 * A value as a table's cell or a record's field shows it: its line breaks as spaces (a quoted CSV cell over two
 * lines), and every other control or invisible character escaped as printable() shows it (a tab as `\t`).
 */
export function printableOnOneLine(text: string): string {
  return printable(lineBreaksAsSpaces(text));
}

/**
 * Prose on one line: line breaks, tabs and other control characters (a progress bar's \r, colours) and the Unicode
 * line and paragraph separators become spaces, each run of white space one space, and the ends are trimmed.
 */
export function collapsedOneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
