/**
 * A SKU written as Excel's text formula `="000123"`, the idiom an ERP's CSV uses so that Excel keeps a code's leading
 * zeros: it was sent as the SKU `="000123"`, validate and push exit 0 (a user test). It is read as Excel and Calc show
 * it, `000123`, in an unquoted cell or a quoted one (`"=""000124"""`), from a scripted platform over real HTTP.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();

describe("stock push of a file whose SKUs are Excel's text formula", () => {
  it('sends ="000123" as 000123, "=""000124""" as 000124 and ="A""1" as A"1, exit 0', async () => {
    const bodies: string[] = [];
    platform.routes['PUT /v1/stock/batch'] = (_request, body, response) => {
      bodies.push(body);
      const items = (JSON.parse(body) as { items: { sku: string }[] }).items;
      const results = items.map((item) => ({ sku: item.sku, status: 'APPLIED' }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results }));
    };
    const folder = freshWorkDir();
    const rows = ['sku;quantity;price', '="000123";5;10,90', '"=""000124""";6;1,00', '="A""1";7;2,00', 'B2;8;3,00'];
    writeFileSync(join(folder, 'stock.csv'), [...rows, ''].join('\r\n'), 'latin1');
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const args = ['stock', 'push', 'stock.csv', '--route', 'batch'];
    const result = await runCommandLine(args, { configDir: freshConfigDir(), env, cwd: folder });
    expect(result.code).toBe(0);
    const sent = bodies.flatMap((body) => (JSON.parse(body) as { items: { sku: string }[] }).items);
    expect(sent.map((item) => item.sku)).toEqual(['000123', '000124', 'A"1', 'B2']);
    expect(bodies.join('')).not.toContain('=');
    expect(readReport(join(folder, onlyReport(folder, 'stock'))).map((row) => `${row.key} ${row.outcome}`)).toEqual([
      '000123 applied',
      '000124 applied',
      'A"1 applied',
      'B2 applied',
    ]);
  });

  it('stock validate reads them as the text Excel shows: two rows of ="000123" are the same SKU 000123, exit 65', async () => {
    const folder = freshWorkDir();
    writeFileSync(join(folder, 'stock.csv'), 'sku;quantity\r\n="000123";5\r\n="000123";6\r\n', 'latin1');
    const args = ['stock', 'validate', 'stock.csv'];
    const result = await runCommandLine(args, { configDir: freshConfigDir(), cwd: folder });
    // Read as 000123 both times: the same SKU twice, as the platform would take it.
    expect(result.code).toBe(65);
    expect(result.stdout).toContain('000123');
    expect(result.stdout).not.toContain('=');
  });
});
