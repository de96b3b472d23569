/**
 * A FIFO or a process substitution as FILE (issue 10, item 8): read once and spooled like stdin, so
 * the send pass sends what the validate pass checked instead of hanging or finding the pipe empty.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { cliPath, collect, freshConfigDir, freshWorkDir, useSandboxPerFile } from '../../support/cli.js';
import { repoRoot, requestCounts } from '../../support/sandbox.js';
import { batchRoute, stockEntries } from '../../support/stock.js';
import { requireTools } from '../../support/external-tools.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

const fixture = join(repoRoot, 'test', 'fixtures', 'real-exports', 'estoque.win1252.csv');

function environment(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    B2BCTL_CONFIG_DIR: freshConfigDir(),
    B2BCTL_LOG_FORMAT: 'plain',
    B2BCTL_BASE_URL: sandbox.url,
    B2BCTL_TOKEN: token,
  };
}

const bash = requireTools('bash');

/** The sheet's description and date columns: read by no stock field, left out as its user would. */
const leftOut = ['--ignore-column', 'descrição', '--ignore-column', 'atualizado em'];

describe('a pipe as FILE is spooled like stdin', () => {
  it('a named FIFO: validated, then every row sent, exit 0', { timeout: 120_000 }, async () => {
    const dir = freshWorkDir();
    copyFileSync(fixture, join(dir, 'source.csv'));
    expect(spawnSync('mkfifo', [join(dir, 'estoque.csv')]).status).toBe(0);
    const child = spawn(process.execPath, [cliPath, 'stock', 'push', 'estoque.csv', ...leftOut], {
      cwd: dir,
      env: environment(),
    });
    // The writer opens the FIFO after b2bctl does, as an ERP's export job would.
    const writer = spawn('sh', ['-c', 'cat source.csv > estoque.csv'], { cwd: dir });
    const written = new Promise((resolve) => writer.on('close', resolve));
    const result = await collect(child);
    await written;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('stock push: sending 4 items');
    // Messages name the file given, never the private spool file.
    expect(result.stderr).toContain('estoque.csv:1: column "descrição" is left out (--ignore-column).');
    expect(result.stderr).not.toContain('b2bctl-stdin-');
    expect(await requestCounts(sandbox)).toMatchObject({ [batchRoute]: 1 });
    expect((await stockEntries(sandbox)).map((entry) => entry.warehouse)).toContain('CD-Ribeirão Preto');
    expect(readdirSync(dir).some((name) => name.startsWith('estoque.report-'))).toBe(true);
  });

  it.skipIf(bash.missing)(
    `a process substitution <(cat f.csv): the report goes to the working folder${bash.note}`,
    { timeout: 120_000 },
    async () => {
      const dir = freshWorkDir();
      copyFileSync(fixture, join(dir, 'source.csv'));
      const child = spawn(
        'bash',
        [
          '-c',
          `'${process.execPath}' '${cliPath}' stock push <(cat source.csv) --ignore-column descrição --ignore-column 'atualizado em'`,
        ],
        {
          cwd: dir,
          env: environment(),
        },
      );
      const result = await collect(child);
      expect(result.code).toBe(0);
      expect(await requestCounts(sandbox)).toMatchObject({ [batchRoute]: 1 });
      expect(await stockEntries(sandbox)).toHaveLength(4);
      expect(readdirSync(dir).some((name) => /^\d+\.report-/.test(name))).toBe(true);
    },
  );
});
