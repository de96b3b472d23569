import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { ExitCode, type B2bctlError } from '../../../src/base/errors.js';
import { execCommand, forwardTo } from '../../../src/webhook/consumers.js';
import { HandOff } from '../../../src/webhook/hand-off.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { NewEvent } from '../../../src/webhook/store/types.js';
import { testContext } from '../../support/test-context.js';
import {
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
  useTestReceivers,
} from '../../support/webhook-receiver.js';

// An event of a hostile shape: refused at the door and stored nowhere; one stored before that refusal existed goes
// to the dead letters at once, without holding up the events behind it, and `webhook inbox` lists around it.

const receiver = useTestReceivers();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).toReversed()) await close();
});
afterAll(removeReceiverFolders);

/** `{"id":1,"x":[[[…]]]}` with the array nested `levels` deep inside the event (which is level 1). */
function nested(levels: number): string {
  return `{"id":1,"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

function storedEvent(id: number, raw = JSON.stringify({ id })): NewEvent {
  return {
    receivedAt: Date.UTC(2026, 10, 23, 6, 0, id),
    kind: 'orders',
    deliveryId: `delivery-${id}`,
    key: `orders:${id}:x`,
    flags: [],
    clientAddress: '127.0.0.1',
    raw,
  };
}

/**
 * Whether this Node's JSON.stringify overflows its stack on an event 500,000 levels deep (Node 22 and 24 do;
 * Node 26 writes any depth out, so there such an event is simply delivered).
 */
const deepEventOverflows = (() => {
  try {
    JSON.stringify(JSON.parse(nested(500_000)));
    return false;
  } catch {
    return true;
  }
})();
const overflowNote = deepEventOverflows ? '' : ' (skipped: this Node writes an event of any depth out)';

/** A store of three events, the second nested 500,000 levels deep (as an earlier version could store it). */
async function storeWithADeepEvent(): Promise<{ directory: string; store: SqliteStore }> {
  const directory = temporaryFolder();
  const store = await SqliteStore.open(directory);
  closers.push(() => store.close());
  for (const item of [storedEvent(1), storedEvent(2, nested(500_000)), storedEvent(3)]) await store.append(item);
  return { directory, store };
}

describe('events of a hostile shape', () => {
  it.each([
    [nested(65), 'The body is nested deeper than 64 levels; it was not stored'],
    [nested(100_000), 'The body is nested deeper than 64 levels; it was not stored'],
    [
      JSON.stringify(Object.fromEntries(Array.from({ length: 50_001 }, (_, index) => [`k${index}`, 0]))),
      'The body is more than 50,000 keys; it was not stored',
    ],
  ])('are refused with 400 before they are stored (%#)', async (body, description) => {
    const started = await receiver();
    const answer = await postEvent(started.url, 'orders', body, await receiverToken(started.url));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'bad_request', error_description: description });
    expect(started.stored).toEqual([]);
    expect(started.onDisk()).toEqual([]);
  });

  it('an event 64 levels deep is taken', async () => {
    const started = await receiver();
    const answer = await postEvent(started.url, 'orders', nested(64), await receiverToken(started.url));
    expect(answer.status).toBe(200);
    expect(started.onDisk()).toHaveLength(1);
  });

  it.skipIf(!deepEventOverflows).each(['forward', 'exec'])(
    `a stored event too deep to write out is a dead letter at once (%s); the next one is delivered${overflowNote}`,
    async (kind) => {
      const { store } = await storeWithADeepEvent();
      await store.openHandOff('erp', 'test', true);
      const taken: string[] = [];
      const consumer =
        kind === 'exec'
          ? execCommand('cat >/dev/null', new PassThrough(), 10_000)
          : forwardTo('http://127.0.0.1:1/never-reached');
      const recording = {
        target: consumer.target,
        async deliver(event: Parameters<typeof consumer.deliver>[0], signal: AbortSignal) {
          if (kind === 'exec' || event.id === 2) await consumer.deliver(event, signal);
          taken.push(String(event.id));
        },
      };
      const log: string[] = [];
      const handOff = new HandOff(store, 'erp', recording, {
        clock: systemClock,
        log: (line) => log.push(line),
        giveUpAfterMs: 72 * 3_600_000,
        initialBackoffMs: 60_000,
        pollMs: 50,
      });
      handOff.start();
      closers.push(() => handOff.stop());
      while (taken.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(taken).toEqual(['1', '3']);
      const [dead] = await store.deadLetters();
      expect(dead).toMatchObject({ eventId: 2, attempts: 1 });
      expect(dead?.error).toMatch(/^the event cannot be written out as JSON \(Maximum call stack size exceeded\)$/);
      expect(log).toEqual([
        `Hand-off "erp": orders event 2 is dead after 1 attempt (${dead?.error}); delivery goes on. See webhook dead list.`,
      ]);
    },
  );

  it.skipIf(!deepEventOverflows)(
    `webhook inbox lists every other event, says which one it could not show, and exits 1${overflowNote}`,
    async () => {
      const { directory, store } = await storeWithADeepEvent();
      await store.close();
      closers.length = 0;
      const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
      const failure = (await listInbox({ inbox: directory }, memory.context).catch((error: unknown) => error)) as
        B2bctlError | undefined;
      expect(failure?.exitCode).toBe(ExitCode.someRecordsFailed);
      expect(failure?.message).toBe('1 event could not be shown (ids 2); every other one was.');
      const lines = memory.stdout().trim().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual([1, 3]);
      expect(memory.stderr()).toContain(
        'Event 2 (orders, received 2026-11-23T06:00:02.000Z) cannot be shown: Maximum call stack size exceeded; left out.',
      );
    },
  );
});
