/**
 * A comma CSV row refused as a decimal comma that split a number (decision 0031) meets the same check when its errors
 * file is fed back unchanged, as the errors file's own line advises. A user test: the header `sku,…,warehouse,`
 * (LibreOffice's empty last column) became `…,warehouse,,row,error` in the errors file, the check no longer saw the
 * spare column, and the store received price 6 and warehouse "5" for `6,5`, exit 0. A row longer than its header was
 * cut to the header in the errors file, and its `6,5` came back `6`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyErrorsFile } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { inlineCell, numberCell, writeXlsx } from '../../support/workbook-writer.js';

const platform = useScriptedPlatform();

/** The items of every stock batch the store receives, each answered APPLIED but the SKUs `refused`. */
function stockStore(refused: readonly string[] = []): unknown[] {
  const sent: unknown[] = [];
  platform.routes['PUT /v1/stock/batch'] = (_request, body, response) => {
    const items = (JSON.parse(body) as { items: { sku: string }[] }).items;
    sent.push(...items);
    const results = items.map((item, index) =>
      refused.includes(item.sku)
        ? { index, sku: item.sku, status: 'REJECTED', message: 'SKU not found' }
        : { index, sku: item.sku, status: 'APPLIED', message: '' },
    );
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
  };
  return sent;
}

function push(folder: string, file: string, ...flags: string[]) {
  return runCommandLine(['stock', 'push', file, '--route', 'batch', ...flags], {
    configDir: freshConfigDir(),
    env: { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' },
    cwd: folder,
  });
}

const spareColumnShift =
  "the row fills column 4, the header's last named one, leaves its unnamed column 5 empty and holds whole numbers side by side";
const longRow = 'the row has 4 cells but the header has 3 columns: in a comma-separated file a decimal comma splits';

describe('stock push: a split decimal refused in a comma CSV is refused again from its errors file', () => {
  it.each([
    [
      'a header ending with a delimiter (the spare column took the split row)',
      'sku,quantity,price,warehouse,\r\nCAFE-TORR-500G,10,6,5,\r\nACU-REF-5KG,3,119.90,CD-SP,\r\n',
      spareColumnShift,
      /^\uFEFFsku,quantity,price,warehouse,,row,error\r\nCAFE-TORR-500G,10,6,5,,2,"the row fills column 4/,
    ],
    [
      'a row longer than its header, kept whole in the errors file',
      'sku,quantity,price\r\nCAFE-TORR-500G,10,6,5\r\nACU-REF-5KG,3,119.90\r\n',
      longRow,
      /^\uFEFFsku,quantity,price,row,error\r\nCAFE-TORR-500G,10,6,5,2,"the row has 4 cells/,
    ],
  ])('%s: the store receives nothing for that row, exit 65', async (_name, input, refusal, errorsText) => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'precos.csv'), input);
    const sent = stockStore();
    const first = await push(folder, 'precos.csv', '--skip-invalid');
    expect({ code: first.code, refused: first.stderr.includes(`precos.csv:2: ${refusal}`) }).toEqual({
      code: 1,
      refused: true,
    });
    expect(sent).toEqual([expect.objectContaining({ sku: 'ACU-REF-5KG' })]);
    const errors = onlyErrorsFile(folder, 'precos');
    expect(readFileSync(join(folder, errors), 'utf8')).toMatch(errorsText);

    sent.length = 0;
    const again = await push(folder, errors);
    expect(again.code).toBe(65);
    expect(again.stderr).toContain(`${errors}:2: ${refusal}`);
    expect(sent).toEqual([]);
  });

  it("a right row the check refuses (LibreOffice's quoted decimals) is refused from its errors file too", async () => {
    const folder = freshWorkDir();
    writeFileSync(
      join(folder, 'lo.csv'),
      'sku,quantity,price,salePrice,warehouse,,\r\nCAFE-TORR-500G,0,25,"22,5",CD-SP,,\r\nACU-REF-5KG,12,"119,9",,CD-SP,,\r\n',
    );
    const sent = stockStore();
    const first = await push(folder, 'lo.csv', '--skip-invalid', '--decimal', ',');
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("lo.csv:2: the row fills column 5, the header's last named one");
    sent.length = 0;
    const again = await push(folder, onlyErrorsFile(folder, 'lo'), '--decimal', ',');
    expect(again.code).toBe(65);
    expect(again.stderr).toContain(":2: the row fills column 5, the header's last named one");
    expect(sent).toEqual([]);
  });

  // The errors file's row and error columns are not the input's: a row failing again gets new ones, not two pairs.
  it('an errors file saved as a workbook, its row refused again: one row and one error column in the next', async () => {
    const folder = freshWorkDir();
    const header = ['sku', 'quantity', 'price', 'row', 'error'].map((name, index) =>
      inlineCell(`${'ABCDE'[index]}1`, name),
    );
    const row = `${inlineCell('A2', 'REJ-1')}${numberCell('B2', 5)}${numberCell('C2', 2.5)}${numberCell('D2', 7)}${inlineCell('E2', 'SKU not found')}`;
    writeXlsx(join(folder, 'fixed.xlsx'), `<row r="1">${header.join('')}</row><row r="2">${row}</row>`);
    stockStore(['REJ-1']);
    expect((await push(folder, 'fixed.xlsx')).code).toBe(1);
    expect(readFileSync(join(folder, onlyErrorsFile(folder, 'fixed')), 'utf8')).toBe(
      '\uFEFFsku,quantity,price,row,error\r\nREJ-1,5,2.5,2,SKU not found\r\n',
    );
  });
});
