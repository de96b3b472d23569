import { describe, expect, it } from 'vitest';
import { runPool } from '../../../src/lib/pool.js';

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((promiseResolve, promiseReject) => {
    resolve = promiseResolve;
    reject = promiseReject;
  });
  return { promise, resolve, reject };
}

/** Lets pending callbacks and promise chains run. */
async function settle(rounds = 5): Promise<void> {
  for (let round = 0; round < rounds; round++) await new Promise((resolve) => setImmediate(resolve));
}

/** An endless source of numbers that counts what was pulled and whether it was closed. */
function endless(): { items: AsyncGenerator<number>; state: { pulled: number; closed: boolean } } {
  const state = { pulled: 0, closed: false };
  async function* generate(): AsyncGenerator<number> {
    try {
      for (let index = 0; ; index++) {
        state.pulled++;
        yield index;
      }
    } finally {
      state.closed = true;
    }
  }
  return { items: generate(), state };
}

/** 0, then 1 and 2 once `ready` settles. */
async function* waitingSource(ready: Promise<void>): AsyncGenerator<number> {
  yield 0;
  await ready;
  yield 1;
  yield 2;
}

async function* failingSource(): AsyncGenerator<number> {
  yield 0;
  yield 1;
  throw new Error('the file is unreadable');
}

async function* finite(count: number): AsyncGenerator<number> {
  for (let index = 0; index < count; index++) yield index;
}

/** A pending promise's state, without waiting for it. */
async function stateOf(promise: Promise<unknown>): Promise<'pending' | 'fulfilled' | 'rejected'> {
  const marker = Symbol('pending');
  return Promise.race([promise, Promise.resolve(marker)]).then(
    (value) => (value === marker ? 'pending' : 'fulfilled'),
    () => 'rejected',
  );
}

describe('runPool concurrency', () => {
  it.each([1, 3, 8])('never runs more than %i workers at once, and reaches that many', async (concurrency) => {
    let active = 0;
    let maxActive = 0;
    const done: number[] = [];
    const result = await runPool(
      finite(60),
      async (item) => {
        active++;
        maxActive = Math.max(maxActive, active);
        // Uneven work, so workers finish out of order.
        await settle(1 + (item % 4));
        active--;
        done.push(item);
      },
      { concurrency },
    );
    expect(result).toEqual({ interrupted: false });
    expect(maxActive).toBe(concurrency);
    expect(done.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, index) => index));
  });

  it('a concurrency above the item count runs them all at once', async () => {
    let maxActive = 0;
    let active = 0;
    await runPool(
      finite(3),
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await settle();
        active--;
      },
      { concurrency: 16 },
    );
    expect(maxActive).toBe(3);
  });

  it('an empty source runs nothing', async () => {
    let calls = 0;
    expect(await runPool(finite(0), async () => void calls++, { concurrency: 4 })).toEqual({ interrupted: false });
    expect(calls).toBe(0);
  });
});

describe('runPool pulls lazily', () => {
  it('pulls from an endless source only as slots free up, and stops at an abort', async () => {
    const { items, state } = endless();
    const controller = new AbortController();
    let completed = 0;
    let worstLead = 0;
    const result = await runPool(
      items,
      async () => {
        // Items pulled but not finished never exceed the concurrency (the one being started included).
        worstLead = Math.max(worstLead, state.pulled - completed);
        await settle(1);
        completed++;
        if (completed === 25) controller.abort();
      },
      { concurrency: 4, signal: controller.signal },
    );
    expect(result).toEqual({ interrupted: true });
    expect(worstLead).toBeLessThanOrEqual(4);
    expect(completed).toBeGreaterThanOrEqual(25);
    expect(completed).toBeLessThanOrEqual(25 + 3);
    expect(state.pulled).toBeLessThanOrEqual(completed + 1);
    expect(state.closed).toBe(true);
  });

  it('an abort before the start pulls nothing', async () => {
    const { items, state } = endless();
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    expect(await runPool(items, async () => void calls++, { concurrency: 4, signal: controller.signal })).toEqual({
      interrupted: true,
    });
    expect(calls).toBe(0);
    expect(state.pulled).toBe(0);
  });
});

describe('runPool abort', () => {
  it('waits for the work in flight before it reports the interruption', async () => {
    const { items, state } = endless();
    const controller = new AbortController();
    const gates: Deferred[] = [];
    const finished: number[] = [];
    const run = runPool(
      items,
      async (item) => {
        const gate = deferred();
        gates.push(gate);
        await gate.promise;
        finished.push(item);
      },
      { concurrency: 3, signal: controller.signal },
    );
    await settle();
    expect(gates.length).toBe(3);
    controller.abort();
    await settle();
    expect(await stateOf(run)).toBe('pending');
    gates[1]?.resolve();
    gates[0]?.resolve();
    await settle();
    expect(await stateOf(run)).toBe('pending');
    gates[2]?.resolve();
    expect(await run).toEqual({ interrupted: true });
    expect(finished.toSorted()).toEqual([0, 1, 2]);
    expect(gates.length).toBe(3);
    expect(state.pulled).toBe(3);
    expect(state.closed).toBe(true);
  });
});

describe('runPool worker errors', () => {
  it('stop the pulling, wait for the work in flight, and are rethrown', async () => {
    const { items, state } = endless();
    const failure = new Error('login refused');
    const gates = new Map<number, Deferred>();
    const finished: number[] = [];
    const run = runPool(
      items,
      async (item) => {
        const gate = deferred();
        gates.set(item, gate);
        await gate.promise;
        finished.push(item);
      },
      { concurrency: 3 },
    );
    await settle();
    expect([...gates.keys()]).toEqual([0, 1, 2]);
    gates.get(1)?.reject(failure);
    await settle();
    // No new item was started in the freed slot, and the others are still awaited.
    expect([...gates.keys()]).toEqual([0, 1, 2]);
    expect(await stateOf(run)).toBe('pending');
    gates.get(0)?.resolve();
    gates.get(2)?.resolve();
    const error = await run.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBe(failure);
    expect(finished.toSorted()).toEqual([0, 2]);
    expect(state.pulled).toBe(3);
    expect(state.closed).toBe(true);
  });

  it('the first of several errors is the one rethrown', async () => {
    const run = runPool(
      finite(10),
      async (item) => {
        await settle(item === 0 ? 1 : 3);
        throw new Error(`failed ${item}`);
      },
      { concurrency: 2 },
    );
    await expect(run).rejects.toThrow('failed 0');
  });

  it('an error while the next item is being pulled starts no work on that item', async () => {
    const failure = new Error('token refused');
    const slowSource = deferred();
    const started: number[] = [];
    const run = runPool(
      waitingSource(slowSource.promise),
      async (item) => {
        started.push(item);
        await settle(1);
        throw failure;
      },
      { concurrency: 2 },
    );
    await settle();
    slowSource.resolve();
    await expect(run).rejects.toBe(failure);
    expect(started).toEqual([0]);
  });

  it('an error of the source is rethrown after the work in flight', async () => {
    const finished: number[] = [];
    const run = runPool(
      failingSource(),
      async (item) => {
        await settle(3);
        finished.push(item);
      },
      { concurrency: 4 },
    );
    await expect(run).rejects.toThrow('the file is unreadable');
    expect(finished.toSorted()).toEqual([0, 1]);
  });
});
