/**
 * The file changes between the two passes (issue 10, item 9): the ERP is still writing the export
 * when cron starts. Appending to the file while it is being validated must stop the run before the
 * login: what is sent must be what was validated.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, collect, freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { requestCounts } from '../../support/sandbox.js';
import { stockSummary } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** A stock file of `count` rows, the SKU repeated by warehouse; `quantity` gives each row's. */
function stockRows(count: number, quantity: (index: number) => string): string {
  const rows = Array.from({ length: count }, (_, index) => `PAR-SXT-M8X40-ZN;${quantity(index)};1,00;;W-${index}`);
  return `sku;quantity;price;salePrice;warehouse\r\n${rows.join('\r\n')}\r\n`;
}

function spawnStock(dir: string, args: string[]): ChildProcess {
  return spawn(process.execPath, [cliPath, 'stock', ...args], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      B2BCTL_CONFIG_DIR: freshConfigDir(),
      B2BCTL_LOG_FORMAT: 'plain',
      B2BCTL_BASE_URL: sandbox.url,
      B2BCTL_TOKEN: token,
    },
  });
}

describe('a file that changes while it is read', () => {
  it.each([[[]], [['--dry-run']]])(
    'appended to during validation (%j): exit 65 naming the file, no login, nothing sent',
    { timeout: 120_000 },
    async (flags: string[]) => {
      const dir = freshWorkDir();
      const rows = Array.from({ length: 100_000 }, (_, index) => `PAR-SXT-M8X40-ZN;${index % 100};1,00;;W-${index}`);
      writeFileSync(join(dir, 'estoque.csv'), `sku;quantity;price;salePrice;warehouse\r\n${rows.join('\r\n')}\r\n`);
      const child = spawn(process.execPath, [cliPath, 'stock', 'push', 'estoque.csv', '--route', 'batch', ...flags], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          B2BCTL_CONFIG_DIR: freshConfigDir(),
          B2BCTL_LOG_FORMAT: 'plain',
          B2BCTL_BASE_URL: sandbox.url,
          B2BCTL_TOKEN: token,
        },
      });
      // b2bctl notes the file's identity before its first line; whether the validation pass then reads the
      // appended row or not, the file it would send is no longer the one it validated.
      child.stderr?.once('data', () => appendFileSync(join(dir, 'estoque.csv'), 'ACU-REF-5KG;1;1,00;;CD\r\n'));
      const result = await collect(child);
      expect(result.stderr).toContain(
        'error: estoque.csv changed while it was being read (another program is writing or replacing it); nothing was sent. Run again once the export is complete, or copy it first and pass the copy.',
      );
      expect(result.code).toBe(65);
      expect(await requestCounts(sandbox)).toEqual({});
      expect((await stockSummary(sandbox)).lines).toBe(0);
    },
  );

  // The records of a file rewritten as it is read are the rewrite's: the refusal named them, and told the person on
  // call to fix them or pass --skip-invalid, where the file was fine.
  it.each([[[]], [['--dry-run']]])(
    'rewritten in place with other rows during validation (%j): the change is the one verdict, not invalid records',
    { timeout: 120_000 },
    async (flags: string[]) => {
      const dir = freshWorkDir();
      writeFileSync(
        join(dir, 'estoque.csv'),
        stockRows(100_000, (index) => String(index % 100)),
      );
      const child = spawnStock(dir, ['push', 'estoque.csv', '--route', 'batch', ...flags]);
      // Every row of the new export is refused: whatever the pass read of it, its records are found invalid.
      const rewritten = stockRows(100_001, () => 'x');
      child.stderr?.once('data', () => writeFileSync(join(dir, 'estoque.csv'), rewritten));
      const result = await collect(child);
      const lines = result.stderr.split('\n');
      expect(lines.filter((line) => line.startsWith('error: '))).toEqual([
        'error: estoque.csv changed while it was being read (another program is writing or replacing it); nothing was sent. Run again once the export is complete, or copy it first and pass the copy.',
      ]);
      expect(result.code).toBe(65);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it(
    'stock validate: a file rewritten as it is checked is said to have changed, not to hold invalid rows',
    {
      timeout: 120_000,
    },
    async () => {
      const dir = freshWorkDir();
      // Its first row is refused: its problem, printed as the check starts, is the moment to rewrite the file.
      writeFileSync(
        join(dir, 'estoque.csv'),
        stockRows(100_000, (index) => (index === 0 ? '-1' : String(index % 100))),
      );
      const child = spawnStock(dir, ['validate', 'estoque.csv']);
      child.stdout?.once('data', () =>
        writeFileSync(
          join(dir, 'estoque.csv'),
          stockRows(100_001, () => 'x'),
        ),
      );
      const result = await collect(child);
      expect(result.stderr.split('\n').filter((line) => line.startsWith('error: '))).toEqual([
        'error: estoque.csv changed while it was being read (another program is writing or replacing it): what was checked is not the file as it now stands. Run again once the export is complete, or copy it first and validate the copy.',
      ]);
      expect(result.code).toBe(65);
    },
  );
});
