/**
 * A running receiver looks at its inbox lock again while it runs (a user test: the lock removed under a running
 * receiver, by a cleaner of /tmp or an operator, let a second receiver start on the same inbox, and the ERP got
 * every event twice, with no line from either).
 */
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run as listen } from '../../../src/commands/webhook/listen.js';
import { acquireHeldLock } from '../../../src/config/lock.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { testContext } from '../../support/test-context.js';
import { until } from '../../support/until.js';
import {
  listenOptions,
  pendingOn,
  postWithToken,
  receiverEnv,
  removeReceiverFolders,
  sampleOrder,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** A `webhook listen` in process, run as main.ts runs it (its exit code), looking at its lock every 20 ms. */
async function receiverOn(inbox: string, forwardTo: string) {
  const memory = testContext({ env: receiverEnv() });
  const exit = memory.run(listen, listenOptions(inbox, { forwardTo, lockCheckEveryMs: 20 }));
  const url = await Promise.race([
    memory.firstLine(),
    exit.then((code) => {
      throw new Error(`listen exited ${code} before printing its URL: ${memory.stderr()}`);
    }),
  ]);
  return { memory, exit, url };
}

/** An orders event of its own order number and stamp. */
function order(id: number) {
  return { ...sampleOrder, id, lastUpdated: `2026-11-30T12:00:00.${String(id).padStart(3, '0')}Z` };
}

describe('webhook listen: the inbox lock while the receiver runs', () => {
  it('a lock removed under it is made again, with a warning, and a second receiver is still refused (exit 75)', async () => {
    const erp = await standInErp();
    const inbox = temporaryFolder();
    const lock = join(inbox, 'receiver.lock');
    const first = await receiverOn(inbox, erp.url);
    try {
      const held = readFileSync(lock, 'utf8');
      rmSync(lock);
      await until(() => first.memory.stderr().includes('was removed while this receiver held it'), 'the warning', {
        deadlineMs: 5_000,
      });
      expect(first.memory.stderr()).toContain(
        `warning: the inbox lock ${lock} was removed while this receiver held it; it is made again, so that a second receiver on the inbox is still refused.`,
      );
      // The same lock, its nonce and all: the receiver's release at its stop still removes it.
      expect(readFileSync(lock, 'utf8')).toBe(held);
      const second = testContext({ env: receiverEnv() });
      expect(await second.run(listen, listenOptions(inbox, { forwardTo: erp.url }))).toBe(75);
      expect(second.stderr()).toContain(`Another "webhook listen" is running (PID ${process.pid},`);
      expect(second.stdout()).toBe('');
      for (const id of [1, 2, 3]) expect((await postWithToken(first.url, 'orders', order(id))).status).toBe(200);
      await until(() => erp.received.length >= 3, 'three deliveries', { deadlineMs: 5_000 });
      first.memory.interrupt();
      expect(await first.exit).toBe(0);
      // Each event once: one receiver delivered them.
      expect(erp.received.map((request) => (JSON.parse(request.body) as { id: number }).id)).toEqual([1, 2, 3]);
    } finally {
      first.memory.interrupt();
      await first.exit;
      await erp.close();
    }
  });

  it("another run's lock in its place stops it: no more events taken or handed off, exit 75 naming the holder", async () => {
    const erp = await standInErp();
    const inbox = temporaryFolder();
    const lock = join(inbox, 'receiver.lock');
    const first = await receiverOn(inbox, erp.url);
    expect((await postWithToken(first.url, 'orders', order(1))).status).toBe(200);
    await until(() => erp.received.length === 1, 'the first delivery', { deadlineMs: 5_000 });
    // And recorded as taken: the ERP's answer is recorded after the ERP has the event (within the group commit), and
    // a receiver stopped before that hands it off again when it restarts, as it must (a run of the full suite on a
    // loaded machine swapped the lock in between: the ERP got event 1 twice).
    await until(async () => (await pendingOn(first.url, 'forward')) === 0, 'the first delivery recorded');
    // A second receiver let in by the removed lock: its own lock (another nonce) in the place of the first's, the
    // file replaced at once, so the first never finds the path free.
    const moved = join(inbox, 'receiver.lock.first');
    renameSync(lock, moved);
    const other = acquireHeldLock(lock, 'webhook listen', () => undefined);
    const code = await first.exit;
    expect(code).toBe(75);
    const said = first.memory.stderr();
    expect(said).toContain(
      `The inbox lock ${lock} was replaced: it is now PID ${process.pid}'s (webhook listen, since`,
    );
    expect(said).toContain('this receiver takes no more events and stops (exit 75)');
    expect(said).toContain(`error: Stopped: the inbox lock ${lock} was replaced`);
    // Its release left the other run's lock alone.
    expect(other.check()).toEqual({ held: true });
    // It takes nothing more: the port is closed, and an event stored meanwhile by the other run reaches the ERP once.
    await expect(postWithToken(first.url, 'orders', order(2))).rejects.toThrow('fetch failed');
    other.release();
    rmSync(moved);
    const second = await receiverOn(inbox, erp.url);
    try {
      expect((await postWithToken(second.url, 'orders', order(2))).status).toBe(200);
      await until(() => erp.received.length === 2, 'the second delivery', { deadlineMs: 5_000 });
      second.memory.interrupt();
      expect(await second.exit).toBe(0);
      expect(erp.received.map((request) => (JSON.parse(request.body) as { id: number }).id)).toEqual([1, 2]);
    } finally {
      second.memory.interrupt();
      await second.exit;
      await erp.close();
    }
  });
});
