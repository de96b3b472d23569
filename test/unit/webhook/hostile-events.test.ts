import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { ExitCode, type B2bctlError } from '../../../src/base/errors.js';
import { execCommand, forwardTo } from '../../../src/webhook/consumers.js';
import { HandOff } from '../../../src/webhook/hand-off.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { NewEvent } from '../../../src/webhook/store/types.js';
import { testContext } from '../../support/test-context.js';
import { textServer } from '../../support/text-server.js';
import { until } from '../../support/until.js';
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

/** A line of an order with its taxes: 8 keys. */
const orderLine = (index: number) => ({
  sku: `S${index}`,
  qty: 1,
  price: 1,
  taxes: { ipi: 0, icms: 0, st: 0, difal: 0 },
});

/** An order event of `lines` such lines, as JSON. */
const order = (lines: number) =>
  JSON.stringify({ id: 7, items: Array.from({ length: lines }, (_, index) => orderLine(index)) });

describe('events of a hostile shape', () => {
  it.each([
    [nested(65), 'The body is nested deeper than 64 levels; it was not stored'],
    [nested(100_000), 'The body is nested deeper than 64 levels; it was not stored'],
    [
      // Keys of a few bytes each, under the body limit: one for every 8 bytes of it is the most taken.
      JSON.stringify(Array.from({ length: 131_073 }, () => ({ '': 0 }))),
      'The body is more than 131,072 keys; it was not stored',
    ],
  ])('are refused with 400 before they are stored (%#)', async (body, description) => {
    const started = await receiver();
    const answer = await postEvent(started.url, 'orders', body, await receiverToken(started.url));
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: 'bad_request', error_description: description });
    expect(started.stored).toEqual([]);
    expect(started.onDisk()).toEqual([]);
  });

  // A user test: the full-payload event of an order of 2,500 lines with its taxes (907 KB, over 50,000 keys) was refused 400
  // whatever --body-limit said: the key limit was a fixed 50,000.
  it('takes an order-like event of 56,000 keys under the default body limit, and more keys with a larger one', async () => {
    // 8 keys a line: 7,000 lines are 56,000 keys in about 500 KB.
    const started = await receiver();
    const taken = await postEvent(started.url, 'orders', order(7_000), await receiverToken(started.url));
    expect(taken.status).toBeLessThan(300);
    expect(started.stored).toHaveLength(1);
    // 30,000 lines (240,000 keys, about 2 MB) pass a 4 MB limit (524,288 keys), as the body limit lets them in.
    const larger = await receiver({ bodyLimitBytes: 4 * 1024 * 1024 });
    const big = order(30_000);
    expect(Buffer.byteLength(big)).toBeLessThan(4 * 1024 * 1024);
    const alsoTaken = await postEvent(larger.url, 'orders', big, await receiverToken(larger.url));
    expect(alsoTaken.status).toBeLessThan(300);
    expect(larger.stored).toHaveLength(1);
  });

  it('a body in another charset is refused (415), one not UTF-8 too (400); a UTF-8 byte-order mark is ignored', async () => {
    const started = await receiver();
    const token = await receiverToken(started.url);
    const latin1 = Buffer.from('{"id":901,"document":"11.222.333/0001-81","name":"Jo\u00e3o Ltda"}', 'latin1');
    const declared = await fetch(`${started.url}/webhooks/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=iso-8859-1' },
      body: latin1,
    });
    expect(declared.status).toBe(415);
    expect(await declared.json()).toEqual({
      error: 'unsupported_media_type',
      error_description: 'The body is in iso-8859-1; send the event as JSON in UTF-8',
    });
    const undeclared = await fetch(`${started.url}/webhooks/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: latin1,
    });
    expect(undeclared.status).toBe(400);
    expect(started.onDisk()).toEqual([]);
    const withBom = await postEvent(
      started.url,
      'orders',
      '\uFEFF{"id":7,"lastUpdated":"2026-11-23T06:00:00Z"}',
      token,
    );
    expect(withBom.status).toBe(200);
    expect(started.onDisk().map((record) => record.event)).toEqual([{ id: 7, lastUpdated: '2026-11-23T06:00:00Z' }]);
  });

  it('an event 64 levels deep is taken', async () => {
    const started = await receiver();
    const answer = await postEvent(started.url, 'orders', nested(64), await receiverToken(started.url));
    expect(answer.status).toBe(200);
    expect(started.onDisk()).toHaveLength(1);
  });

  it.each(['forward', 'exec'])(
    'a stored event too deep to parse and write again (as an earlier version could store it) is handed off as it came (%s)',
    async (kind) => {
      const { store } = await storeWithADeepEvent();
      await store.openHandOff('erp', 'test', true);
      const received: string[] = [];
      const server = textServer((text, _request, response) => {
        received.push(text);
        response.writeHead(200).end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => server.close(() => resolve(undefined))));
      // The command writes what it takes to a file: its own output is logged by line, cut to a few hundred bytes.
      const taken = join(temporaryFolder(), 'taken.ndjson');
      const written = () => (existsSync(taken) ? readFileSync(taken, 'utf8') : '');
      const consumer =
        kind === 'exec'
          ? execCommand(`cat >> ${taken}`, () => undefined, 10_000)
          : forwardTo(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`);
      const handOff = new HandOff(store, 'erp', consumer, {
        clock: systemClock,
        log: () => {},
        giveUpAfterMs: 72 * 3_600_000,
        initialBackoffMs: 60_000,
        maxBackoffMs: 60_000,
        pollMs: 50,
      });
      handOff.start();
      closers.push(() => handOff.stop());
      const delivered = () => (kind === 'exec' ? written().split('\n').filter(Boolean).length : received.length);
      await until(() => delivered() >= 3, 'the three events', { deadlineMs: 30_000 });
      // The stored text goes out whole: the deep event is the 500,000-level text it was, between the other two.
      const texts = kind === 'exec' ? written().split('\n').filter(Boolean) : received;
      expect(texts[1]).toContain(nested(500_000));
      expect(await store.deadLetters()).toEqual([]);
    },
    60_000,
  );

  it.skipIf(!deepEventOverflows)(
    `webhook inbox: NDJSON shows every event as stored; -o json lists every other one, says which it could not show, and exits 1${overflowNote}`,
    async () => {
      const { directory, store } = await storeWithADeepEvent();
      await store.close();
      closers.length = 0;
      // NDJSON (piped) writes each event's text as it came: the deep one too.
      const piped = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
      await listInbox({ inbox: directory }, piped.context);
      const lines = piped.stdout().trim().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(nested(500_000));
      // -o json shows the parsed event, indented: that one cannot be written again.
      const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() }, globals: { output: 'json' } });
      const failure = (await listInbox({ inbox: directory }, memory.context).catch((error: unknown) => error)) as
        B2bctlError | undefined;
      expect(failure?.exitCode).toBe(ExitCode.someRecordsFailed);
      expect(failure?.message).toBe('1 event could not be shown (ids 2); every other one was.');
      expect((JSON.parse(memory.stdout()) as { id: number }[]).map((event) => event.id)).toEqual([1, 3]);
      expect(memory.stderr()).toContain(
        'Event 2 (orders, received 2026-11-23T06:00:02.000Z) cannot be shown: Maximum call stack size exceeded; left out.',
      );
    },
  );
});
