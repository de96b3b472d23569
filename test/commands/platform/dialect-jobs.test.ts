/**
 * The same jobs against every sandbox dialect (src/sandbox/dialects/): each answers what the platform
 * document does not show in its own way (token fields and route, 400/401/404 bodies, batch and queue
 * answers, listing envelopes). The outcomes must not depend on it: the same customers created exactly
 * once, the same stock, the same exit codes. Each command line runs in process (moved from
 * test/e2e/sandbox/dialect-jobs.test.ts; the SIGKILL-and-resume run stays there).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { copySamples, freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { loginToDialect, runCommandLine } from '../../support/command-line.js';
import { storedCustomers } from '../../support/customers.js';
import { readReport } from '../../support/run-files.js';
import {
  clearSandboxCustomers,
  sandboxUser,
  seedDirectory,
  seedReps,
  startTestSandbox,
} from '../../support/sandbox.js';
import { queueDrained, resetSandboxStock, sampleCsvEntries, stockEntries } from '../../support/stock.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { ndjsonOf } from '../../support/ndjson.js';

afterAll(() => removeTemporaryFolders());

/** The report a run named on stderr (`<job>: report: NAME`). */
function reportOf(dir: string, stderr: string) {
  const name = /: report: (\S+)/.exec(stderr)?.[1];
  if (!name) throw new Error(`no report named in:\n${stderr}`);
  return readReport(join(dir, name));
}

const sampleDocuments = readFileSync(join(seedDirectory, 'customers.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(',')[1] as string);

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'against the %s dialect',
  (name, dialect) => {
    let sandbox: RunningSandbox;
    let configDir: string;
    const run = (args: string[], options: { cwd?: string; stdin?: string; env?: Record<string, string> } = {}) =>
      runCommandLine(args, { configDir, ...options });

    beforeAll(async () => {
      sandbox = await startTestSandbox({ dialect });
      configDir = freshConfigDir();
      await loginToDialect(sandbox, dialect, configDir);
    });
    afterAll(async () => sandbox.close());
    beforeEach(async () => {
      await clearSandboxCustomers(sandbox);
      await resetSandboxStock(sandbox);
    });

    it('login caches a token with an expiry (12 h when the answer gives none); a wrong password exits 77', async () => {
      const whoami = await run(['whoami', '-o', 'json']);
      expect(whoami.code).toBe(0);
      const identity = JSON.parse(whoami.stdout) as { tokenStatus: string; tokenExpiresAt: string };
      expect(identity.tokenStatus).toBe('valid');
      const hours = (Date.parse(identity.tokenExpiresAt) - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(11.9);
      expect(hours).toBeLessThanOrEqual(12);

      const refused = await run(['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'], {
        stdin: 'not-the-password\n',
      });
      expect(refused.code).toBe(77);
      // Each dialect's own words quoted; the route doubted only where it is b2bctl's default guess.
      const [line, ...after] = refused.stderr.split('\n');
      expect(after).toEqual(['']);
      expect(line).toContain(`error: Login refused for ${sandboxUser} at ${sandbox.url} (HTTP 401`);
      expect(line).toContain('): check the username and password');
      expect(line?.includes('the token route may be elsewhere')).toBe(dialect.tokenPath === '/v1/auth/token');
      // The earlier token is still the one in use.
      expect((await run(['whoami', '-o', 'json'])).code).toBe(0);
    });

    it('sellers list: one page, every page, and the end of the listing, whatever the envelope', async () => {
      const page = await run(['sellers', 'list', '--limit', '3', '--offset', '1', '-o', 'json']);
      expect(page.code).toBe(0);
      expect(JSON.parse(page.stdout)).toEqual(seedReps.slice(1, 4));
      const all = await run(['sellers', 'list', '--all', '--limit', '25', '-o', 'ndjson']);
      expect(all.code).toBe(0);
      expect(ndjsonOf(all.stdout)).toEqual(seedReps);
      const none = await run(['sellers', 'list', '--email', 'nobody-matches-this', '-o', 'json']);
      expect(none.code).toBe(0);
      expect(JSON.parse(none.stdout)).toEqual([]);
    });

    it('customer create: created once; run again, every one is a duplicate (exit 1); --upsert updates them (exit 0)', async () => {
      const dir = freshWorkDir();
      copySamples(dir, 'customers.csv');
      const first = await run(['customer', 'create', 'customers.csv'], { cwd: dir });
      expect(first.code).toBe(0);

      const again = await run(['customer', 'create', 'customers.csv'], { cwd: dir });
      expect(again.code).toBe(1);
      const duplicates = reportOf(dir, again.stderr);
      expect(duplicates).toHaveLength(sampleDocuments.length);
      for (const row of duplicates) {
        expect(row.outcome).toBe('failed');
        expect(row.status).toBe('400');
        expect(row.message).toMatch(/\(pass --upsert to update existing customers\)$/);
      }

      const upserted = await run(['customer', 'create', 'customers.csv', '--upsert'], { cwd: dir });
      expect(upserted.code).toBe(0);
      expect(upserted.stderr).toContain(`customer create: ${sampleDocuments.length} updated;`);
      const stored = (await storedCustomers(sandbox)).map((customer) => customer.document);
      expect(stored.toSorted()).toEqual(sampleDocuments.toSorted());
    });

    it('customer create: a duplicate e-mail under a new document fails with the 400, and nothing is updated', async () => {
      const dir = freshWorkDir();
      copySamples(dir, 'customers.csv');
      expect((await run(['customer', 'create', 'customers.csv'], { cwd: dir })).code).toBe(0);
      const [header, firstRecord] = readFileSync(join(dir, 'customers.csv'), 'utf8').split('\n');
      // The first customer's e-mail under a document nobody has.
      writeFileSync(
        join(dir, 'clash.csv'),
        `${header}\n${(firstRecord as string).replace('100.007.919-89', '529.982.247-25')}\n`,
      );
      const clash = await run(['customer', 'create', 'clash.csv', '--upsert'], { cwd: dir });
      expect(clash.code).toBe(1);
      const [row] = reportOf(dir, clash.stderr);
      expect(row?.outcome).toBe('failed');
      // Each dialect's own words for the 400, not b2bctl's guess at its cause, which is for a 400 that says nothing.
      expect(row?.status).toBe('400');
      expect(row?.message).not.toBe('');
      expect(row?.message).not.toContain('registered to another customer');
      expect(await storedCustomers(sandbox)).toHaveLength(sampleDocuments.length);
    });

    it.each(['batch', 'queue'])('stock push --route %s: the same stock as the file, exit 0', async (route) => {
      const dir = freshWorkDir();
      copySamples(dir, 'stock.csv');
      const result = await run(['stock', 'push', 'stock.csv', '--route', route], { cwd: dir });
      expect(result.code).toBe(0);
      if (route === 'queue') await queueDrained(sandbox);
      expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
      const report = reportOf(dir, result.stderr);
      const outcomes = new Set(report.map((row) => row.outcome));
      // A dialect that does not itemise the batch answer has its items accepted, with one warning naming the setting.
      const itemised = name !== 'gateway';
      expect([...outcomes]).toEqual([route === 'queue' ? 'queued' : itemised ? 'applied' : 'accepted']);
      const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: the stock batch route'));
      expect(warnings.map((line) => line.includes('set answers.stockBatch.results'))).toEqual(
        route === 'batch' && !itemised ? [true] : [],
      );
    });

    it('stock push --route batch: an unknown SKU is rejected when the answer itemises, accepted when it does not', async () => {
      const dir = freshWorkDir();
      copySamples(dir, 'stock.csv');
      appendFileSync(join(dir, 'stock.csv'), 'NO-SUCH-SKU-1;5;10,00;;\n');
      const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch'], { cwd: dir });
      const rows = reportOf(dir, result.stderr);
      const unknown = rows.find((row) => row.key === 'NO-SUCH-SKU-1');
      const itemised = name !== 'gateway';
      expect({ outcome: unknown?.outcome, code: result.code }).toEqual(
        itemised ? { outcome: 'rejected', code: 1 } : { outcome: 'accepted', code: 0 },
      );
      expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
    });
  },
);
