/**
 * Slow rejection (issue 10, item 13): an HTML page saved as .csv (one 8 MB line; a header of 100,000
 * columns is such a row too) fails at once with one short line, nothing sent; thousands of unknown
 * columns give ten warnings and a count. The CLI runs with a 200 MB heap
 * (V8 would crash with exit 134 beyond it) and the test's own timeout bounds the time, generously:
 * no wall-clock assertion.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshWorkDir, runCli, useSandboxPerFile } from '../../support/cli.js';
import { storedCustomers } from '../../support/customers.js';
import { requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const boundedHeap = { NODE_OPTIONS: '--max-old-space-size=200' };

function workspace(name: string, content: string) {
  const dir = freshWorkDir();
  writeFileSync(join(dir, name), content);
  return (args: string[]) => runCli(args, { configDir, cwd: dir, env: boundedHeap });
}

describe('oversized input fails fast with one short line', () => {
  it('an 8 MB line without a newline (an HTML page saved as .csv)', { timeout: 120_000 }, async () => {
    const run = workspace('page.csv', `<!DOCTYPE html><html>${'<p>x</p>'.repeat(1024 * 1024)}`);
    for (const verb of ['validate', 'create']) {
      const result = await run(['customer', verb, 'page.csv']);
      expect(result.stderr).toContain(
        'error: page.csv: this is a web page (HTML), not CSV: a sheet saved as a web page, or a download that failed. Export the data as CSV.\n',
      );
      expect(result.stderr.length).toBeLessThan(400);
      expect(result.code).toBe(65);
    }
    expect(await requestCounts(sandbox)).toEqual({});
    expect(await storedCustomers(sandbox)).toEqual([]);
  });

  it(
    '16,000 unknown columns (within input.maxColumns): ten warnings and a count, no wall of text',
    { timeout: 120_000 },
    async () => {
      const columns = Array.from({ length: 16_000 }, (_, index) => `c${index}`).join(';');
      expect(columns.length).toBeLessThan(200_000);
      const run = workspace(
        'wide.csv',
        `document;documentType;username;phone;password;${columns}\r\n012.345.678-90;cpf\r\n`,
      );
      const result = await run(['customer', 'create', 'wide.csv']);
      const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
      expect(warnings).toHaveLength(11);
      expect(warnings.at(-1)).toBe('warning: wide.csv:1: 15990 more unknown columns.');
      expect(result.stderr.length).toBeLessThan(3000);
      expect(result.code).toBe(65);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it('a header without the required column quotes at most 20 columns, each at most 80 characters', async () => {
    const run = workspace(
      'long.csv',
      `${Array.from({ length: 30 }, (_, index) => `${'y'.repeat(5000)}${index}`).join(';')}\r\n`,
    );
    const result = await run(['stock', 'validate', 'long.csv']);
    expect(result.stderr).toMatch(
      /^error: long\.csv:1: no "sku" column \(the columns are y{80}… \(5001 characters\), /,
    );
    expect(result.stderr).toContain(' and 10 more). Name the column "sku"');
    expect(result.stderr.length).toBeLessThan(3000);
    expect(result.code).toBe(65);
  });
});
