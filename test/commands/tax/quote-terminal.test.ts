/**
 * `tax quote` on a terminal of 60 and 80 columns, checked on the rendered screen: no row wraps, the item (the one
 * column naming a row) stays whole, the taxes that apply to fewer items are left out first and named under the totals.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { saleFlags } from '../../support/tax-sale.js';

afterAll(removeTemporaryFolders);

const fixtures = join(__dirname, '..', '..', 'fixtures', 'tax');
const folder = temporaryFolder('b2bctl-tax-terminal-');
copyFileSync(join(fixtures, 'impostos-libreoffice.csv'), join(folder, 'impostos.csv'));
copyFileSync(join(fixtures, 'impostos.map.json'), join(folder, 'impostos.map.json'));
/** The table docs/tax.md quotes from, as copied into the folder. */
const table = ['--rules', 'impostos.csv', '--map', 'impostos.map.json'];

/** docs/tax.md's sale of two items, SP → RJ to a taxpayer, on a terminal `columns` wide. */
function quoteOnTerminal(columns: number) {
  return runCommandLine(
    [
      'tax',
      'quote',
      ...table,
      ...saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,10,45.90', '--item', '84713012,1,3500,0,25'),
    ],
    { configDir: freshConfigDir(), cwd: folder, tty: { stdout: true, stderr: true }, columns },
  );
}

describe('tax quote on a terminal', () => {
  for (const [columns, header, hidden] of [
    [80, /^ITEM\s+MERCHANDISE\s+IPI\s+ICMS\s+ICMS-ST\s+DIFAL\s+ADDED$/, 'FCP hidden to fit 80 columns'],
    [60, /^ITEM\s+MERCHANDISE\s+IPI\s+ICMS\s+ADDED$/, 'ICMS-ST, DIFAL and FCP hidden to fit 60 columns'],
  ] as const) {
    it(`at ${columns} columns: no row wraps, each NCM whole, the taxes left out named under the totals`, async () => {
      const result = await quoteOnTerminal(columns);
      expect(result.code).toBe(0);
      expect(await wrappedLineCount(result.stdout, columns)).toBe(0);
      const screen = await renderedScreen(result.stdout, columns);
      expect(screen[0]).toMatch(header);
      expect(screen[1]).toMatch(/^39269090\s+459\.00\s+29\.84\s+55\.08\s/);
      expect(screen[2]).toMatch(/^84713012\s+3500\.00\s/);
      expect(screen.join('\n')).not.toContain('…');
      const notes = result.stderr.replaceAll('\n', ' ');
      expect(notes).toContain('ICMS-ST 95.48, DIFAL 0.00, FCP 0.00; taxes added 477.82.');
      expect(notes).toContain(`${hidden}: widen the terminal, or -o csv or -o json for every field.`);
    });
  }

  it('piped as a table, every tax is a column', async () => {
    const result = await runCommandLine(
      ['-o', 'table', 'tax', 'quote', ...table, ...saleFlags('SP', 'RJ', 'taxpayer', '--item', '39269090,10,45.90')],
      { configDir: freshConfigDir(), cwd: folder },
    );
    expect(result.stdout.split('\n')[0]).toMatch(/^ITEM\s+MERCHANDISE\s+IPI\s+ICMS\s+ICMS-ST\s+DIFAL\s+FCP\s+ADDED$/);
    expect(result.stderr).not.toContain('hidden');
  });
});
