import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StockQueue } from '../../../../src/sandbox/stock/queue.js';
import type { StockItemResult } from '../../../../src/sandbox/stock/rules.js';

/** A queue whose items are strings: "bad…" ones are rejected; every call is recorded in order. */
function recordingQueue(itemsPerTurn = 1_000) {
  const seen: string[] = [];
  const apply = (wireItem: unknown, index: number): StockItemResult => {
    const sku = String(wireItem);
    seen.push(sku);
    const rejected = sku.startsWith('bad');
    return {
      index,
      sku,
      warehouse: null,
      status: rejected ? 'REJECTED' : 'APPLIED',
      message: rejected ? `Unknown SKU [${sku}]` : null,
    };
  };
  return { seen, queue: new StockQueue(apply, { startDelayMs: 5, itemsPerTurn }) };
}

describe('StockQueue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('applies a batch a little after accepting it', () => {
    const { seen, queue } = recordingQueue();
    const batchId = queue.enqueue(['A', 'B']);
    expect(queue.batch(batchId)).toEqual({ batchId, status: 'QUEUED', items: 2, applied: 0, rejected: 0, results: [] });
    expect([queue.pendingBatches, queue.pendingItems]).toEqual([1, 2]);
    vi.advanceTimersByTime(4);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['A', 'B']);
    expect(queue.batch(batchId)?.status).toBe('DONE');
    expect([queue.pendingBatches, queue.pendingItems]).toEqual([0, 0]);
  });

  it('applies batches in order of arrival and keeps only the rejections', () => {
    const { seen, queue } = recordingQueue();
    const first = queue.enqueue(['A', 'bad-1', 'B']);
    const second = queue.enqueue(['C', 'bad-2']);
    vi.runAllTimers();
    expect(seen).toEqual(['A', 'bad-1', 'B', 'C', 'bad-2']);
    expect(queue.batch(first)).toEqual({
      batchId: first,
      status: 'DONE',
      items: 3,
      applied: 2,
      rejected: 1,
      results: [{ index: 1, sku: 'bad-1', warehouse: null, status: 'REJECTED', message: 'Unknown SKU [bad-1]' }],
    });
    expect(queue.batch(second)).toMatchObject({ status: 'DONE', applied: 1, rejected: 1 });
    expect(queue.batchCount).toBe(2);
  });

  it('works through a backlog a slice per turn, showing a batch as PROCESSING in between', () => {
    const { seen, queue } = recordingQueue(3);
    const first = queue.enqueue(['A', 'B', 'C', 'D', 'E']);
    const second = queue.enqueue(['F']);
    vi.advanceTimersByTime(5);
    expect(seen).toEqual(['A', 'B', 'C']);
    expect(queue.batch(first)).toMatchObject({ status: 'PROCESSING', applied: 3 });
    expect(queue.batch(second)?.status).toBe('QUEUED');
    expect(queue.pendingItems).toBe(3);
    vi.runAllTimers();
    expect(seen).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect([queue.batch(first)?.status, queue.batch(second)?.status]).toEqual(['DONE', 'DONE']);
  });

  it('starts again after going idle', () => {
    const { seen, queue } = recordingQueue();
    queue.enqueue(['A']);
    vi.runAllTimers();
    queue.enqueue(['B']);
    expect(vi.getTimerCount()).toBe(1);
    vi.runAllTimers();
    expect(seen).toEqual(['A', 'B']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind when closed, even with work waiting', () => {
    const { seen, queue } = recordingQueue(1);
    queue.enqueue(['A', 'B', 'C']);
    vi.advanceTimersByTime(5);
    expect(vi.getTimerCount()).toBe(1);
    queue.close();
    expect(vi.getTimerCount()).toBe(0);
    queue.enqueue(['D']);
    expect(vi.getTimerCount()).toBe(0);
    vi.runAllTimers();
    expect(seen).toEqual(['A']);
  });

  it('forgets every batch on clear', () => {
    const { seen, queue } = recordingQueue();
    const batchId = queue.enqueue(['A']);
    queue.clear();
    vi.runAllTimers();
    expect([seen, queue.batch(batchId), queue.pendingBatches, queue.pendingItems, vi.getTimerCount()]).toEqual([
      [],
      undefined,
      0,
      0,
      0,
    ]);
  });
});
