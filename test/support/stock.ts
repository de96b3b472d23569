/**
 * Stock in tests: the sandbox's stock inspection routes, the samples and generated files read without the
 * CLI, and a comparison of the sandbox's stock with a generated file of any size.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { repoRoot, seedDirectory } from './sandbox.js';

/** One stock line as `/_sandbox/stock-entries` lists it. */
export interface StockEntry {
  sku: string;
  warehouse: string | null;
  quantity: number;
  price: number | null;
  salePrice: number | null;
  updates: number;
}

/** One SKU as `/_sandbox/stock/:sku` shows it. */
export interface StockLine extends StockEntry {
  active: boolean;
}

export interface StockSummary {
  products: number;
  offSale: number;
  lines: number;
  applied: number;
  rejected: number;
  batches: number;
  pendingBatches: number;
  pendingItems: number;
}

export const batchRoute = 'PUT /v1/stock/batch';

export const queueRoute = 'POST /api/v1/stocks/batch';

/** Back to the seeded catalogue, no stock lines, no batches, and no requests counted. */
export async function resetSandboxStock(sandbox: RunningSandbox): Promise<void> {
  await fetch(`${sandbox.url}/_sandbox/stock`, { method: 'DELETE' });
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
}

export async function stockSummary(sandbox: RunningSandbox): Promise<StockSummary> {
  return (await (await fetch(`${sandbox.url}/_sandbox/stock`)).json()) as StockSummary;
}

export async function stockLine(sandbox: RunningSandbox, sku: string, warehouse?: string): Promise<StockLine> {
  const query = warehouse === undefined ? '' : `?warehouse=${encodeURIComponent(warehouse)}`;
  const response = await fetch(`${sandbox.url}/_sandbox/stock/${encodeURIComponent(sku)}${query}`);
  if (!response.ok) throw new Error(`GET /_sandbox/stock/${sku}: HTTP ${response.status}`);
  return (await response.json()) as StockLine;
}

/** Every stock line, streamed one NDJSON line at a time, in the order each was first applied. */
export async function* streamStockEntries(sandbox: RunningSandbox): AsyncGenerator<StockEntry> {
  const response = await fetch(`${sandbox.url}/_sandbox/stock-entries`);
  if (!response.ok || !response.body) throw new Error(`GET /_sandbox/stock-entries: HTTP ${response.status}`);
  const lines = createInterface({
    input: Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
    crlfDelay: Infinity,
  });
  for await (const line of lines) if (line !== '') yield JSON.parse(line) as StockEntry;
}

/** Every stock line, sorted by SKU then warehouse, for comparing a small push with its file. */
export async function stockEntries(sandbox: RunningSandbox): Promise<StockEntry[]> {
  const entries: StockEntry[] = [];
  for await (const entry of streamStockEntries(sandbox)) entries.push(entry);
  return sortEntries(entries);
}

export function sortEntries<T extends { sku: string; warehouse: string | null }>(entries: T[]): T[] {
  const key = (entry: T) => `${entry.sku}\u0000${entry.warehouse ?? ''}`;
  return entries.toSorted((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Waits until the queue has applied every accepted batch: polls bounded by a count, not a clock. */
export async function queueDrained(sandbox: RunningSandbox, polls = 20_000): Promise<void> {
  for (let poll = 0; poll < polls; poll++) {
    const body = (await (await fetch(`${sandbox.url}/_sandbox/stock-queue`)).json()) as { pending: number };
    if (body.pending === 0) return;
    await sleep(5);
  }
  throw new Error('the stock queue never drained');
}

export interface QueuedBatch {
  batchId: string;
  status: string;
  items: number;
  applied: number;
  rejected: number;
  results: { index: number; sku: string | null; status: string; message: string | null }[];
}

export async function queuedBatch(sandbox: RunningSandbox, batchId: string): Promise<QueuedBatch> {
  const response = await fetch(`${sandbox.url}/_sandbox/stock-batches/${encodeURIComponent(batchId)}`);
  if (!response.ok) throw new Error(`GET /_sandbox/stock-batches/${batchId}: HTTP ${response.status}`);
  return (await response.json()) as QueuedBatch;
}

/** A decimal as pt-BR Excel writes it (`1.234,56`), read by hand, independently of the CLI's reader. */
function ptBrNumber(text: string): number | null {
  return text === '' ? null : Number(text.replaceAll('.', '').replace(',', '.'));
}

/** The stock lines samples/stock.csv describes, read without the CLI (`;`, decimal commas, CRLF). */
export function sampleCsvEntries(): StockEntry[] {
  const text = readFileSync(join(seedDirectory, 'stock.csv'), 'utf8');
  const [, ...rows] = text.split('\r\n').filter((row) => row !== '');
  return sortEntries(
    rows.map((row) => {
      const [sku = '', quantity = '', price = '', salePrice = '', warehouse = ''] = row.split(';');
      return {
        sku,
        warehouse: warehouse === '' ? null : warehouse,
        quantity: Number(quantity),
        price: ptBrNumber(price),
        salePrice: ptBrNumber(salePrice),
        updates: 1,
      };
    }),
  );
}

interface SampleJsonItem {
  sku: string;
  quantity: number;
  price?: number;
  salePrice?: number;
  warehouse?: string;
}

export const sampleJsonItems = JSON.parse(readFileSync(join(seedDirectory, 'stock.json'), 'utf8')) as SampleJsonItem[];

/** The stock lines samples/stock.json describes. */
export function sampleJsonEntries(): StockEntry[] {
  return sortEntries(
    sampleJsonItems.map((item) => ({
      sku: item.sku,
      warehouse: item.warehouse ?? null,
      quantity: item.quantity,
      price: item.price ?? null,
      salePrice: item.salePrice ?? null,
      updates: 1,
    })),
  );
}

/** The catalogue's products that are seeded off sale. */
export const offSaleSkus: readonly string[] = (
  JSON.parse(readFileSync(join(seedDirectory, 'products.json'), 'utf8')) as { sku: string; active?: boolean }[]
)
  .filter((product) => product.active === false)
  .map((product) => product.sku);

/** The n-th SKU of scripts/generate-stock.mjs and of the sandbox's generated catalogue. */
export function generatedSku(position: number): string {
  return `GEN-${String(position).padStart(7, '0')}`;
}

/** What scripts/generate-stock.mjs writes for row n (its formula, restated here to check the sandbox against). */
export function generatedEntry(position: number): StockEntry {
  const priceCents = 500 + ((position * 104729) % 250000);
  return {
    sku: generatedSku(position),
    warehouse: null,
    quantity: (position * 7919) % 5000,
    price: priceCents / 100,
    salePrice: position % 5 === 0 ? Math.floor(priceCents * 0.9) / 100 : null,
    updates: 1,
  };
}

/** Writes `node scripts/generate-stock.mjs count [--excel]` into a file, as an operator would. */
export function writeGeneratedStock(path: string, count: number, options: { excel?: boolean } = {}): void {
  const output = openSync(path, 'w');
  try {
    const result = spawnSync(
      process.execPath,
      [join(repoRoot, 'scripts', 'generate-stock.mjs'), String(count), ...(options.excel ? ['--excel'] : [])],
      { stdio: ['ignore', output, 'pipe'] },
    );
    if (result.status !== 0) throw new Error(`generate-stock.mjs exited ${result.status}: ${result.stderr.toString()}`);
  } finally {
    closeSync(output);
  }
}

export interface GeneratedComparison {
  /** Stock lines the sandbox holds. */
  lines: number;
  /** Rows 1…count of the generated file with no stock line. */
  missing: number;
  /** The first few lines that differ from the generator's formula (or are not of the file at all). */
  mismatches: string[];
  /** Sum of every line's update count: `count` when each item was applied exactly once. */
  updates: number;
}

/**
 * Compares the sandbox's stock with a generated file of `count` rows, reading the sandbox's lines in process (the
 * test's own sandbox: the same lines `/_sandbox/stock-entries` streams, without a million JSON lines through HTTP)
 * and computing each expected line from the generator's formula: one bit per row, whatever the size.
 */
export async function compareWithGenerated(sandbox: RunningSandbox, count: number): Promise<GeneratedComparison> {
  const seen = new Uint8Array(count + 1);
  const result: GeneratedComparison = { lines: 0, missing: 0, mismatches: [], updates: 0 };
  const mismatch = (text: string) => {
    if (result.mismatches.length < 10) result.mismatches.push(text);
  };
  for (const entry of sandbox.state.stock.store.entries()) {
    result.lines++;
    result.updates += entry.updates;
    const position = /^GEN-(\d{7,})$/.test(entry.sku) ? Number(entry.sku.slice(4)) : 0;
    if (position < 1 || position > count) {
      mismatch(`not in the file: ${JSON.stringify(entry)}`);
      continue;
    }
    if (seen[position]) mismatch(`twice: ${entry.sku}`);
    seen[position] = 1;
    const expected = generatedEntry(position);
    if (
      entry.warehouse !== expected.warehouse ||
      entry.quantity !== expected.quantity ||
      entry.price !== expected.price ||
      entry.salePrice !== expected.salePrice
    ) {
      mismatch(`${entry.sku}: sandbox ${JSON.stringify(entry)}, file ${JSON.stringify(expected)}`);
    }
  }
  for (let position = 1; position <= count; position++) if (!seen[position]) result.missing++;
  return result;
}
