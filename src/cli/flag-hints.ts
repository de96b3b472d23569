import { printable } from '../lib/printable.js';
import { urlsShownSafely } from '../lib/shown-target.js';
/**
 * Flags people reach for that b2bctl does not take, with what to do instead: a secret is never read from the
 * command line (`ps` and the shell's history would show it), and a flag under another name. Pure.
 */
const hints: Readonly<Record<string, string>> = {
  '--password':
    'a password is never taken from the command line (ps and the shell history would show it): pipe it with --password-stdin, set B2BCTL_PASSWORD, or let b2bctl login ask for it on a terminal',
  '--client-secret':
    'a client secret is never taken from the command line (ps and the shell history would show it): pass --client-secret-file FILE, or set B2BCTL_WEBHOOK_CLIENT_SECRET',
  '--tracking-code': 'the tracking code is given with --tracking CODE (--tracking SS123456785BR)',
};

/**
 * A usage error of commander's (`error: unknown option '--password'`, or the required option that a misnamed flag
 * left missing) with the fix when the command line holds a flag of the table; the message unchanged otherwise.
 */
export function withFlagHint(message: string, words: readonly string[]): string {
  const flag = words.map((word) => word.split('=')[0] as string).find((word) => Object.hasOwn(hints, word));
  if (flag === undefined) return message;
  return `error: unknown option '${flag}': ${hints[flag]}.`;
}

/**
 * A usage error as it is logged: with the flag hint, and every URL in it without its user-info and query values
 * (commander quotes a rejected value whole, and `--forward-to 'ftp://u:pass@host'` would put the password in the log),
 * on one line: a folder name with a line break that commander quotes (`got 2: import, in⏎box`) is shown `\n`.
 */
export function usageErrorLine(text: string, args: readonly string[]): string {
  return printable(urlsShownSafely(withoutSecretWords(withFlagHint(suggestionInLine(text), args))));
}

/**
 * commander puts its suggestion on a line of its own (`…'stok'\n(Did you mean stock?)`), which the one-line rule
 * above would show as a literal `\n`: it goes in the line instead, as b2bctl's own suggestions are written.
 */
function suggestionInLine(message: string): string {
  return message.replace(/\n\(Did you mean (.*)\)$/s, ' (did you mean $1)');
}

/**
 * commander quotes what it could not place, and at a login that is most often the password typed where it is never
 * read (`b2bctl login … Senha#1`, `--password-stdin=Senha#1`): such words are not repeated into a log.
 */
function withoutSecretWords(message: string): string {
  const extra = /^error: too many arguments for 'login'\. .*$/s.exec(message);
  if (extra)
    return `error: login takes no arguments, and a password is never taken from the command line (ps and the shell history would show it): pipe it with --password-stdin, set B2BCTL_PASSWORD, or let b2bctl login ask for it on a terminal.`;
  return message.replace(/'(--[\w-]*(?:pass|secret|token)[\w-]*)=[^']*'/gi, "'$1=***'");
}
