/**
 * What the customer end-to-end tests share on top of harness.ts: the customer routes' counter keys,
 * exact line matching with placeholders for what a clock decides, and readers for the report and
 * errors files a bulk run writes beside its input.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Customer, OutboxEmail } from '../../src/sandbox/customers/store.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  clearSandboxCustomers,
  freshConfigDir,
  login,
  removeTemporaryFolders,
  repoRoot,
  resetCounts,
  sandboxJson,
  startTestSandbox,
} from './harness.js';

export const createRoute = 'POST /v1/customer';
export const updateRoute = 'PUT /v1/customer/:document';
export const statusRoute = 'PUT /v1/customer/updateStatus/:document/:active';
export const addressesRoute = 'GET /v1/customer/addresses/:document';

/**
 * A line pattern: the text matched literally except for `{s}` (seconds with one decimal, `0.3`),
 * `{n}` (a whole number) and `{stamp}` (a report's timestamp, `20261122-021500`, maybe `-2`).
 * Only what the clock decides is left open; everything else is exact.
 */
export function timed(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escaped.replaceAll('{s}', '\\d+\\.\\d').replaceAll('{n}', '\\d+').replaceAll('{stamp}', '\\d{8}-\\d{6}(?:-\\d+)?')}$`,
  );
}

/** Asserts every line of `text` in order: a string must be equal, a RegExp must match the whole line. */
export function expectLines(text: string, expected: readonly (string | RegExp)[]): void {
  const lines = text.split('\n');
  // The output ends with a newline.
  expect(lines.pop()).toBe('');
  const shown = lines.map((line, index) => {
    const pattern = expected[index];
    return pattern instanceof RegExp && pattern.test(line) ? pattern : line;
  });
  expect(shown).toEqual(expected);
}

/** Asserts that some line of `text` matches the whole of `pattern`. */
export function expectSomeLine(text: string, pattern: RegExp): void {
  expect({ text, matching: text.split('\n').filter((line) => pattern.test(line)).length }).toEqual({
    text,
    matching: 1,
  });
}

/** The files a bulk run wrote beside `base` (`customers` for customers.csv) in a folder, by kind. */
export function runFiles(folder: string, base: string): { reports: string[]; errors: string[] } {
  const names = readdirSync(folder).toSorted();
  const escaped = base.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const of = (kind: string) =>
    names.filter((name) => new RegExp(`^${escaped}\\.${kind}-\\d{8}-\\d{6}(?:-\\d+)?\\.(csv|ndjson)$`).test(name));
  return { reports: of('report'), errors: of('errors') };
}

/** The one report a run wrote beside `base`; fails when there is none or more than one. */
export function onlyReport(folder: string, base: string): string {
  const { reports } = runFiles(folder, base);
  expect(reports).toHaveLength(1);
  return reports[0] as string;
}

/** The one errors file a run wrote beside `base`. */
export function onlyErrorsFile(folder: string, base: string): string {
  const { errors } = runFiles(folder, base);
  expect(errors).toHaveLength(1);
  return errors[0] as string;
}

export interface ReportRow {
  line: string;
  key: string;
  outcome: string;
  status: string;
  id: string;
  message: string;
}

/** A run's report as rows of text, with its header checked. */
export function readReport(path: string): ReportRow[] {
  const text = readFileSync(path, 'utf8');
  // RFC 4180 line ends, as Excel writes them.
  expect(text.split('\n')[0]).toBe('line,key,outcome,status,id,message\r');
  return parse(text, { columns: true }) as ReportRow[];
}

/** An errors CSV: its BOM, header cells and rows of cells, read with the input's delimiter. */
export function readErrorsCsv(path: string, delimiter = ','): { bom: boolean; header: string[]; rows: string[][] } {
  const text = readFileSync(path, 'utf8');
  const bom = text.startsWith('\uFEFF');
  const [header, ...rows] = parse(bom ? text.slice(1) : text, { delimiter }) as string[][];
  return { bom, header: header ?? [], rows };
}

/** Every customer the sandbox holds, in creation order. */
export function storedCustomers(sandbox: RunningSandbox): Promise<Customer[]> {
  return sandboxJson<Customer[]>(sandbox, '/_sandbox/customers');
}

/** One stored customer by document (with or without punctuation). */
export function storedCustomer(sandbox: RunningSandbox, document: string): Promise<Customer> {
  return sandboxJson<Customer>(sandbox, `/_sandbox/customers/${encodeURIComponent(document)}`);
}

export function outbox(sandbox: RunningSandbox): Promise<OutboxEmail[]> {
  return sandboxJson<OutboxEmail[]>(sandbox, '/_sandbox/outbox');
}

/** The documents of a sample CSV (second column, no quoting in the samples), in file order. */
export function sampleDocuments(text: string, delimiter = ','): string[] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => line.split(delimiter)[1] as string);
}

/** The customer groups of the store settings, as a linked customer shows them. */
export const groups = {
  atacado: { id: 1, name: 'Atacado', externalId: 'GRP-ATACADO' },
  sul: { id: 2, name: 'Sul', externalId: 'GRP-SUL' },
  sudeste: { id: 3, name: 'Sudeste', externalId: 'GRP-SUDESTE' },
  nordeste: { id: 4, name: 'Nordeste', externalId: 'GRP-NORDESTE' },
  vip: { id: 5, name: 'VIP', externalId: 'GRP-VIP' },
} as const;

/** The price tags of the store settings, as a linked customer shows them. */
export const priceTags = {
  atacado: { id: 1, name: 'Atacado' },
  varejo: { id: 2, name: 'Varejo' },
  promocional: { id: 3, name: 'Promocional' },
} as const;

/** A small valid create file's header and rows, for tests that build their own input. */
export const createHeader =
  'documentType,document,name,username,phone,password,customerRegistrationAddress.zipcode,customerRegistrationAddress.number';

/** Valid individuals that no sample uses: CPF, e-mail. */
export const spareCpfs = [
  '529.982.247-25',
  '111.444.777-35',
  '935.411.347-80',
  '714.602.380-01',
  '248.438.034-80',
  '123.456.789-09',
] as const;

/** Customers from scripts/generate-customers.mjs, as the bytes it writes (valid, unique documents and e-mails). */
export function generateCustomers(
  count: number,
  format: 'csv' | 'excel' | 'json' | 'ndjson' = 'csv',
  start = 1,
): Buffer {
  return execFileSync(
    process.execPath,
    [join(repoRoot, 'scripts', 'generate-customers.mjs'), String(count), '--format', format, '--start', String(start)],
    {
      maxBuffer: 1 << 30,
    },
  );
}

/**
 * One sandbox per test file, logged into from a fresh config folder, emptied of customers and request
 * counts before each test; `ready` receives both once they exist.
 */
export function useLoggedInSandbox(ready: (setup: { sandbox: RunningSandbox; configDir: string }) => void): void {
  let sandbox: RunningSandbox | undefined;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const configDir = freshConfigDir();
    await login(sandbox, configDir);
    ready({ sandbox, configDir });
  });
  afterAll(async () => {
    await sandbox?.close();
    removeTemporaryFolders();
  });
  beforeEach(async () => {
    if (!sandbox) return;
    await clearSandboxCustomers(sandbox);
    await resetCounts(sandbox);
  });
}
