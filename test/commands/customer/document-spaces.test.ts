/**
 * A CPF or CNPJ written with the spaces a web page, a spreadsheet's number format or a PDF puts between digits
 * (no-break U+00A0, narrow no-break U+202F, figure U+2007, a tab) is valid, as with a plain space: the no-break one
 * was accepted with no test to keep it so, and the narrow no-break and figure spaces were refused as "only digits,
 * upper-case letters and the punctuation . - /".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { repoRoot } from '../../support/sandbox.js';
import { expectLines, timed } from '../../support/run-files.js';

/** The header and the first customer of samples/customers.csv, whose CPF is 100.007.919-89. */
const [header, first] = readFileSync(join(repoRoot, 'samples', 'customers.csv'), 'utf8').split('\n');

describe('customer validate: a document with a space of another kind between its digits', () => {
  it.each([
    ['a no-break space', '100.007.919\u00A089'],
    ['a narrow no-break space', '100\u202F007\u202F919-89'],
    ['a figure space', '100.007.919\u200789'],
    ['a tab', '100.007.919\t89'],
  ])('%s: valid, exit 0', async (_, document) => {
    expect(first).toContain(',100.007.919-89,');
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'spaced.csv'), `${header}\n${first?.replace('100.007.919-89', document)}\n`);
    const result = await runCommandLine(['customer', 'validate', 'spaced.csv'], {
      configDir: freshConfigDir(),
      cwd: folder,
    });
    expect(result.code).toBe(0);
    expectLines(result.stderr, [timed('spaced.csv: 1 record, 1 valid, 0 invalid (0 problems) in {s} s.')]);
  });
});
