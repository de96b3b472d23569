import { randomUUID } from 'node:crypto';
import type { StockItemResult } from './rules.js';

export type StockBatchStatus = 'QUEUED' | 'PROCESSING' | 'DONE';

/** A batch of `POST /api/v1/stocks/batch` as the inspection route shows it. */
export interface StockBatchView {
  batchId: string;
  status: StockBatchStatus;
  items: number;
  applied: number;
  rejected: number;
  /** The rejected items only, in item order: a million applied items are counted, not kept. */
  results: StockItemResult[];
}

interface StockBatch extends StockBatchView {
  /** The items not yet applied (released once the batch is done). */
  pending: unknown[];
  next: number;
}

export interface StockQueueOptions {
  /** Wait before an idle queue starts on a new batch: the platform applies queued stock "a little later". */
  startDelayMs: number;
  /** Items applied per turn of the event loop, so that requests keep being answered during a large load. */
  itemsPerTurn: number;
}

export const stockQueueDefaults: StockQueueOptions = { startDelayMs: 5, itemsPerTurn: 2_000 };

/**
 * The platform's asynchronous stock queue: batches are applied one item at a time, in order of
 * arrival, a few milliseconds after they were accepted (more when a backlog builds up).
 */
export class StockQueue {
  private readonly batches = new Map<string, StockBatch>();
  private readonly waiting: StockBatch[] = [];
  private waitingItems = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private closed = false;

  private readonly applyItem: (wireItem: unknown, index: number) => StockItemResult;
  private readonly options: StockQueueOptions;
  constructor(
    applyItem: (wireItem: unknown, index: number) => StockItemResult,
    options: StockQueueOptions = stockQueueDefaults,
  ) {
    this.applyItem = applyItem;
    this.options = options;
  }

  /** Accepts a batch for later processing and returns its id. */
  enqueue(items: unknown[]): string {
    const batch: StockBatch = {
      batchId: randomUUID(),
      status: 'QUEUED',
      items: items.length,
      applied: 0,
      rejected: 0,
      results: [],
      pending: items,
      next: 0,
    };
    this.batches.set(batch.batchId, batch);
    this.waiting.push(batch);
    this.waitingItems += items.length;
    this.schedule();
    return batch.batchId;
  }

  batch(batchId: string): StockBatchView | undefined {
    const batch = this.batches.get(batchId);
    if (!batch) return undefined;
    return {
      batchId: batch.batchId,
      status: batch.status,
      items: batch.items,
      applied: batch.applied,
      rejected: batch.rejected,
      results: [...batch.results],
    };
  }

  /** Batches not yet done (queued or processing). */
  get pendingBatches(): number {
    return this.waiting.length;
  }

  /** Items accepted but not yet applied or rejected. */
  get pendingItems(): number {
    return this.waitingItems;
  }

  /** Batches accepted since the start (or the last clear). */
  get batchCount(): number {
    return this.batches.size;
  }

  /** Forgets every batch, done or not. */
  clear(): void {
    this.cancelTimers();
    this.batches.clear();
    this.waiting.length = 0;
    this.waitingItems = 0;
  }

  /** Stops the worker; batches still waiting stay unprocessed. Leaves no timer behind. */
  close(): void {
    this.closed = true;
    this.cancelTimers();
  }

  private schedule(): void {
    if (this.closed || this.timer || this.immediate || this.waiting.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.work();
    }, this.options.startDelayMs);
  }

  private work(): void {
    let budget = this.options.itemsPerTurn;
    while (budget > 0 && this.waiting.length > 0) {
      const batch = this.waiting[0] as StockBatch;
      batch.status = 'PROCESSING';
      while (budget > 0 && batch.next < batch.items) {
        const index = batch.next++;
        const result = this.applyItem(batch.pending[index], index);
        if (result.status === 'APPLIED') batch.applied++;
        else {
          batch.rejected++;
          batch.results.push(result);
        }
        this.waitingItems--;
        budget--;
      }
      if (batch.next === batch.items) {
        batch.status = 'DONE';
        batch.pending = [];
        this.waiting.shift();
      }
    }
    if (this.waiting.length > 0 && !this.closed) {
      // Yield to the event loop: the rest of the backlog is applied on the next turn, without delay.
      this.immediate = setImmediate(() => {
        this.immediate = undefined;
        this.work();
      });
    }
  }

  private cancelTimers(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }
}
