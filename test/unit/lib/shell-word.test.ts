/**
 * shellWord quotes a word of a printed command (a resume, a feed-back, a validate command) so it can be pasted as is:
 * a name holding a line break or a control character is written `$'…'`, as bash does, so the line that prints it
 * stays one line and bash reads the very name back.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellWord } from '../../../src/lib/shell-word.js';
import { holdsNonPrintable } from '../../../src/lib/non-printable.js';
import { requireTools } from '../../support/external-tools.js';

/** What bash makes of `word` as one argument, byte for byte. */
function readByBash(word: string): Buffer {
  const result = spawnSync('bash', ['-c', `printf '%s' ${word}`], { env: { PATH: process.env.PATH, LANG: 'C' } });
  expect(result.status).toBe(0);
  return result.stdout;
}

// Read back by bash, as a pasted line is.
const bash = requireTools('bash');

describe.skipIf(bash.missing)(`shellWord${bash.note}`, () => {
  it.each([
    ['stock.csv', 'stock.csv'],
    ['/srv/erp/export/stock.csv', '/srv/erp/export/stock.csv'],
    ['estoque de hoje.csv', "'estoque de hoje.csv'"],
    ["it's $HOME `x`.csv", "'it'\\''s $HOME `x`.csv'"],
  ])('%j, printable: as before (%s)', (word, quoted) => {
    expect(shellWord(word)).toBe(quoted);
  });

  it.each([
    ['a line break', 'estoque\nlinha2.csv', "$'estoque\\nlinha2.csv'"],
    [
      'a line break beside quotes, $, backticks and accents',
      "estoque ção $HOME 'q' `x`\nlinha2.csv",
      "$'estoque ção $HOME \\'q\\' `x`\\nlinha2.csv'",
    ],
    ['a tab and a carriage return', 'a\tb\r.csv', "$'a\\tb\\r.csv'"],
    ['an ESC', 'x\u001B[31mRED\u001B[0m.csv', "$'x\\x1B[31mRED\\x1B[0m.csv'"],
    ['a backslash and a line break', 'a\\n\nb.csv', "$'a\\\\n\\nb.csv'"],
    ['a C1 control (two bytes in UTF-8)', 'a\u0085b.csv', "$'a\\xC2\\x85b.csv'"],
    ['a right-to-left override', 'fatura\u202Ecsv.exe', "$'fatura\\xE2\\x80\\xAEcsv.exe'"],
  ])("%s: $'…' on one printable line, read back by bash as the very name", (_what, word, quoted) => {
    const shown = shellWord(word);
    expect(shown).toBe(quoted);
    expect(holdsNonPrintable(shown)).toBe(false);
    expect(readByBash(shown)).toEqual(Buffer.from(word, 'utf8'));
  });

  it('a quoted word without control characters is read back by bash too', () => {
    const word = "estoque ção $HOME 'q' `x`.csv";
    expect(readByBash(shellWord(word))).toEqual(Buffer.from(word, 'utf8'));
  });
});
