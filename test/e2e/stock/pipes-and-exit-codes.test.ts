/**
 * `stock validate` and `stock push` as a process: exit codes, stdin piped to -, the report beside the input.
 * The samples through each route, --batch-size, --dry-run and --schema are tested in process
 * (test/commands/stock/push-samples.test.ts).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import {
  cleanEnv,
  cliPath,
  copySamples,
  freshConfigDir,
  freshWorkDir,
  runCli,
  useSandboxPerFile,
} from '../../support/cli.js';
import { requireTools } from '../../support/external-tools.js';
import { maskClock, onlyFile, readReport } from '../../support/run-files.js';
import { requestCounts, seedDirectory } from '../../support/sandbox.js';
import { sampleCsvEntries, stockEntries } from '../../support/stock.js';

let sandbox: RunningSandbox;
let token: string;

useSandboxPerFile({ login: false }, (ready) => ({ sandbox, token } = ready));

/** A test's own config folder and working folder, with the token in the environment (no login, no token request). */
function workspace(...samples: string[]) {
  const configDir = freshConfigDir();
  const dir = freshWorkDir();
  copySamples(dir, ...samples);
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  const run = (args: string[], stdin?: string | Buffer) => runCli(args, { configDir, cwd: dir, env, stdin });
  return { configDir, dir, run };
}

const csvLines = sampleCsvEntries().length;

describe('stock validate', () => {
  it('passes samples/stock.csv (pt-BR Excel: semicolons, decimal commas, CRLF) and sends nothing', async () => {
    const { run } = workspace('stock.csv');
    const result = await run(['stock', 'validate', 'stock.csv']);
    expect(maskClock(result.stderr)).toBe('stock.csv: 52 records, 52 valid, 0 invalid (0 problems) in T s.\n');
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});

/** `b2bctl stock validate FILE -o ndjson | head -1` in bash: head's lines and b2bctl's own exit status. */
function validateIntoHead(dir: string, configDir: string, file: string) {
  return new Promise<{ lines: string[]; code: number }>((resolve, reject) => {
    const command = `"$NODE" "$CLI" stock validate ${file} -o ndjson 2>/dev/null | head -1; echo "\${PIPESTATUS[0]}" >&2`;
    const child = spawn('bash', ['-c', command], {
      cwd: dir,
      env: { ...cleanEnv(configDir), NODE: process.execPath, CLI: cliPath },
    });
    let out = '';
    let status = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (status += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ lines: out.split('\n').filter(Boolean), code: Number(status.trim()) }));
  });
}

describe('stock validate into a reader that stops early (`| head -1`)', () => {
  const bash = requireTools('bash', 'head');

  it.skipIf(bash.missing)(`an invalid file still exits 65 once the reader has gone${bash.note}`, async () => {
    const { configDir, dir } = workspace();
    // Enough problems that their lines outgrow a pipe's buffer: the writer meets the closed pipe before the end.
    const rows = Array.from({ length: 50_000 }, (_, index) => `GEN-${index};5;10,125\r\n`);
    writeFileSync(join(dir, 'all.csv'), `sku;quantity;price\r\n${rows.join('')}`);
    const result = await validateIntoHead(dir, configDir, 'all.csv');
    expect(result.lines).toHaveLength(1);
    expect(JSON.parse(result.lines[0] as string)).toMatchObject({ line: 2, field: 'price', value: '10,125' });
    expect(result.code).toBe(65);
  });
});

describe('stock push --route batch', () => {
  // The run's lines, the report row by row and the route's request count are checked in process
  // (test/commands/stock/push-samples.test.ts); here, what the binary as a process leaves behind.
  it('exits 0 with nothing on stdout, writes its report beside the input, and the sandbox holds the file', async () => {
    const { dir, run } = workspace('stock.csv');
    const result = await run(['stock', 'push', 'stock.csv', '--route', 'batch']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(maskClock(result.stderr).split('\n').at(-2)).toBe('stock push: report: stock.report-STAMP.csv');
    const report = readReport(onlyFile(dir, 'stock.report-'));
    expect(report.map((row) => row.outcome)).toEqual(Array(csvLines).fill('applied'));
    expect(readdirSync(dir).filter((name) => name.includes('.errors-'))).toEqual([]);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
  });
});

describe('stock push from stdin', () => {
  // The run's lines are checked in process (push-samples.test.ts, scripted stdin); here, a real pipe into the binary.
  it('pushes the Excel CSV piped to -, with the report in the working folder', async () => {
    const { dir, run } = workspace();
    const result = await run(
      ['stock', 'push', '-', '--route', 'batch'],
      readFileSync(join(seedDirectory, 'stock.csv')),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(maskClock(result.stderr).split('\n').at(-2)).toBe('stock push: report: stdin.report-STAMP.csv');
    expect(readReport(onlyFile(dir, 'stdin.report-'))).toHaveLength(csvLines);
    expect(await stockEntries(sandbox)).toEqual(sampleCsvEntries());
  });
});
