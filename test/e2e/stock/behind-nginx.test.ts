/**
 * `stock push` through a real nginx whose client_max_body_size is smaller than a 50-item batch: nginx answers its own
 * 413 page, and the built binary halves the batch, resends the refused items and reports each once.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { closedPort, freshConfigDir, freshWorkDir, runCli, sleep } from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { onlyFile, readReport } from '../../support/run-files.js';
import { sandboxPassword, sandboxUser, seedDirectory, startTestSandbox } from '../../support/sandbox.js';
import { stockSummary } from '../../support/stock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const nginxTool = requireTools('nginx');

/** nginx in the foreground, one process, every path in `dir`, in front of `target` with a 2 KB body limit. */
async function startNginx(dir: string, target: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await closedPort();
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const temp = ['client', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind === 'client' ? 'client_body' : kind}_temp_path ${join(dir, `${kind}-temp`)};`)
    .join('\n    ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'logs', 'error.log')};
events { worker_connections 64; }
http {
  access_log ${join(dir, 'logs', 'access.log')};
  ${temp}
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 2k;
    location / { proxy_pass ${target}; }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
  for (let tries = 0; tries < 100; tries++) {
    const open = await new Promise<boolean>((resolve) => {
      const probe = httpRequest({ host: '127.0.0.1', port, path: '/' }, (answer) => {
        answer.resume();
        resolve(true);
      });
      probe.on('error', () => resolve(false));
      probe.end();
    });
    if (open) break;
    await sleep(50);
  }
  return { url: `http://127.0.0.1:${port}`, child };
}

describe.skipIf(nginxTool.missing)(`stock push behind nginx's body limit${nginxTool.note}`, () => {
  let sandbox: RunningSandbox;
  let nginx: Awaited<ReturnType<typeof startNginx>>;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    nginx = await startNginx(freshWorkDir(), sandbox.url);
  });
  afterAll(async () => {
    nginx.child.kill('SIGTERM');
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
