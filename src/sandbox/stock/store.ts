import { stockKey, type StockItem } from '../../domain/stock.js';

/** The stock and prices of one SKU in one warehouse, as the inspection routes show them. */
export interface StockEntry {
  sku: string;
  /** null for the store's default stock (items sent without a warehouse). */
  warehouse: string | null;
  quantity: number;
  /** null until an item carried a price. */
  price: number | null;
  salePrice: number | null;
  /** How many items were applied to this line. */
  updates: number;
}

const initialCapacity = 1024;

/**
 * Stock lines by (sku, warehouse). A million lines must fit in a sandbox beside a benchmark, so a
 * line is a slot in typed columns found through one Map from `stockKey` to the slot, instead of an
 * object per line (about 80 bytes a line rather than about 170).
 */
export class StockStore {
  private readonly slots = new Map<string, number>();
  private quantities = new Float64Array(initialCapacity);
  // NaN marks a price never sent.
  private prices = new Float64Array(initialCapacity);
  private salePrices = new Float64Array(initialCapacity);
  private updateCounts = new Uint32Array(initialCapacity);
  private quantitySum = 0;

  /**
   * Sets the quantity of the item's line, and its prices when the item carries them; absent prices are kept, a null
   * sale price ends the promotion (the line shows none, as before any was sent).
   */
  apply(item: StockItem): void {
    const key = stockKey(item);
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.slots.size;
      if (slot === this.quantities.length) this.grow();
      this.slots.set(key, slot);
      this.prices[slot] = Number.NaN;
      this.salePrices[slot] = Number.NaN;
    }
    this.quantitySum += item.quantity - (this.quantities[slot] ?? 0);
    this.quantities[slot] = item.quantity;
    if (item.price !== undefined) this.prices[slot] = item.price;
    if (item.salePrice !== undefined) this.salePrices[slot] = item.salePrice ?? Number.NaN;
    this.updateCounts[slot] = (this.updateCounts[slot] ?? 0) + 1;
  }

  /** The line of a SKU in a warehouse (none: the default stock), or undefined when nothing was applied to it. */
  get(sku: string, warehouse?: string): StockEntry | undefined {
    const key = stockKey({ sku, warehouse });
    const slot = this.slots.get(key);
    return slot === undefined ? undefined : this.entryAt(key, slot);
  }

  /** Every line, in the order each was first applied. */
  *entries(): IterableIterator<StockEntry> {
    for (const [key, slot] of this.slots) yield this.entryAt(key, slot);
  }

  /** Lines stored: (sku, warehouse) pairs that received at least one item. */
  get size(): number {
    return this.slots.size;
  }

  /** Sum of the quantities of every line: a cheap check that a large push landed. */
  get totalQuantity(): number {
    return this.quantitySum;
  }

  clear(): void {
    this.slots.clear();
    this.quantities = new Float64Array(initialCapacity);
    this.prices = new Float64Array(initialCapacity);
    this.salePrices = new Float64Array(initialCapacity);
    this.updateCounts = new Uint32Array(initialCapacity);
    this.quantitySum = 0;
  }

  private entryAt(key: string, slot: number): StockEntry {
    const separator = key.indexOf('\u0000');
    const warehouse = key.slice(separator + 1);
    const price = this.prices[slot] ?? Number.NaN;
    const salePrice = this.salePrices[slot] ?? Number.NaN;
    return {
      sku: key.slice(0, separator),
      warehouse: warehouse === '' ? null : warehouse,
      quantity: this.quantities[slot] ?? 0,
      price: Number.isNaN(price) ? null : price,
      salePrice: Number.isNaN(salePrice) ? null : salePrice,
      updates: this.updateCounts[slot] ?? 0,
    };
  }

  private grow(): void {
    const capacity = this.quantities.length * 2;
    this.quantities = grown(this.quantities, new Float64Array(capacity));
    this.prices = grown(this.prices, new Float64Array(capacity));
    this.salePrices = grown(this.salePrices, new Float64Array(capacity));
    this.updateCounts = grown(this.updateCounts, new Uint32Array(capacity));
  }
}

function grown<T extends Float64Array | Uint32Array>(old: T, larger: T): T {
  larger.set(old);
  return larger;
}
