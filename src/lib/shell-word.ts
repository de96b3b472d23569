import { holdsNonPrintable, nonPrintable } from './non-printable.js';

/**
 * Quotes a word for a POSIX shell when it needs it, so a printed command can be pasted as is. A word holding a
 * character no printed line may carry (a line break or an ESC in a file name) is quoted as bash quotes it, `$'…'`, that
 * character written as its bytes (`$'estoque\nlinha2.csv'`, `$'x\x1B[31m.csv'`): single quotes would keep it raw, and
 * a log line broken in two (or shown with `\u{1B}` in place of the byte) names a file that does not exist. bash, zsh
 * and ksh read `$'…'` in every locale (POSIX.1-2024 too); dash 0.5.12, Debian's /bin/sh, does not.
 */
export function shellWord(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (!holdsNonPrintable(word)) return `'${word.replaceAll("'", "'\\''")}'`;
  return `$'${word.replace(/[\\']/g, '\\$&').replace(nonPrintable, escapedCharacter)}'`;
}

/** A character inside `$'…'`: a line break, tab or carriage return by its letter, any other as its UTF-8 bytes. */
function escapedCharacter(character: string): string {
  if (character === '\n') return '\\n';
  if (character === '\t') return '\\t';
  if (character === '\r') return '\\r';
  return [...Buffer.from(character, 'utf8')]
    .map((byte) => `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
}
