/**
 * The bounds of a CSV row (input.maxColumns, input.maxRowChars): a header of millions of empty cells is refused at
 * once with its count, a long but real row names what it holds and the setting that reads it, and a Ctrl-C during
 * the long parse of a row the settings allow is served at once. The time and memory of these files are bounded in
 * scripts/hostile-files.mjs, not here.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { collect, freshWorkDir, runCli, spawnCli, useSandboxPerFile } from '../../support/cli.js';
import { requestCounts } from '../../support/sandbox.js';

let sandbox: RunningSandbox;
let configDir: string;

useSandboxPerFile({ login: true }, (ready) => ({ sandbox, configDir } = ready));

const megabyte = 1024 * 1024;

function workspace(name: string, content: string) {
  const dir = freshWorkDir();
  writeFileSync(join(dir, name), content);
  return { dir, run: (args: string[]) => runCli(args, { configDir, cwd: dir }) };
}

/** A header of `count` named columns: `c0;c1;…`. */
const header = (count: number) => Array.from({ length: count }, (_, index) => `c${index}`).join(';');

const setting = (key: string, value: string) => runCli(['config', 'set', key, value], { configDir });

describe('the columns of a row are bounded (input.maxColumns)', () => {
  it('a header of 8 MB of ";" is refused at once with the count, nothing sent', { timeout: 120_000 }, async () => {
    const { run } = workspace('semicolons.csv', `${';'.repeat(8 * megabyte)}\n`);
    for (const verb of ['validate', 'create']) {
      const result = await run(['customer', verb, 'semicolons.csv']);
      expect(result.stderr).toMatch(
        /error: semicolons\.csv:1: a row of at least [\d,]+ columns, more than the 16,384 the input\.maxColumns setting allows\. Check the delimiter \(--delimiter\); if the file really has that many columns, raise the setting to at least that count: b2bctl config set input\.maxColumns NUMBER\.\n/,
      );
      expect(result.code).toBe(65);
    }
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a data row of 2 MB of ";" under a real header is refused, naming its line', { timeout: 120_000 }, async () => {
    const { run } = workspace('row.csv', `documentType;document;name\n${';'.repeat(2 * megabyte)}\n`);
    const result = await run(['customer', 'create', 'row.csv']);
    expect(result.stderr).toMatch(/error: row\.csv:2: a row of at least [\d,]+ columns, more than the 16,384/);
    expect(result.code).toBe(65);
    expect(await requestCounts(sandbox)).toEqual({});
  });

  it('a header of exactly 16,385 columns is refused with its exact count; at 16,384 it is read', async () => {
    const over = workspace('over.csv', `${header(16_385)}\n1\n`);
    const refused = await over.run(['stock', 'validate', 'over.csv']);
    expect(refused.stderr).toContain('error: over.csv:1: a row of at least 16,385 columns, more than the 16,384');
    const atBound = workspace('bound.csv', `sku;${header(16_383)}\nSKU-1\n`);
    const read = await atBound.run(['stock', 'validate', 'bound.csv']);
    expect(read.stderr).not.toContain('input.maxColumns');
  });
});

describe('a long but real row names what it holds and the setting (input.maxRowChars)', () => {
  it(
    'a 1 MB cell: its length and the setting, then read once the setting allows it',
    { timeout: 120_000 },
    async () => {
      const { run } = workspace(
        'long-cell.csv',
        // Every column a create record needs (a file without one stops at its header); the long row gives three.
        `documentType;document;name;username;phone;password\ncpf;39053344705;${'x'.repeat(megabyte)}\n`,
      );
      const refused = await run(['customer', 'validate', 'long-cell.csv']);
      const length = 'cpf;39053344705;'.length + megabyte;
      expect(refused.stderr).toContain(
        `error: long-cell.csv:2: a row of ${length.toLocaleString('en-US')} characters, more than the 200,000 the input.maxRowChars setting allows; its cell in column 3 (C) "name" holds 1,048,576 characters. If the row is meant to be this long, raise the setting to at least its length: b2bctl config set input.maxRowChars ${length}.\n`,
      );
      expect(refused.stderr).not.toContain('HTML');
      expect(refused.code).toBe(65);
      // The value the message names is enough.
      expect((await setting('input.maxRowChars', String(length))).code).toBe(0);
      const read = await run(['customer', 'validate', 'long-cell.csv']);
      expect(read.stderr).not.toContain('input.maxRowChars');
      expect(read.stderr).toMatch(/long-cell\.csv: 1 record/);
      expect((await setting('input.maxRowChars', '200000')).code).toBe(0);
      expect(await requestCounts(sandbox)).toEqual({});
    },
  );

  it('a header of 100,000 columns: the count and input.maxColumns; raised, the characters and input.maxRowChars', async () => {
    const { run } = workspace('wide.csv', `${header(100_000)}\n1\n`);
    const first = await run(['stock', 'validate', 'wide.csv']);
    expect(first.stderr).toMatch(/error: wide\.csv:1: a row of at least [\d,]+ columns, more than the 16,384/);
    expect((await setting('input.maxColumns', '200000')).code).toBe(0);
    const second = await run(['stock', 'validate', 'wide.csv']);
    expect(second.stderr).toMatch(
      /error: wide\.csv:1: a row of [\d,]+ characters, more than the 200,000 the input\.maxRowChars setting allows; it has 100,000 columns\./,
    );
    expect(second.stderr).not.toContain('HTML');
    expect((await setting('input.maxColumns', '16384')).code).toBe(0);
  });

  it('a 1 MB header cell is named as a cell, not as an HTML page', async () => {
    const { run } = workspace('cell-header.csv', `${'y'.repeat(megabyte)};sku\nSKU-1;2\n`);
    const result = await run(['stock', 'validate', 'cell-header.csv']);
    // Its ";" lies beyond the 64 KB the delimiter is sniffed from: read with ",", the row is one cell.
    expect(result.stderr).toContain(
      `error: cell-header.csv:1: a row of ${(megabyte + 4).toLocaleString('en-US')} characters, more than the 200,000 the input.maxRowChars setting allows; its cell in column 1 (A) holds ${(megabyte + 4).toLocaleString('en-US')} characters.`,
    );
    expect(result.stderr).not.toContain('HTML');
    expect(result.code).toBe(65);
  });
});

/**
 * Resolves once the process holds more than 150 MB (Linux's /proc): start-up takes about 60, the parse of the
 * 8 MB header several hundred, so the signal then lands inside the parse, not before its handler exists.
 */
async function inTheLongStep(pid: number): Promise<void> {
  for (;;) {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const residentKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    if (residentKb > 150 * 1024) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const withProc = existsSync('/proc/self/status');

describe.skipIf(!withProc)('a signal during the long parse of a row the settings allow (no /proc: skipped)', () => {
  it(
    'SIGTERM during an 8 MB ";" header stops the parse between slices: exit 75, nothing sent',
    { timeout: 120_000 },
    async () => {
      const { dir } = workspace('semicolons.csv', `${';'.repeat(8 * megabyte)}\n`);
      expect((await setting('input.maxColumns', '100000000')).code).toBe(0);
      expect((await setting('input.maxRowChars', '100000000')).code).toBe(0);
      try {
        const child = spawnCli(['customer', 'create', 'semicolons.csv'], configDir, {}, dir);
        child.stdin?.end();
        const result = collect(child);
        await inTheLongStep(child.pid as number);
        child.kill('SIGTERM');
        const ended = await result;
        // Only the parse's own check between slices says this: a signal served after the parse would not.
        expect(ended.stderr).toContain('error: semicolons.csv: interrupted while reading the rows from line 1.');
        expect(ended.code).toBe(75);
        expect(await requestCounts(sandbox)).toEqual({});
      } finally {
        await setting('input.maxColumns', '16384');
        await setting('input.maxRowChars', '200000');
      }
    },
  );
});
