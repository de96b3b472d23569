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
 * The variables a shell command sets for its program (`DB_PASSWORD=x TOKEN=y ./import.sh`), as the shell reads
 * them: the command's own environment, whose secrets its output may quote.
 */
export function leadingAssignments(command: string): Record<string, string> {
  const assignments: Record<string, string> = {};
  for (const word of leadingWords(command)) {
    const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(word.text);
    if (!assignment) break;
    assignments[assignment[1] as string] = assignment[2] as string;
  }
  return assignments;
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
  const words: Word[] = [];
  let text = '';
  let inWord = false;
  let index = 0;
  const finish = () => {
    if (inWord) words.push({ text, end: index });
    text = '';
    inWord = false;
  };
  for (; index < command.length; index++) {
    const character = command[index] as string;
    if (/\s/.test(character)) finish();
    else if (/[;&|<>()]/.test(character)) break;
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
