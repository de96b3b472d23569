/**
 * Where a hand-off delivers, as it may be shown to anyone: a page without authentication, a log, a status table.
 * A URL keeps its scheme, host, port and path and loses its user-info and query values; a shell command keeps its
 * program and loses its arguments. Pure.
 */

const hidden = '***';

/** A URL without its credentials: `http://***@erp/hook?api_key=***` for `http://u:p@erp/hook?api_key=k`. */
export function urlShownSafely(text: string): string {
  let url: URL | undefined;
  try {
    if (/^[a-z][\w+.-]*:\/\//i.test(text)) url = new URL(text);
  } catch {
    url = undefined;
  }
  // Not a URL after all (`user:pass@host/path` reads as a scheme): everything from the first `?` or `#` goes,
  // and everything before an `@`.
  if (url === undefined || url.host === '')
    return text.replace(/[?#].*$/s, '').replace(/^([a-z][\w+.-]*:\/\/)?.*@/is, `$1${hidden}@`);
  const userInfo = url.username || url.password ? `${hidden}@` : '';
  const query = [...url.searchParams.keys()].map((name) => `${encodeURIComponent(name)}=${hidden}`).join('&');
  return `${url.protocol}//${userInfo}${url.host}${url.pathname}${query ? `?${query}` : ''}`;
}

/**
 * A message with every URL in it shown safely (urlShownSafely): commander quotes a flag's rejected value whole
 * (`argument 'ftp://u:pass@host/?token=t' is invalid`), and a usage error is a log line.
 */
export function urlsShownSafely(text: string): string {
  // A URL with nothing to hide is left as written (urlShownSafely would normalise it).
  return text.replace(/[a-z][\w+.-]*:\/\/[^\s'"]+/gi, (url) => (/[@?#]/.test(url) ? urlShownSafely(url) : url));
}

/**
 * A shell command by its program only: `/opt/erp/import.sh …` for `DB_PASSWORD=x /opt/erp/import.sh --key=y`.
 * Leading variable assignments are skipped, quotes and backslashes read as the shell reads them.
 */
export function commandShownSafely(command: string): string {
  const words = leadingWords(command);
  const program = words.find((word) => !/^[A-Za-z_]\w*=/.test(word.text));
  if (program === undefined) return `${hidden}`;
  const more = command.slice(program.end).trim() !== '';
  return `${program.text}${more ? ' …' : ''}`;
}

/**
 * A hand-off target as kept in the store (`exec COMMAND`, a URL, or `fetch orders into FOLDER`), shown safely;
 * stores written by earlier versions kept targets with their credentials, so they are shown through this too.
 */
export function targetShownSafely(target: string): string {
  if (target.startsWith('exec ')) return `exec ${commandShownSafely(target.slice('exec '.length))}`;
  if (/^[a-z][\w+.-]*:\/\//i.test(target)) return urlShownSafely(target);
  return target;
}

interface Word {
  text: string;
  /** Index in the command just past the word. */
  end: number;
}

/** The words of a command line up to its first unquoted operator, as a POSIX shell splits them. */
function leadingWords(command: string): Word[] {
  return wordsFrom(command, 0);
}

/**
 * The words of every simple command of a command line (`export A=1; env B=2 ./run.sh -u u:p | tee log`): each list
 * is one command's words, as leadingWords reads them, split at the shell's operators (`;`, `&`, `|`, `<`, `>`,
 * parentheses) and line breaks.
 */
export function commandLineWords(command: string): string[][] {
  const commands: string[][] = [];
  for (let start = 0; start < command.length;) {
    const words = wordsFrom(command, start);
    if (words.length > 0) commands.push(words.map((word) => word.text));
    const stop = operatorAfter(command, words.at(-1)?.end ?? start);
    if (stop < 0) break;
    start = stop + 1;
  }
  return commands;
}

/** The index of the first operator or line break at or after `from` (outside any word), or -1. */
function operatorAfter(command: string, from: number): number {
  for (let index = from; index < command.length; index++)
    if (/[;&|<>()\n]/.test(command[index] as string)) return index;
  return -1;
}

/**
 * The words from `start` up to the first unquoted operator. A command substitution (`$(cat file)`, backquotes) is
 * kept whole in its word, as written: its text, not what it expands to, is what the command line holds.
 */
function wordsFrom(command: string, start: number): Word[] {
  const words: Word[] = [];
  let text = '';
  let inWord = false;
  let index = start;
  const finish = () => {
    if (inWord) words.push({ text, end: index });
    text = '';
    inWord = false;
  };
  for (; index < command.length; index++) {
    const character = command[index] as string;
    const substitution = character === '$' && command[index + 1] === '(' ? closingParenthesis(command, index + 1) : -1;
    if (character === '\n') break;
    if (/\s/.test(character)) finish();
    else if (substitution >= 0 || character === '`') {
      const close = substitution >= 0 ? substitution : command.indexOf('`', index + 1);
      const stop = close < 0 ? command.length - 1 : close;
      text += command.slice(index, stop + 1);
      inWord = true;
      index = stop;
    } else if (/[;&|<>()]/.test(character)) break;
    else if (character === "'") {
      const close = command.indexOf("'", index + 1);
      const stop = close < 0 ? command.length : close;
      text += command.slice(index + 1, stop);
      inWord = true;
      index = stop;
    } else if (character === '"') {
      let cursor = index + 1;
      while (cursor < command.length && command[cursor] !== '"') {
        if (command[cursor] === '\\' && cursor + 1 < command.length) cursor++;
        text += command[cursor];
        cursor++;
      }
      inWord = true;
      index = cursor;
    } else if (character === '\\' && index + 1 < command.length) {
      text += command[++index];
      inWord = true;
    } else {
      text += character;
      inWord = true;
    }
  }
  finish();
  return words;
}

/** The index of the `)` that closes the `(` at `open`, nested ones counted, or -1. */
function closingParenthesis(command: string, open: number): number {
  let depth = 0;
  for (let index = open; index < command.length; index++) {
    if (command[index] === '(') depth++;
    else if (command[index] === ')' && --depth === 0) return index;
  }
  return -1;
}
