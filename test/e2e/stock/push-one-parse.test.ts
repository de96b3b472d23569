/**
 * One parse (issue 14): `stock push` reads its input once and sends from a private spool of verdicts,
 * which is gone when the run ends, whether it sent everything or stopped on invalid rows.
 */
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { useSandboxPerFile, freshConfigDir, freshWorkDir, runCli } from '../../support/cli.js';
import { requestCounts, seedDirectory } from '../../support/sandbox.js';
import { sampleCsvEntries, stockEntries } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** Runs the CLI with its own temporary folder, so what it leaves there can be listed. */
function workspace() {
  const dir = freshWorkDir();
  const temporary = freshWorkDir();
  const configDir = freshConfigDir();
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token, TMPDIR: temporary };
  return { dir, temporary, run: (args: string[]) => runCli(args, { configDir, cwd: dir, env }) };
}

describe('stock push sends from a spool that does not outlive the run', () => {
  it('a good file: every line stored, no spool left', async () => {
    const { dir, temporary, run } = workspace();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(dir, 'stock.csv'));
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch']);
    expect(result.code).toBe(0);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
    expect(readdirSync(temporary)).toEqual([]);
  });

  it('a file with an invalid row: nothing sent, no spool left', async () => {
    const { dir, temporary, run } = workspace();
    writeFileSync(join(dir, 'stock.csv'), 'sku;quantity\r\nA;1\r\nB;-1\r\n');
    const result = await run(['stock', 'push', 'stock.csv']);
    expect(result.code).toBe(65);
    expect(await requestCounts(sandbox)).toEqual({});
    expect(readdirSync(temporary)).toEqual([]);
  });
});
