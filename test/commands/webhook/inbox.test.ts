import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/base/clock.js';
import { run as dead } from '../../../src/commands/webhook/dead.js';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { run as replay } from '../../../src/commands/webhook/replay.js';
import { ExitCode, type B2bctlError } from '../../../src/base/errors.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { NewEvent, StoredEvent } from '../../../src/webhook/store/types.js';
import { oldInboxLine, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeReceiverFolders);

/** Sleeps take no time and are counted, so back-off is checked without waiting. */
function instantClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => Date.parse('2026-11-23T07:00:00Z'), sleep: async (ms) => void sleeps.push(ms) };
}

const event = (kind: 'customers' | 'orders', id: number, receivedAt: string): NewEvent => ({
  receivedAt: Date.parse(receivedAt),
  kind,
  deliveryId: `delivery-${id}`,
  key: `${kind}:${id}`,
  flags: id === 2 ? ['email missing'] : [],
  clientAddress: '203.0.113.7',
  raw: JSON.stringify({ id }),
});

const events = [
  event('customers', 1, '2026-11-23T06:00:00.000Z'),
  event('customers', 2, '2026-11-23T06:10:00.000Z'),
  event('orders', 3, '2026-11-23T06:20:00.000Z'),
];

async function inboxWith(stored: NewEvent[], prepare?: (store: SqliteStore) => Promise<void>): Promise<string> {
  const directory = temporaryFolder();
  const store = await SqliteStore.open(directory);
  for (const item of stored) await store.append(item);
  await prepare?.(store);
  await store.close();
  return directory;
}

function context(clock?: Clock, tty = false) {
  return testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() }, clock, tty: { stdout: tty } });
}

describe('webhook inbox', () => {
  it('writes each event on one NDJSON line, a pretty-printed one or one ending in a newline too, its values as sent', async () => {
    const pretty = '{\n  "id": 18014398509481985,\n  "status": "NEW",\n  "note": "a\\nb"\n}\n';
    const inbox = await inboxWith([{ ...event('orders', 7, '2026-11-23T06:00:00.000Z'), raw: pretty }]);
    const piped = context();
    await listInbox({ inbox }, piped.context);
    const lines = piped
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"event":{   "id": 18014398509481985,   "status": "NEW",   "note": "a\\nb" }}');
    expect((JSON.parse(lines[0] as string) as { event: unknown }).event).toEqual(JSON.parse(pretty));
  });

  it('shows an id past 2^53 and a 19-digit EAN with their digits in -o json, -o csv and the table', async () => {
    // As a platform on Java longs sends them (a user test): parsed as doubles, order …985 showed as …984.
    const raw =
      '{"id":18014398509481985,"status":"PAID","items":[{"ean":7891234567890123456,"price":10.50}],"total":0.10000000000000000001}';
    const inbox = await inboxWith([{ ...event('orders', 7, '2026-11-23T06:00:00.000Z'), raw }]);
    const shownAs = async (output: 'json' | 'csv' | 'table') => {
      const memory = testContext({
        env: { B2BCTL_CONFIG_DIR: temporaryFolder() },
        globals: { output },
        tty: { stdout: output === 'table' },
      });
      await listInbox({ inbox }, memory.context);
      return memory.stdout();
    };
    const json = await shownAs('json');
    expect(json).toContain('"id": 18014398509481985');
    expect(json).toContain('"ean": 7891234567890123456');
    expect(json).toContain('"total": 0.10000000000000000001');
    expect(json).not.toContain('18014398509481984');
    const csv = await shownAs('csv');
    expect(csv).toContain(',18014398509481985,');
    expect(csv).not.toContain('18014398509481984');
    expect(await shownAs('table')).toMatch(/ 18014398509481985 /);
  });

  it('lists with --kind, --since and --until, as a table on a terminal and ndjson when piped', async () => {
    const inbox = await inboxWith(events);
    const onTerminal = context(undefined, true);
    await listInbox({ inbox, kind: 'customers' }, onTerminal.context);
    expect(
      onTerminal
        .stdout()
        .split('\n')
        .map((line) => line.trimEnd()),
    ).toEqual([
      'ID  RECEIVED                  KIND       EVENT         FROM             FLAGS',
      '1   2026-11-23T06:00:00.000Z  customers  1             203.0.113.7      -',
      '2   2026-11-23T06:10:00.000Z  customers  2             203.0.113.7      email missing',
      '',
    ]);
    const piped = context();
    await listInbox({ inbox, since: '2026-11-23T06:10:00Z', until: '2026-11-23T06:20:00Z' }, piped.context);
    expect(
      piped
        .stdout()
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as StoredEvent).deliveryId),
    ).toEqual(['delivery-2']);
    expect(piped.stderr()).toContain('1 event in SQLite ');
    // Swapped, they would choose nothing and say "0 events", as if the inbox were empty.
    const swapped = context();
    await expect(
      listInbox({ inbox, since: '2026-11-23T06:20:00Z', until: '2026-11-23T06:10:00Z' }, swapped.context),
    ).rejects.toThrow(
      '--since 2026-11-23T06:20:00Z is not before --until 2026-11-23T06:10:00Z: no event could be chosen; swap them.',
    );
    expect(swapped.stdout()).toBe('');
  });

  it('marks what is pending and what is dead for the hand-offs', async () => {
    const inbox = await inboxWith(events, async (store) => {
      await store.openHandOff('forward', 'http://erp/hook', true);
      const [first, second] = await collect(store);
      await store.markDelivered('forward', first as StoredEvent);
      await store.markDead('forward', second as StoredEvent, 'HTTP 422: bad document', 1);
    });
    const pending = context();
    await listInbox({ inbox, pending: true }, pending.context);
    expect(ids(pending.stdout())).toEqual([3]);
    const deadOnes = context();
    await listInbox({ inbox, dead: true }, deadOnes.context);
    expect(ids(deadOnes.stdout())).toEqual([2]);
    const listed = context();
    await dead({ action: 'list', ids: [], inbox }, listed.context);
    // Piped, one JSON array, as the global -o says (NDJSON is -o ndjson).
    expect(JSON.parse(listed.stdout())).toMatchObject([
      { eventId: 2, handOff: 'forward', error: 'HTTP 422: bad document' },
    ]);
    const unknown = context();
    const failure = (await dead({ action: 'drop', ids: [99], inbox }, unknown.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.message).toBe('No dead letter with id 99; see webhook dead list.');
    // A typed id among real ones: the real ones are acted on, the other named, and the exit is not 0.
    const mixed = context();
    const partly = (await dead({ action: 'retry', ids: [2, 99], inbox }, mixed.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(mixed.stderr()).toContain('1 dead letter queued');
    expect(partly.message).toBe('No dead letter with id 99: left alone, the rest queued; see webhook dead list.');
    expect(partly.exitCode).toBe(1);
    const dropped = context();
    await dead({ action: 'drop', ids: [2], inbox }, dropped.context);
    expect(dropped.stderr()).toContain('1 dead letter dropped');
  });

  it('pages the terminal table past 110,000 rows without exhausting the stack', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    store.insertMany(
      (function* () {
        for (let id = 1; id <= 120_000; id++) yield event('orders', id + 10, '2026-11-23T06:00:00.000Z');
      })(),
    );
    await store.close();
    const onTerminal = context(undefined, true);
    await listInbox({ inbox: directory }, onTerminal.context);
    expect(onTerminal.stderr()).toContain('120000 events in SQLite');
    expect(
      onTerminal
        .stdout()
        .split('\n')
        .filter((line) => /^\d+ /.test(line)),
    ).toHaveLength(120_000);
  });

  it('prints the table with fixed widths and one header per screen page, whatever the row count', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    store.insertMany(
      (function* () {
        for (let id = 1; id <= 1200; id++) yield event('orders', id, '2026-11-23T06:00:00.000Z');
      })(),
    );
    await store.close();
    // The ID column as wide as the largest id's 4 digits, sized before the first row.
    const header = /^ID {4}RECEIVED {18}KIND {7}EVENT {9}FROM {13}FLAGS$/;
    const piped = context(undefined, true);
    await listInbox({ inbox: directory }, piped.context);
    const lines = piped.stdout().trimEnd().split('\n');
    expect(lines.filter((line) => header.test(line))).toHaveLength(1);
    // Every row's columns start where the header's do: ids of one digit and of four alike.
    expect(lines.slice(1).every((line) => line.indexOf('2026-') === 6 && line.indexOf('orders') === 32)).toBe(true);

    const screen = context(undefined, true);
    Object.assign(screen.context.io.stdout, { rows: 25 });
    await listInbox({ inbox: directory }, screen.context);
    const paged = screen.stdout().trimEnd().split('\n');
    expect(paged.filter((line) => header.test(line))).toHaveLength(50);
    expect(paged.filter((_line, index) => index % 25 === 0).every((line) => header.test(line))).toBe(true);
  });

  it('exits 66 naming the folder when there is no inbox', async () => {
    const memory = context();
    const missing = temporaryFolder();
    const failure = (await listInbox({ inbox: missing }, memory.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.inputMissing);
    expect(failure.message).toBe(
      `No webhook inbox in ${missing} (no inbox.sqlite); pass the folder of webhook listen's --inbox, or --store postgres://... .`,
    );
  });
});

async function collect(store: SqliteStore): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for await (const item of store.select({})) all.push(item);
  return all;
}

function ids(ndjson: string): number[] {
  return ndjson
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as StoredEvent).id);
}

async function erpServer(fail: (deliveryId: string, request: number) => boolean) {
  const taken: string[] = [];
  let requests = 0;
  const erp = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      // An array is one event sent as --forward-batch sends it.
      const parsed = JSON.parse(body) as StoredEvent | StoredEvent[];
      const deliveryId = Array.isArray(parsed)
        ? `[${parsed.map((each) => each.deliveryId).join()}]`
        : parsed.deliveryId;
      if (fail(deliveryId, ++requests)) return void response.writeHead(503).end();
      taken.push(deliveryId);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
  const to = `http://127.0.0.1:${(erp.address() as { port: number }).port}/hook`;
  return { taken, to, close: () => new Promise((resolve) => erp.close(resolve)) };
}

describe('webhook replay', () => {
  it('re-delivers by id, in order, retrying a failed attempt; exit 1 naming what could not be delivered', async () => {
    const inbox = await inboxWith(events);
    const erp = await erpServer((deliveryId, request) => request % 2 === 1 || deliveryId === 'delivery-3');
    const clock = instantClock();
    const memory = context(clock);
    const failure = (await replay(
      { inbox, to: erp.to, id: [3, 1], attempts: 3, execTimeout: 60_000 },
      memory.context,
    ).catch((error: unknown) => error)) as B2bctlError;
    await erp.close();
    expect(erp.taken).toEqual(['delivery-1']);
    // The receiver's waits: doubling from 0.5 s, each drawn between half its step and the step; the next event
    // starts again at 0.5 s.
    const steps = [500, 500, 1000];
    expect(clock.sleeps).toHaveLength(steps.length);
    for (const [index, ms] of clock.sleeps.entries()) {
      expect(ms).toBeGreaterThanOrEqual((steps[index] ?? 0) * 0.5);
      expect(ms).toBeLessThanOrEqual(steps[index] ?? 0);
    }
    expect(failure.exitCode).toBe(ExitCode.someRecordsFailed);
    expect(failure.message).toBe('1 event could not be re-delivered; replay them again with --id (ids above).');
    expect(memory.stderr()).toContain(
      `orders event 3 (received 2026-11-23T06:20:00.000Z): ${erp.to} failed: HTTP 503.`,
    );
  });

  it('--exec: a command that exits 0 leaving a background child on its output is replayed once, exit 0', async () => {
    const inbox = await inboxWith(events);
    const runs = join(temporaryFolder(), 'runs');
    // A user test: the helper kept the pipes open, and the command was timed out and run three times.
    const exec = `cat > /dev/null; echo "$B2BCTL_EVENT_ID" >> ${runs}; sleep 300 & exit 0`;
    const memory = context(instantClock());
    await replay({ inbox, exec, id: [2], attempts: 3, execTimeout: 5_000 }, memory.context);
    expect(readFileSync(runs, 'utf8')).toBe('2\n');
    expect(memory.stderr()).not.toContain('timed out');
    expect(memory.stderr()).toMatch(/Replayed 1 event/);
  });

  it('names its own flag, --to, when the URL cannot be reached', async () => {
    const inbox = await inboxWith(events);
    const closed = await erpServer(() => false);
    await closed.close();
    const memory = context(instantClock());
    const failure = await replay(
      { inbox, to: closed.to, id: [1], attempts: 1, execTimeout: 60_000 },
      memory.context,
    ).catch((error: unknown) => error);
    expect((failure as B2bctlError).exitCode).toBe(ExitCode.someRecordsFailed);
    expect(memory.stderr()).toContain(`${closed.to} failed: nothing listens at`);
    expect(memory.stderr()).toContain('(ECONNREFUSED); check --to and that the server runs.');
    expect(memory.stderr()).not.toContain('--forward-to');
  });

  it('sends each event as an array of one to an ERP that takes arrays (--forward-batch)', async () => {
    const inbox = await inboxWith(events);
    const erp = await erpServer(() => false);
    const memory = context(instantClock());
    await replay({ inbox, to: erp.to, id: [1, 3], forwardBatch: 8, attempts: 1, execTimeout: 60_000 }, memory.context);
    await erp.close();
    expect(erp.taken).toEqual(['[delivery-1]', '[delivery-3]']);
  });

  it('an --id that chose nothing is named, exit 1, after the others are delivered', async () => {
    const inbox = await inboxWith(events);
    const erp = await erpServer(() => false);
    const memory = context(instantClock());
    const failure = (await replay(
      { inbox, to: erp.to, id: [2, 999], attempts: 1, execTimeout: 60_000 },
      memory.context,
    ).catch((error: unknown) => error)) as B2bctlError;
    const narrowed = context(instantClock());
    const left = (await replay(
      { inbox, to: erp.to, id: [1], kind: 'orders', attempts: 1, execTimeout: 60_000 },
      narrowed.context,
    ).catch((error: unknown) => error)) as B2bctlError;
    await erp.close();
    expect(erp.taken).toEqual(['delivery-2']);
    expect(memory.stderr()).toContain('Replayed 1 event');
    expect(failure.exitCode).toBe(ExitCode.someRecordsFailed);
    expect(failure.message).toBe(
      'No event with id 999 was replayed: not in the store (or removed by --retain); see webhook inbox.',
    );
    expect(left.message).toBe(
      'No event with id 1 was replayed: not in the store (or removed by --retain), or left out by --kind, --since, --until or --dead; see webhook inbox.',
    );
  });

  it('an --id that chose nothing is named beside an event that failed, in the one error line, exit 1', async () => {
    const inbox = await inboxWith(events);
    const erp = await erpServer(() => true);
    const memory = context(instantClock());
    const failure = (await replay(
      { inbox, to: erp.to, id: [2, 424242], attempts: 1, execTimeout: 60_000 },
      memory.context,
    ).catch((error: unknown) => error)) as B2bctlError;
    await erp.close();
    expect(erp.taken).toEqual([]);
    expect(memory.stderr()).toContain('customers event 2 (received 2026-11-23T06:10:00.000Z)');
    expect(failure.exitCode).toBe(ExitCode.someRecordsFailed);
    expect(failure.message).toBe(
      '1 event could not be re-delivered; replay them again with --id (ids above). No event with id 424242 was replayed: not in the store (or removed by --retain); see webhook inbox.',
    );
  });

  it('re-delivers a time window with --since and --until', async () => {
    const inbox = await inboxWith(events);
    const erp = await erpServer(() => false);
    const memory = context(instantClock());
    await replay(
      {
        inbox,
        to: erp.to,
        since: '2026-11-23T06:05:00Z',
        until: '2026-11-23T06:20:00Z',
        attempts: 1,
        execTimeout: 60_000,
      },
      memory.context,
    );
    await erp.close();
    expect(erp.taken).toEqual(['delivery-2']);
  });
});

describe('webhook inbox --import', () => {
  it('a line that is not a whole record is not "already there": exit 1 naming its line, the file left in place', async () => {
    const old = temporaryFolder();
    const file = join(old, 'events.ndjson');
    const noArrival = JSON.stringify({ ...JSON.parse(oldInboxLine(3)), receivedAt: undefined });
    const badKind = JSON.stringify({ ...JSON.parse(oldInboxLine(4)), kind: 'bogus' });
    writeFileSync(file, `${oldInboxLine(1)}\n${noArrival}\n${badKind}\n${oldInboxLine(2)}\n`);
    const inbox = temporaryFolder();
    const failure = (await listInbox({ inbox, import: old }, context().context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.someRecordsFailed);
    expect(failure.message).toContain('0 already there, 2 unreadable lines skipped (line 2, 3).');
    expect(failure.message).toContain(`${file} stays where it is.`);
    expect(existsSync(file)).toBe(true);
    const listed = context();
    await listInbox({ inbox }, listed.context);
    expect(ids(listed.stdout())).toEqual([1, 2]);
  });

  // A user test: a `null` line stopped the import half-way with JavaScript's own error, the file neither imported nor kept.
  it('a line of JSON that is no object (null, a number, a list, a text) is unreadable as a torn one: exit 1 naming its line', async () => {
    const old = temporaryFolder();
    const file = join(old, 'events.ndjson');
    writeFileSync(file, `${oldInboxLine(1)}\nnull\n42\n[]\n"text"\n${oldInboxLine(2)}\n`);
    const inbox = temporaryFolder();
    const failure = (await listInbox({ inbox, import: old }, context().context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.someRecordsFailed);
    expect(failure.message).toContain(
      `Imported 2 events from ${file} into SQLite ${join(inbox, 'inbox.sqlite')}; 0 already there, 4 unreadable lines skipped (line 2, 3, 4, 5). ${file} stays where it is.`,
    );
    expect(failure.message).toContain('not a JSON object');
    expect(failure.message).toContain('fix them and import the file again');
    expect(existsSync(file)).toBe(true);
    const listed = context();
    await listInbox({ inbox }, listed.context);
    expect(ids(listed.stdout())).toEqual([1, 2]);
  });

  it("keeps an event id past 2^53 as the line wrote it, and never renames over an earlier import's copy", async () => {
    const old = temporaryFolder();
    const file = join(old, 'events.ndjson');
    const line = `{"receivedAt":"2026-11-01T10:00:02.000Z","kind":"orders","deliveryId":"d-3","key":"orders:18014398509481985:x","flags":[],"event":{"id":18014398509481985,"status":"NEW"}}`;
    writeFileSync(`${file}.imported`, 'an earlier import\n');
    writeFileSync(file, `${line}\n`);
    const inbox = temporaryFolder();
    await listInbox({ inbox, import: old }, context().context);
    expect(readFileSync(`${file}.imported`, 'utf8')).toBe('an earlier import\n');
    expect(readFileSync(`${file}.imported-2`, 'utf8')).toBe(`${line}\n`);
    const listed = context();
    await listInbox({ inbox }, listed.context);
    expect(listed.stdout()).toContain('"event":{"id":18014398509481985,"status":"NEW"}');
  });

  it.each([
    [{ kind: 'orders' as const }, '--import works on the whole store, alone: --kind would not apply.'],
    [{ compact: true }, '--import works on the whole store, alone: --compact would not apply.'],
  ])('--import with %j is a usage error', async (extra, message) => {
    await expect(listInbox({ import: temporaryFolder(), ...extra }, context().context)).rejects.toThrow(message);
  });

  it('takes an old NDJSON inbox into the store once, then renames it; a folder without one exits 66', async () => {
    const old = temporaryFolder();
    const lines = [1, 2].map(oldInboxLine);
    writeFileSync(join(old, 'events.ndjson'), `${lines.join('\n')}\n{"receivedAt":"2026-11-23T06:00:03.000Z","ki`);
    const inbox = temporaryFolder();
    const memory = context();
    await listInbox({ inbox, import: old }, memory.context);
    expect(memory.stderr()).toContain(
      `Imported 2 events from ${join(old, 'events.ndjson')} into SQLite ${join(inbox, 'inbox.sqlite')}; 0 already there, 1 unreadable line skipped (line 3). ${join(old, 'events.ndjson')} is now ${join(old, 'events.ndjson')}.imported.`,
    );
    expect(existsSync(join(old, 'events.ndjson.imported'))).toBe(true);
    const listed = context();
    await listInbox({ inbox }, listed.context);
    expect(ids(listed.stdout())).toEqual([1, 2]);
    const again = (await listInbox({ inbox, import: old }, context().context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(again.exitCode).toBe(ExitCode.inputMissing);
    expect(again.message).toBe(
      `No NDJSON inbox at ${join(old, 'events.ndjson')}; pass the folder an earlier webhook listen wrote events.ndjson in.`,
    );
  });
});
