import { defaultStockSchema, type StockSchema } from '../../domain/stock.js';
import { Catalogue } from './catalogue.js';
import { StockQueue, stockQueueDefaults, type StockQueueOptions } from './queue.js';
import { applyStockItem, type StockItemResult } from './rules.js';
import { StockStore } from './store.js';

/** Everything the sandbox holds for stock: the catalogue, the stock lines, the asynchronous queue and the counters. */
export class StockState {
  readonly catalogue: Catalogue;
  readonly store = new StockStore();
  readonly queue: StockQueue;
  /** The store's field names on the wire (identity unless the sandbox was given a stock schema). */
  readonly schema: StockSchema;
  /** Items applied and rejected since the start, by either route. */
  applied = 0;
  rejected = 0;

  constructor(
    catalogue: Catalogue = new Catalogue([], 0),
    schema: StockSchema = defaultStockSchema,
    queueOptions: StockQueueOptions = stockQueueDefaults,
  ) {
    this.catalogue = catalogue;
    this.schema = schema;
    this.queue = new StockQueue((wireItem, index) => this.applyItem(wireItem, index), queueOptions);
  }

  /** Applies one wire item now, counting the outcome. */
  applyItem(wireItem: unknown, index: number): StockItemResult {
    const result = applyStockItem(wireItem, index, this);
    if (result.status === 'APPLIED') this.applied++;
    else this.rejected++;
    return result;
  }

  /** Back to the seeded state: no stock lines, no batches, products on and off sale as seeded. */
  reset(): void {
    this.queue.clear();
    this.store.clear();
    this.catalogue.reset();
    this.applied = 0;
    this.rejected = 0;
  }

  close(): void {
    this.queue.close();
  }
}
