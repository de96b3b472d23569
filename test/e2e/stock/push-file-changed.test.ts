/**
 * The file changes between the two passes (issue 10, item 9): the ERP is still writing the export
 * when cron starts. Appending to the file while it is being validated must stop the run before the
 * login: what is sent must be what was validated.
 */
import { spawn } from 'node:child_process';
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
});
