/**
 * `-o json` asked of a bulk run: its summary as one JSON object on stdout (the command, the file, the profile, the
 * outcomes, the exit code), for a script piping it to jq. It printed nothing at all (a fresh user test). Without `-o`
 * a run prints no data, piped too (a cron job's log keeps its closing line alone); `-o csv`, which printed nothing
 * with exit 0 (a script wrote an empty file and went on), is refused before anything is sent.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { useSandboxPerFile } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { generateCustomers } from '../../support/customers.js';
import { requestCounts, seedDirectory } from '../../support/sandbox.js';
import { temporaryFolder } from '../../support/temporary.js';

let sandbox: RunningSandbox;
let configDir: string;
useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

describe('a bulk run with -o json', () => {
  it.each(['json', 'ndjson'])(
    '-o %s: one summary object on stdout, whether the run succeeds or not',
    async (format) => {
      const folder = temporaryFolder('b2bctl-json-summary-');
      const lines = generateCustomers(3).toString('utf8').trimEnd().split('\n');
      writeFileSync(join(folder, 'ok.csv'), `${lines.join('\n')}\n`);
      lines[2] = (lines[2] ?? '').replace(/,[^,@]+@[^,]+,/, ',not-an-email,');
      writeFileSync(join(folder, 'bad.csv'), `${lines.join('\n')}\n`);
      const run = (file: string, extra: string[] = []) =>
        runCommandLine(['customer', 'create', file, '-o', format, ...extra], { configDir, cwd: folder });

      const ok = await run('ok.csv');
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toEqual({
        command: 'customer create',
        file: 'ok.csv',
        profile: 'default',
        baseUrl: sandbox.url,
        outcomes: { created: 3 },
        exitCode: 0,
      });
      expect(ok.stdout.trimEnd().split('\n')).toHaveLength(1);

      const bad = await run('bad.csv', ['--upsert']);
      expect(bad.code).toBe(65);
      // Refused before sending: the counts the closing line gives, by name.
      expect(JSON.parse(bad.stdout)).toEqual({
        command: 'customer create',
        file: 'bad.csv',
        profile: 'default',
        baseUrl: sandbox.url,
        outcomes: { records: 3, valid: 2, invalid: 1 },
        exitCode: 65,
      });
    },
  );

  it('no -o, piped: no data on stdout, the summary and closing line on stderr as a cron log has them', async () => {
    const folder = temporaryFolder('b2bctl-json-summary-');
    copyFileSync(join(seedDirectory, 'stock.csv'), join(folder, 'stock.csv'));
    const result = await runCommandLine(['stock', 'push', 'stock.csv', '--quiet'], { configDir, cwd: folder });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.closingLine).toMatch(/^stock push: stock\.csv to profile "default" \(.+\): \d+ applied; exit 0$/);
  });

  it.each([
    ['stock', 'push', 'stock.csv'],
    ['customer', 'create', 'customers.csv'],
    ['orders', 'update', 'orders-update.csv'],
  ])('%s %s -o csv: refused, exit 2, before anything is read or sent', async (group, verb, file) => {
    const folder = temporaryFolder('b2bctl-json-summary-');
    copyFileSync(join(seedDirectory, file), join(folder, file));
    const result = await runCommandLine([group, verb, file, '-o', 'csv'], { configDir, cwd: folder });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "error: -o csv: a bulk run prints no CSV; its records are the report's rows (a CSV file, --excel alone for a pt-BR Excel), and -o json or -o ndjson prints the run's summary. Nothing was sent.\n",
    );
    expect(result.closingLine).toBe(
      `${group} ${verb}: ${file} to profile "default" (${sandbox.url}): nothing read; exit 2`,
    );
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
