import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { execCommand, forwardTo } from '../../../src/webhook/consumers.js';
import { HandOff } from '../../../src/webhook/hand-off.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { NewEvent, StoredEvent } from '../../../src/webhook/store/types.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).toReversed()) await close();
});
afterAll(removeReceiverFolders);

function event(id: number): NewEvent {
  return {
    receivedAt: Date.UTC(2026, 10, 23, 6, 0, id),
    kind: 'orders',
    deliveryId: `delivery-${id}`,
    key: `orders:${id}:x`,
    flags: [],
    clientAddress: '127.0.0.1',
    raw: JSON.stringify({ id }),
  };
}

async function openStore(directory = temporaryFolder()): Promise<SqliteStore> {
  const store = await SqliteStore.open(directory);
  closers.push(() => store.close());
  return store;
}

/** An ERP endpoint answering `answer(id, request number)`, recording the ids it took (2xx). */
async function erp(answer: (id: number, request: number) => number = () => 200) {
  const taken: number[] = [];
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const id = ((JSON.parse(body) as StoredEvent).event as { id: number }).id;
      const status = answer(id, ++requests);
      if (status < 300) taken.push(id);
      response.writeHead(status).end(status < 300 ? 'ok' : 'refused');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hook`, taken, requests: () => requests };
}

async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function handOff(store: SqliteStore, name: string, consumer: ReturnType<typeof forwardTo>, log: string[] = []) {
  const started = new HandOff(store, name, consumer, {
    clock: systemClock,
    log: (line) => log.push(line),
    maxAttempts: 4,
    initialBackoffMs: 5,
    maxBackoffMs: 20,
    pollMs: 50,
  });
  started.start();
  closers.push(() => started.stop());
  return started;
}

describe('HandOff', () => {
  it('forwards to a target that is down for a while: later, in order, each once', async () => {
    const store = await openStore();
    const target = await erp((_id, request) => (request <= 3 ? 503 : 200));
    await store.openHandOff('forward', target.url, false);
    const log: string[] = [];
    handOff(store, 'forward', forwardTo(target.url), log);
    for (const id of [1, 2, 3]) await store.append(event(id));
    await until(() => target.taken.length === 3);
    expect(target.taken).toEqual([1, 2, 3]);
    expect(target.requests()).toBe(6);
    expect(log[0]).toMatch(
      /Hand-off "forward" \(http:.*\): orders event 1 failed \(attempt 1 of 4: HTTP 503: refused\)/,
    );
  });

  it('keeps its position when its URL changes: the new URL gets only what came after', async () => {
    const directory = temporaryFolder();
    const first = await SqliteStore.open(directory);
    const old = await erp();
    await first.openHandOff('forward', old.url, false);
    const running = new HandOff(first, 'forward', forwardTo(old.url), {
      clock: systemClock,
      log: () => undefined,
      maxAttempts: 3,
    });
    running.start();
    for (const id of [1, 2]) await first.append(event(id));
    await until(() => old.taken.length === 2);
    await running.stop();
    await first.append(event(3)); // stored while no hand-off ran
    await first.close();

    const store = await openStore(directory);
    const moved = await erp();
    expect(await store.openHandOff('forward', moved.url, false)).toEqual({ created: false, previousTarget: old.url });
    handOff(store, 'forward', forwardTo(moved.url));
    await store.append(event(4));
    await until(() => moved.taken.length === 2);
    expect(moved.taken).toEqual([3, 4]);
    expect(old.taken).toEqual([1, 2]);
  });

  it('starts a new hand-off from now, or from the first stored event with fromStart', async () => {
    const store = await openStore();
    for (const id of [1, 2]) await store.append(event(id));
    const fresh = await erp();
    const everything = await erp();
    expect(await store.openHandOff('fresh', fresh.url, false)).toEqual({ created: true });
    expect(await store.openHandOff('all', everything.url, true)).toEqual({ created: true });
    handOff(store, 'fresh', forwardTo(fresh.url));
    handOff(store, 'all', forwardTo(everything.url));
    await store.append(event(3));
    await until(() => fresh.taken.length === 1 && everything.taken.length === 3);
    expect(fresh.taken).toEqual([3]);
    expect(everything.taken).toEqual([1, 2, 3]);
  });

  it('moves a refused event (422) and one failing past max attempts to dead, delivers the rest, then retries on request', async () => {
    const store = await openStore();
    let refuse = true;
    const target = await erp((id) => (refuse && id === 2 ? 422 : refuse && id === 4 ? 503 : 200));
    await store.openHandOff('forward', target.url, false);
    const log: string[] = [];
    handOff(store, 'forward', forwardTo(target.url), log);
    for (const id of [1, 2, 3, 4, 5]) await store.append(event(id));
    await until(() => target.taken.length === 3);
    expect(target.taken).toEqual([1, 3, 5]);
    const dead = await store.deadLetters();
    expect(dead.map(({ eventId, attempts, error }) => ({ eventId, attempts, error }))).toEqual([
      { eventId: 2, attempts: 1, error: 'HTTP 422: refused' },
      { eventId: 4, attempts: 4, error: 'HTTP 503: refused' },
    ]);
    expect(log.filter((line) => line.includes('is dead'))).toHaveLength(2);
    // The ERP took event 5 a moment before its position was committed.
    while ((await store.backlog())[0]?.pending !== 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await store.backlog()).toMatchObject([{ name: 'forward', pending: 0, dead: 2 }]);

    refuse = false;
    expect(await store.retryDead([2])).toBe(1);
    await until(() => target.taken.length === 4);
    expect(target.taken).toEqual([1, 3, 5, 2]);
    for (let letters = await store.deadLetters(); letters.length > 1; letters = await store.deadLetters())
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await store.deadLetters()).map((letter) => letter.eventId)).toEqual([4]);
    expect(await store.dropDead([4])).toBe(1);
    expect(await store.deadLetters()).toEqual([]);
  });

  it('goes on after the store fails (a database restart), delivering the same event', async () => {
    const store = await openStore();
    const target = await erp();
    await store.openHandOff('forward', target.url, false);
    let failures = 1;
    const flaky = Object.create(store) as SqliteStore;
    flaky.nextForHandOff = async (name) => {
      if (failures-- > 0) throw new Error('Connection terminated unexpectedly');
      return store.nextForHandOff(name);
    };
    const log: string[] = [];
    const sleeps: number[] = [];
    const started = new HandOff(flaky, 'forward', forwardTo(target.url), {
      clock: { now: Date.now, sleep: async (ms) => void sleeps.push(ms) },
      log: (line) => log.push(line),
      maxAttempts: 3,
      pollMs: 20,
    });
    await store.append(event(1));
    started.start();
    closers.push(() => started.stop());
    await until(() => target.taken.length === 1);
    expect(target.taken).toEqual([1]);
    expect(log[0]).toBe('Hand-off "forward": the store failed (Connection terminated unexpectedly); trying again.');
    expect(sleeps).toEqual([5000]);
  });

  it('runs a command per event with the event on stdin, retrying a failing command', async () => {
    const directory = temporaryFolder();
    const store = await openStore(directory);
    const marker = join(directory, 'second-try');
    const output = join(directory, 'taken.ndjson');
    const command = `if [ -f ${marker} ]; then cat >> ${output}; else touch ${marker}; echo failing >&2; exit 3; fi`;
    const stderr = new PassThrough();
    let errorText = '';
    stderr.on('data', (chunk) => (errorText += chunk));
    const consumer = execCommand(command, stderr, 10_000);
    await store.openHandOff('exec', consumer.target, false);
    const log: string[] = [];
    handOff(store, 'exec', consumer, log);
    for (const id of [7, 8]) await store.append(event(id));
    const lines = () => (existsSync(output) ? readFileSync(output, 'utf8').split('\n').filter(Boolean) : []);
    await until(() => lines().length === 2);
    expect(lines().map((line) => (JSON.parse(line) as StoredEvent).deliveryId)).toEqual(['delivery-7', 'delivery-8']);
    expect(log[0]).toMatch(/exec .*: orders event 1 failed \(attempt 1 of 4: exit code 3\)/);
    expect(errorText).toContain('failing');
  });
});

/** A command that starts a grandchild which would outlive its shell, and records the grandchild's PID. */
function hangingCommand(directory: string): { command: string; grandchild: () => number | undefined } {
  const pidFile = join(directory, 'grandchild.pid');
  return {
    command: `sleep 300 & echo $! > ${pidFile}; wait`,
    grandchild: () => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined),
  };
}

/** Running, not a zombie waiting for a parent (PID 1 in a container may never reap it). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('exec timeout and shutdown', () => {
  it('kills a hanging command with its children at the timeout, and the event goes dead past max attempts', async () => {
    const directory = temporaryFolder();
    const store = await openStore(directory);
    const hanging = hangingCommand(directory);
    const consumer = execCommand(hanging.command, new PassThrough(), 300);
    await store.openHandOff('exec', consumer.target, false);
    const started = new HandOff(store, 'exec', consumer, { clock: systemClock, log: () => undefined, maxAttempts: 1 });
    started.start();
    closers.push(() => started.stop());
    await store.append(event(1));
    await until(() => hanging.grandchild() !== undefined, 'the grandchild');
    const grandchild = hanging.grandchild() as number;
    await until(() => !alive(grandchild), 'the grandchild to be killed');
    const dead = await (async () => {
      for (;;) {
        const letters = await store.deadLetters();
        if (letters.length > 0) return letters;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    expect(dead[0]?.error).toMatch(/timed out after 0.3 s; its process group was killed/);
  });

  it('stop() kills a running command and its children at once', async () => {
    const directory = temporaryFolder();
    const store = await openStore(directory);
    const hanging = hangingCommand(directory);
    const consumer = execCommand(hanging.command, new PassThrough(), 600_000);
    await store.openHandOff('exec', consumer.target, false);
    const started = new HandOff(store, 'exec', consumer, { clock: systemClock, log: () => undefined, maxAttempts: 3 });
    started.start();
    await store.append(event(1));
    await until(() => hanging.grandchild() !== undefined, 'the grandchild');
    await started.stop();
    await until(() => !alive(hanging.grandchild() as number), 'the grandchild to be killed');
    // Not delivered and not dead: the next start tries it again.
    expect(await store.deadLetters()).toEqual([]);
    expect(await store.backlog()).toMatchObject([{ name: 'exec', pending: 1 }]);
  });
});
