/**
 * `stock push` through a real nginx whose client_max_body_size is smaller than a 50-item batch: nginx answers its own
 * 413 page, and the built binary halves the batch, resends the refused items and reports each once.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, runCli } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { type RunningNginx, startNginx } from '../../support/nginx.js';
import { onlyFile, readReport } from '../../support/run-files.js';
import { sandboxPassword, sandboxUser, seedDirectory, startTestSandbox } from '../../support/sandbox.js';
import { stockSummary } from '../../support/stock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const nginxTool = requireTools('nginx');

describe.skipIf(nginxTool.missing)(`stock push behind nginx's body limit${nginxTool.note}`, () => {
  let sandbox: RunningSandbox;
  let nginx: RunningNginx;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    nginx = await startNginx(freshWorkDir(), sandbox.url, { serverLines: ['client_max_body_size 2k;'] });
  });
  afterAll(async () => {
    await nginx.stop();
    await sandbox.close();
    removeTemporaryFolders();
  });

  it('halves the batch after nginx refuses it, and every item is applied once', async () => {
    const configDir = freshConfigDir();
    const cwd = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(cwd, 'stock.csv'));
    const login = await runCli(['login', '--base-url', nginx.url, '--username', sandboxUser, '--password-stdin'], {
      configDir,
      cwd,
      stdin: `${sandboxPassword}\n`,
    });
    expect(login.code).toBe(0);

    const push = await runCli(['stock', 'push', 'stock.csv', '--route', 'batch'], { configDir, cwd });
    expect(push.code).toBe(0);
    expect(push.stderr).toMatch(/was refused as too large \(HTTP 413, usually a proxy's body limit\)/);
    expect(push.stderr).toMatch(/Pass --batch-size \d+ next time\./);
    const rows = readReport(onlyFile(cwd, 'stock.report-'));
    expect(rows).toHaveLength(52);
    expect(new Set(rows.map((row) => row.outcome))).toEqual(new Set(['applied']));
    expect(await stockSummary(sandbox)).toMatchObject({ applied: 52 });
  });
});
