/** Quotes a word for a POSIX shell when it needs it, so a printed command can be pasted as is. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
