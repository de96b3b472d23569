/**
 * `tax quote -o csv --excel` opened in LibreOffice Calc as a pt-BR user opens it (a user test: Calc showed the NCM
 * 09012100 as the number 9012100, a prefix the tax table refuses to read back). The NCM goes behind the `'` a bulk
 * report's key gets, which Calc keeps as text.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { restoreDigitsGuard } from '../../../src/io/output/csv-format.js';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireTools } from '../../support/external-tools.js';
import { convertedByCalc } from '../../support/libreoffice.js';
import { saleFlags } from '../../support/tax-sale.js';

const soffice = requireTools('soffice');

describe.skipIf(soffice.missing)(`tax quote -o csv --excel opened in Calc${soffice.note}`, () => {
  it('keeps the NCM 09012100 as text with its leading zero, and a plain CSV writes it bare', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 't.csv'), 'ncm,from,to,buyer,icmsRate,ipiRate\n0901,SP,RJ,taxpayer,12,0\n');
    const quote = (...output: string[]) =>
      runCommandLine(
        [
          'tax',
          'quote',
          '--rules',
          't.csv',
          ...saleFlags('SP', 'RJ', 'taxpayer', '--item', '09012100,1,100'),
          ...output,
        ],
        { configDir: freshConfigDir(), cwd: folder },
      );
    const excel = await quote('-o', 'csv', '--excel');
    expect(excel.code).toBe(0);
    expect(excel.stdout.split('\r\n')[1]).toMatch(/^;'09012100;100,00;/);
    // A CSV for programs is the data as it is.
    expect((await quote('-o', 'csv')).stdout.split('\r\n')[1]).toMatch(/^,09012100,100\.00,/);
    writeFileSync(join(folder, 'q.csv'), excel.stdout);
    // Opened as a pt-BR Calc opens a `;` CSV (default column types), saved with every text cell quoted: the NCM is
    // a text cell, not the number 9012100.
    const options = '59,34,76,1,,1046,false,false';
    convertedByCalc({
      folder,
      infilter: `Text - txt - csv (StarCalc):${options}`,
      convertTo: 'csv:Text - txt - csv (StarCalc):59,34,76,1,,1046,true,false,true,false,false',
      outdir: join(folder, 'calc'),
      files: [join(folder, 'q.csv')],
      timeoutMs: 300_000,
      env: { ...process.env, LC_ALL: 'pt_BR.UTF-8' },
    });
    const row = readFileSync(join(folder, 'calc', 'q.csv'), 'utf8').split(/\r?\n/)[1] ?? '';
    const ncm = row.split(';')[1] ?? '';
    expect(ncm).toBe(`"'09012100"`);
    // As b2bctl's readers take the cell back: 09012100.
    expect(restoreDigitsGuard(ncm.slice(1, -1))).toBe('09012100');
  });
});
