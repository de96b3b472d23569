/**
 * The same jobs against every sandbox dialect (src/sandbox/dialects/): each answers what the platform
 * document does not show in its own way (token fields and route, 400/401/404 bodies, batch and queue
 * answers, listing envelopes). The outcomes must not depend on it: the same customers created exactly
 * once, the same stock, the same exit codes. Here the one job only a process shows: a create killed
 * with SIGKILL and resumed; the others run in process (test/commands/platform/dialect-jobs.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshConfigDir, freshWorkDir, runCli, sleep, spawnCli } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { generateCustomers, storedCustomers } from '../../support/customers.js';
import { readReport, runFiles } from '../../support/run-files.js';
import { clearSandboxCustomers, sandboxPassword, sandboxUser, startTestSandbox } from '../../support/sandbox.js';
import { resetSandboxStock } from '../../support/stock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'against the %s dialect',
  (name, dialect) => {
    let sandbox: RunningSandbox;
    let configDir: string;
    const run = (args: string[], options: { cwd?: string; stdin?: string; env?: Record<string, string> } = {}) =>
      runCli(args, { configDir, ...options });

    beforeAll(async () => {
      sandbox = await startTestSandbox({ dialect });
      configDir = freshConfigDir();
      // Where a dialect's token route differs, the operator says so once with two settings.
      const setup =
        dialect.tokenPath === '/v1/auth/token'
          ? []
          : [
              ['config', 'set', 'paths.token', dialect.tokenPath],
              ['config', 'set', 'auth.style', 'form'],
            ];
      // Set up by the commands run in process (the profile the binary writes): the spawns are for the kill.
      for (const args of setup) {
        const result = await runCommandLine(args, { configDir });
        if (result.code !== 0) throw new Error(`${args.join(' ')}: ${result.stderr}`);
      }
      const login = await runCommandLine(
        ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
        { configDir, stdin: `${sandboxPassword}\n` },
      );
      if (login.code !== 0) throw new Error(`login against the ${name} dialect failed: ${login.stderr}`);
    });
    afterAll(async () => sandbox.close());
    beforeEach(async () => {
      await clearSandboxCustomers(sandbox);
      await resetSandboxStock(sandbox);
    });

    it(
      'customer create killed with SIGKILL, then --resume: every customer exactly once, none failed',
      { timeout: 120_000 },
      async () => {
        const dir = freshWorkDir();
        const records = 600;
        writeFileSync(join(dir, 'many.csv'), generateCustomers(records, 'csv', 70_001));
        const child = spawnCli(['customer', 'create', 'many.csv', '--concurrency', '4'], configDir, {}, dir);
        child.stdin?.end();
        const exited = collect(child);
        let report: string | undefined;
        for (let poll = 0; poll < 2000 && !report; poll++) {
          const [candidate] = runFiles(dir, 'many').reports;
          if (candidate && readFileSync(join(dir, candidate), 'utf8').split('\r\n').length > 60) report = candidate;
          else await sleep(10);
        }
        child.kill('SIGKILL');
        expect((await exited).signal).toBe('SIGKILL');
        expect(report).toBeDefined();

        const resumed = await run(['customer', 'create', 'many.csv', '--resume', report as string], { cwd: dir });
        expect(resumed.stderr).not.toContain('failed;');
        expect(resumed.code).toBe(0);
        const rows = readReport(join(dir, report as string));
        expect(rows.map((row) => Number(row.line)).toSorted((a, b) => a - b)).toEqual(
          Array.from({ length: records }, (_, index) => index + 2),
        );
        expect(rows.filter((row) => row.outcome !== 'created')).toEqual([]);
        expect(await storedCustomers(sandbox)).toHaveLength(records);
      },
    );
  },
);
