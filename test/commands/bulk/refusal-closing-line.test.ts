/**
 * A bulk run refused once it has started ends with its closing line like every other run (docs/cron.md): a config
 * folder others may write (exit 77) and a stock.schema or orders.routes setting that is no JSON (exit 2) were refused
 * by stock push and orders update before the run began, so a cron log held the error line and no closing line, and
 * a log watcher saw no run that night.
 */
import { chmodSync, copyFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requestCounts, resetCounts, seedDirectory } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;
useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const runs = [
  ['stock', 'push', 'stock.csv'],
  ['customer', 'create', 'customers.csv'],
  ['orders', 'update', 'orders-update.csv'],
] as const;

/** A folder holding a copy of the sample `file`. */
function folderWith(file: string): string {
  const folder = temporaryFolder('b2bctl-refusal-closing-');
  copyFileSync(join(seedDirectory, file), join(folder, file));
  return folder;
}

describe('a bulk run refused after it started ends with its closing line', () => {
  it.each(runs)(
    '%s %s, a config folder its group may write: the refusal, then the closing line, exit 77; nothing sent',
    async (group, verb, file) => {
      const folder = folderWith(file);
      const shared = join(folder, 'config');
      cpSync(configDir, shared, { recursive: true });
      chmodSync(shared, 0o770);
      await resetCounts(sandbox);
      const result = await runCommandLine([group, verb, file, '--quiet'], { configDir: shared, cwd: folder });
      expect(result.code).toBe(77);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^error: The config folder .+ is writable by its group \(mode 0770\)/);
      // The profile is not known: the folder that holds it was refused.
      expect(lines[1]).toBe(`${group} ${verb}: ${file}: nothing read; exit 77`);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it.each([
    [
      'stock',
      'push',
      'B2BCTL_STOCK_SCHEMA',
      'stock.csv',
      'The stock schema from the stock.schema setting (from B2BCTL_STOCK_SCHEMA) is',
    ],
    [
      'orders',
      'update',
      'B2BCTL_ORDER_ROUTES',
      'orders-update.csv',
      'The order routes from the orders.routes setting (from B2BCTL_ORDER_ROUTES) are',
    ],
  ])(
    '%s %s, a %s that is no JSON: the refusal, then the closing line with the store, exit 2; nothing sent',
    async (group, verb, variable, file, refused) => {
      const folder = folderWith(file);
      await resetCounts(sandbox);
      const result = await runCommandLine([group, verb, file, '--quiet'], {
        configDir,
        cwd: folder,
        env: { [variable]: '{x' },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^error: ${refused.replace(/[()]/g, '\\$&')} not usable: .+\\n$`));
      expect(result.closingLine).toBe(
        `${group} ${verb}: ${file} to profile "default" (${sandbox.url}): nothing read; exit 2`,
      );
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );
});
