/**
 * How a bulk run ends its log off a terminal: a last line naming file, profile and store, counts and exit code
 * (alone with --quiet); the items an unreachable store never received counted; and `--min-records`, which turns
 * an empty nightly export into exit 65 before anything is sent.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSku } from '../../support/stock.js';
import { runCommandLine } from '../../support/command-line.js';
import { requestCounts, resetCounts, seedDirectory, useSandboxWithToken } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';

let sandbox: RunningSandbox;
let env: Record<string, string>;
useSandboxWithToken((ready) => ({ sandbox, env } = ready));

function folderWith(files: Record<string, string>): { folder: string; configDir: string } {
  const folder = temporaryFolder('b2bctl-closing-');
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return { folder, configDir: join(folder, 'config') };
}

describe('the closing line', () => {
  it('customer create: file, profile and store, counts, exit code; --quiet keeps exactly that line', async () => {
    const { folder, configDir } = folderWith({});
    copyFileSync(join(seedDirectory, 'customers.csv'), join(folder, 'customers.csv'));
    const quiet = await runCommandLine(['customer', 'create', 'customers.csv', '--quiet', '--upsert'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.closingLine).toMatch(
      new RegExp(
        `^customer create: customers\\.csv to profile "default" \\(${sandbox.url.replaceAll('.', '\\.')}\\): 25 (created|updated|unchanged)(, \\d+ (updated|unchanged))*; exit 0$`,
      ),
    );
  });

  it('a run the store never answered counts the items never sent, in the summary and the closing line', async () => {
    const rows = Array.from({ length: 2000 }, (_, index) => `${generatedSku(index + 1)},5`);
    const { folder, configDir } = folderWith({ 'stock.csv': ['sku,quantity', ...rows, ''].join('\n') });
    const result = await runCommandLine(
      ['stock', 'push', 'stock.csv', '--route', 'batch', '--concurrency', '1', '--retries', '0'],
      { configDir, cwd: folder, env: { ...env, B2BCTL_BASE_URL: 'http://127.0.0.1:9' } },
    );
    expect(result.code).toBe(69);
    expect(result.stderr).toMatch(/^stock push: 150 failed, 1850 not sent; 3 requests, 0 retries, /m);
    expect(result.closingLine).toBe(
      'stock push: stock.csv to profile "default" (http://127.0.0.1:9): 150 failed, 1850 not sent; exit 69',
    );
  });
});

describe('--min-records N', () => {
  it.each([
    ['stock push', 'sku,quantity\n'],
    ['customer create', 'documentType,document,name,username,phone,password\n'],
    ['customer update', 'document,name\n'],
    ['customer status', 'document,active\n'],
  ])('%s: a header-only export is exit 65 naming the flag, and nothing is sent', async (command, header) => {
    const { folder, configDir } = folderWith({ 'export.csv': header });
    await resetCounts(sandbox);
    const result = await runCommandLine([...command.split(' '), 'export.csv', '--min-records', '1000'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain(
      'error: export.csv has 0 records, fewer than --min-records 1000 (an empty or cut-short export?); nothing was sent.',
    );
    expect(result.closingLine).toMatch(/: 0 records, 0 valid, 0 invalid; nothing sent; exit 65$/);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a file with enough records goes through as before', async () => {
    const { folder, configDir } = folderWith({
      'stock.csv': `sku,quantity\n${generatedSku(1)},3\n${generatedSku(2)},4\n`,
    });
    const result = await runCommandLine(['stock', 'push', 'stock.csv', '--min-records', '2'], {
      configDir,
      cwd: folder,
      env,
    });
    expect(result.code).toBe(0);
    expect(result.closingLine).toMatch(/: 2 applied; exit 0$/);
  });
});
