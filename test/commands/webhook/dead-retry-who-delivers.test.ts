/**
 * `webhook dead retry` says who delivers the letter it queued (a user test: with no receiver running it said "the
 * running receiver delivers it before its next event", and the operator waited for a delivery nothing would make).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run as dead } from '../../../src/commands/webhook/dead.js';
import { acquireLock } from '../../../src/config/lock.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { testContext } from '../../support/test-context.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** An inbox holding one event, dead for hand-off `forward`. */
async function inboxWithDeadLetter(): Promise<string> {
  const directory = temporaryFolder();
  const store = await SqliteStore.open(directory);
  await store.openHandOff('forward', 'http://erp/hook', true);
  await store.append({
    receivedAt: Date.parse('2026-11-30T12:00:00Z'),
    kind: 'orders',
    deliveryId: 'delivery-1',
    key: 'orders:1',
    flags: [],
    clientAddress: '203.0.113.7',
    raw: '{"id":1}',
  });
  const [stored] = await store.pendingForHandOff('forward', undefined, 1).then((next) => next.events);
  if (stored === undefined) throw new Error('no event stored');
  await store.markDead('forward', stored, 'HTTP 500: down', 3);
  await store.close();
  return directory;
}

/** `webhook dead retry 1` on `inbox`: its exit code and what it said. */
async function retry(inbox: string): Promise<{ code: number; said: string }> {
  const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
  const code = await memory.run(dead, { action: 'retry', ids: [1], inbox });
  return { code, said: memory.stderr() };
}

describe('webhook dead retry: who delivers the letter', () => {
  it('with no receiver on the inbox, the next one started on it', async () => {
    const inbox = await inboxWithDeadLetter();
    expect(await retry(inbox)).toEqual({
      code: 0,
      said: `1 dead letter queued: no receiver runs on ${inbox}; the next one started on it delivers it first.\n`,
    });
  });

  it('with a lock left by a receiver that is gone, the next one started too', async () => {
    const inbox = await inboxWithDeadLetter();
    // A PID past Linux's largest (2^22) runs nowhere.
    writeFileSync(
      join(inbox, 'receiver.lock'),
      JSON.stringify({ pid: 4_194_305, command: 'webhook listen', startedAt: '2026-11-30T12:00:00.000Z' }),
    );
    expect((await retry(inbox)).said).toContain(`no receiver runs on ${inbox}; the next one started on it`);
  });

  it('with a receiver holding the inbox, that one, by its PID', async () => {
    const inbox = await inboxWithDeadLetter();
    const release = acquireLock(join(inbox, 'receiver.lock'), 'webhook listen', () => undefined);
    try {
      expect(await retry(inbox)).toEqual({
        code: 0,
        said: `1 dead letter queued: the running receiver (PID ${process.pid}) delivers it before its next event.\n`,
      });
    } finally {
      release();
    }
  });
});
