/**
 * Golden output of the bulk commands (issue 14): what `stock validate`, `stock push`, `customer validate`
 * and `customer create` print, and the report, errors file and run record they write, compared byte
 * for byte with files under test/fixtures/golden/. They hold the output still while the bulk engine
 * is made faster: a change of a single byte fails here.
 *
 * Inputs: `stock-10k.csv` (10,000 rows as pt-BR Excel saves them, with bad rows at lines 101, 2002,
 * 5003 (line 4's SKU again: both lines invalid), 7777, 9500 and a quoted cell holding the delimiter at
 * 9000) and the real Windows-1252 export `real-exports/clientes-digitado.win1252.csv` (quoted cells, a
 * two-line cell, bad documents at known lines, trailing rows of bare `;`).
 *
 * What reached the sandbox is compared too (the stored stock lines as a digest, the customers in full).
 *
 * Only what a clock, a port or a random generator decides is masked before comparing: durations and
 * rates, the working folder, the sandbox's URL, the queue's batch ids (numbered in order of first
 * appearance), and the order of report rows, which follows the order answers arrive in (rows are
 * sorted by line, each row's bytes kept as written).
 *
 * When a change of output is intended (another message, `line 8 (row 7)`), regenerate and review the
 * diff: `npm run -s build && UPDATE_GOLDEN=1 npx vitest run test/e2e/golden/golden.test.ts`.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir, runCli, type RunResult } from '../../support/cli.js';
import { fetchToken, repoRoot, sandboxJson, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { queueDrained, stockEntries } from '../../support/stock.js';

const goldenFolder = join(repoRoot, 'test', 'fixtures', 'golden');
const updating = process.env.UPDATE_GOLDEN === '1';

let sandbox: RunningSandbox;
let token: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  token = await fetchToken(sandbox);
});
afterAll(async () => {
  await sandbox.close();
  removeTemporaryFolders();
});
beforeEach(async () => {
  // Each run starts from the seeded sandbox, so customer ids and stock counts repeat.
  await fetch(`${sandbox.url}/_sandbox/stock`, { method: 'DELETE' });
  await fetch(`${sandbox.url}/_sandbox/customers`, { method: 'DELETE' });
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
});

/** A working folder with a copy of the input under `name`, and a runner of the built CLI inside it. */
function workspace(source: string, name: string) {
  const dir = freshWorkDir();
  copyFileSync(source, join(dir, name));
  const configDir = freshConfigDir();
  const env = { B2BCTL_BASE_URL: sandbox.url, B2BCTL_TOKEN: token };
  return { dir, run: (args: string[]) => runCli(args, { configDir, cwd: dir, env }) };
}

/** The clock's readings, the folder and the sandbox's address masked; every other byte kept. */
function maskRun(text: string, dir: string): string {
  return (
    text
      .replaceAll(dir, 'DIR')
      .replaceAll(sandbox.url, 'SANDBOX')
      // A fresh config folder each run: the record and the resume line name it.
      .replace(/("configDir": ")[^"]*"/g, '$1CONFIG"')
      .replace(/B2BCTL_CONFIG_DIR=\S+/g, 'B2BCTL_CONFIG_DIR=CONFIG')
      .replace(/\(\d+\.\d s\)/g, '(T s)')
      .replace(/ in \d+\.\d s\./g, ' in T s.')
      .replace(/; \d+\.\d s, \d+ (\w+)\/s$/gm, '; T s, R $1/s')
  );
}

/** Exit code, stdout and stderr of one run in one text, masked. */
function transcript(result: RunResult, dir: string): string {
  return `exit ${result.code}\n--- stdout\n${maskRun(result.stdout, dir)}--- stderr\n${maskRun(result.stderr, dir)}`;
}

/**
 * A report with its rows in line order (answers arrive in any order at --concurrency 8) and the
 * queue's random batch ids numbered in order of first appearance. Each row's raw bytes are kept.
 */
function normalisedReport(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  const rows = parse(text, { raw: true, bom: true, relax_column_count: true }) as unknown as {
    record: string[];
    raw: string;
  }[];
  const [header, ...body] = rows;
  if (!header) return text;
  const sorted = body.toSorted((a, b) => Number(a.record[0]) - Number(b.record[0]));
  const ids = new Map<string, string>();
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  // csv-parse's raw text of a row leaves out the row's newline: put the file's own back.
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const end = text.endsWith(newline) ? newline : '';
  return (
    bom +
    [header, ...sorted]
      .map(({ raw }) =>
        raw.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
          if (!ids.has(id)) ids.set(id, `BATCH-${ids.size + 1}`);
          return ids.get(id) as string;
        }),
      )
      .join(newline) +
    end
  );
}

/** Compares with the golden file `name`, or writes it under UPDATE_GOLDEN=1. */
function expectGolden(name: string, actual: string | Buffer): void {
  const path = join(goldenFolder, name);
  const bytes = typeof actual === 'string' ? Buffer.from(actual, 'utf8') : actual;
  if (updating) {
    mkdirSync(goldenFolder, { recursive: true });
    writeFileSync(path, bytes);
    return;
  }
  if (!existsSync(path)) throw new Error(`no golden file ${name}; run with UPDATE_GOLDEN=1 to write it`);
  // Latin-1 maps each byte to one character and back, so equal strings are equal bytes; and a string
  // diff reads better than two byte arrays when a line changes.
  expect(bytes.toString('latin1')).toBe(readFileSync(path).toString('latin1'));
}

/** The files a push or create wrote: report (normalised), errors file (raw bytes), run record (masked). */
function expectRunFiles(prefix: string, dir: string): void {
  expectGolden(`${prefix}.report.csv`, normalisedReport(readFileSync(join(dir, 'out.report.csv'))));
  expectGolden(`${prefix}.errors.csv`, readFileSync(join(dir, 'out.errors.csv')));
  expectGolden(`${prefix}.report.meta.json`, maskRun(readFileSync(join(dir, 'out.report.meta.json'), 'utf8'), dir));
}

const stockInput = join(goldenFolder, 'stock-10k.csv');
const customerInput = join(repoRoot, 'test', 'fixtures', 'real-exports', 'clientes-digitado.win1252.csv');

describe('stock, 10,000 rows with 5 bad ones', () => {
  it('validate prints the same problems and summary', async () => {
    const { dir, run } = workspace(stockInput, 'stock.csv');
    const result = await run(['stock', 'validate', 'stock.csv']);
    expect(result.code).toBe(65);
    expectGolden('stock-10k.validate.txt', transcript(result, dir));
  });

  it('push --skip-invalid prints, reports and writes the errors file the same', async () => {
    const { dir, run } = workspace(stockInput, 'stock.csv');
    const result = await run([
      'stock',
      'push',
      'stock.csv',
      '--skip-invalid',
      '--report',
      'out.report.csv',
      '--errors',
      'out.errors.csv',
    ]);
    expect(result.code).toBe(1);
    expectGolden('stock-10k.push.txt', transcript(result, dir));
    expectRunFiles('stock-10k.push', dir);
    // What reached the platform: the stored lines in SKU order, as a digest (1 MB of lines otherwise),
    // with the line whose cells were quoted shown in full.
    await queueDrained(sandbox);
    const entries = await stockEntries(sandbox);
    const ndjson = entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
    const quoted = entries.find((entry) => entry.sku === 'GEN-0008999');
    expectGolden(
      'stock-10k.push.stored.txt',
      `${entries.length} lines, sha256 ${createHash('sha256').update(ndjson).digest('hex')}\n${JSON.stringify(quoted)}\n`,
    );
  });
});

describe('customers, a real Windows-1252 export with a two-line cell and bad rows', () => {
  it('validate prints the same problems and summary', async () => {
    const { dir, run } = workspace(customerInput, 'clientes.csv');
    const result = await run(['customer', 'validate', 'clientes.csv', '--ignore-column', 'Data de cadastro']);
    expect(result.code).toBe(65);
    expectGolden('clientes.validate.txt', transcript(result, dir));
  });

  it('create --skip-invalid prints, reports and writes the errors file the same', async () => {
    const { dir, run } = workspace(customerInput, 'clientes.csv');
    // One request at a time, so the sandbox hands out customer ids in line order.
    const result = await run([
      'customer',
      'create',
      'clientes.csv',
      '--ignore-column',
      'Data de cadastro',
      '--skip-invalid',
      '--concurrency',
      '1',
      '--report',
      'out.report.csv',
      '--errors',
      'out.errors.csv',
    ]);
    expect(result.code).toBe(1);
    expectGolden('clientes.create.txt', transcript(result, dir));
    expectRunFiles('clientes.create', dir);
    // What reached the platform, as the sandbox stored it (its creation stamps masked).
    const stored = JSON.stringify(await sandboxJson(sandbox, '/_sandbox/customers'), null, 2);
    expectGolden('clientes.create.stored.json', `${stored.replace(/"\d{4}-\d\d-\d\dT[\d:.]+Z"/g, '"TIME"')}\n`);
  });
});
