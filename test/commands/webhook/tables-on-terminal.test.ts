/**
 * The receiver's tables on a terminal of 60 and 80 columns, checked on the rendered screen: no row wraps, the column
 * that names a row stays whole, a long cell is cut with …, and a column left out is named on stderr.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { run as dead } from '../../../src/commands/webhook/dead.js';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { run as status } from '../../../src/commands/webhook/status.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { NewEvent } from '../../../src/webhook/store/types.js';
import { renderedScreen, wrappedLineCount } from '../../support/rendered-screen.js';
import { testContext } from '../../support/test-context.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const orderEvent = (id: number, flags: string[]): NewEvent => ({
  receivedAt: Date.parse('2026-11-23T06:00:00.000Z') + id * 60_000,
  kind: 'orders',
  deliveryId: `delivery-${id}`,
  key: `orders:${id}`,
  flags,
  clientAddress: '203.0.113.7',
  raw: JSON.stringify({ id: 48_210 + id }),
});

const longTarget = 'https://erp.example.com.br/integracoes/b2b/webhooks/pedidos';

/** An inbox of two order events, the second flagged, with a hand-off to a long URL holding one event dead. */
async function inbox(): Promise<string> {
  const directory = temporaryFolder();
  const store = await SqliteStore.open(directory);
  await store.append(orderEvent(1, []));
  await store.append(orderEvent(2, ['email missing', 'document missing', 'status unknown']));
  await store.openHandOff('forward', longTarget, true);
  const first = await store.nextForHandOff('forward');
  if (first === undefined) throw new Error('no event to hand off');
  await store.markDead('forward', first, `HTTP 502 from ${longTarget}: Bad Gateway (nginx answered an HTML page)`, 8);
  await store.close();
  return directory;
}

/** A context whose stdout and stderr are terminals `columns` wide, and what it wrote to them. */
function terminal(columns: number) {
  return testContext({
    env: { B2BCTL_CONFIG_DIR: temporaryFolder() },
    clock: { now: () => Date.parse('2026-11-23T07:00:00Z'), sleep: async () => {} },
    tty: { stdout: true, stderr: true },
    columns,
  });
}

/** What `webhook dead list` shows of the inbox above at each width: header, row, and the columns it names as left out. */
const deadListAt = {
  80: {
    deadHeader: /^ID\s+HAND-OFF\s+KIND\s+RECEIVED\s+ATTEMPTS\s+ERROR$/,
    deadRow: /^1\s+forward\s+orders\s+2026-11-23T06:01:00\.0\S*\s+8\s+HTTP 502 .*…$/,
    deadHidden: '',
  },
  60: {
    deadHeader: /^ID\s+HAND-OFF\s+RECEIVED\s+ERROR$/,
    deadRow: /^1\s+forward\s+2026-11-23T06:01:00\S*\s+HTTP 502 .*…$/,
    deadHidden: 'KIND and ATTEMPTS',
  },
};

describe('webhook tables on a terminal', () => {
  // The ids are of one digit, so the ID column is 2 wide: at 80 every column fits (a user test).
  for (const [columns, header, hidden] of [
    [80, /^ID\s+RECEIVED\s+KIND\s+EVENT\s+FROM\s+FLAGS$/, undefined],
    [60, /^ID\s+RECEIVED\s+KIND\s+EVENT\s+FLAGS$/, 'FROM hidden to fit 60 columns'],
  ] as const) {
    it(`webhook inbox at ${columns} columns: no row wraps, the flags cut with …, the columns left out named`, async () => {
      const onTerminal = terminal(columns);
      await listInbox({ inbox: await inbox() }, onTerminal.context);
      const stdout = onTerminal.stdout();
      expect(await wrappedLineCount(stdout, columns)).toBe(0);
      const screen = await renderedScreen(stdout, columns);
      expect(screen[0]).toMatch(header);
      expect(screen[1]).toMatch(/^1 {3}2026-11-23T06:01:00\.000Z\s+orders\s+48211\s+(\S+\s+)?-$/);
      expect(screen[2]).toMatch(/^2 {3}2026-11-23T06:02:00\.000Z\s+orders\s+48212\s+(\S+\s+)?emai\S*( m.*)?…$/);
      expect(screen[2]?.length).toBe(columns);
      const hiddenLine =
        hidden === undefined ? undefined : `${hidden}: widen the terminal, or -o csv or -o ndjson for every field.`;
      expect(onTerminal.stderr().includes('hidden to fit')).toBe(hiddenLine !== undefined);
      expect(onTerminal.stderr()).toContain(hiddenLine ?? '2 events in');
    });

    it(`webhook status and dead list at ${columns} columns: the hand-off and the id whole, the rest cut`, async () => {
      const directory = await inbox();
      const onTerminal = terminal(columns);
      // Its dead letter makes the backlog degraded (exit 69), after the table is written.
      await expect(status({ inbox: directory, stuckAfter: 3_600_000 }, onTerminal.context)).rejects.toThrow(
        /dead letter/,
      );
      await dead({ action: 'list', ids: [], inbox: directory }, onTerminal.context);
      const stdout = onTerminal.stdout();
      expect(await wrappedLineCount(stdout, columns)).toBe(0);
      const screen = await renderedScreen(stdout, columns);
      expect(screen[0]).toMatch(/^HAND-OFF\s+TARGET\s+PENDING\s+OLDEST PENDING\s+DEAD$/);
      expect(screen[1]).toMatch(/^forward\s+https:\/\/erp\.exampl\S*…\s+1\s+\d+ s\s+1$/);
      // At 60 the attempts and the kind are left out, and named, before the instant is cut (a user test).
      const { deadHeader, deadRow, deadHidden } = deadListAt[columns];
      expect(screen[2]).toMatch(deadHeader);
      expect(screen[3]).toMatch(deadRow);
      expect(onTerminal.stderr().includes(`${deadHidden} hidden to fit`)).toBe(deadHidden !== '');
    });
  }

  // Below 44 columns the last column was cut to what was left: `FL…` at 40, the header of the flags unreadable. At 35
  // the instant was cut (`2026-11-30T23:0…`) beside an ID column of 10 for ids of one digit (a user test).
  it.each([35, 33, 27, 19])(
    'webhook inbox at %i columns: the FLAGS header whole, the received instant gives way, no row wraps',
    async (columns) => {
      const onTerminal = terminal(columns);
      await listInbox({ inbox: await inbox() }, onTerminal.context);
      const stdout = onTerminal.stdout();
      expect(await wrappedLineCount(stdout, columns)).toBe(0);
      const screen = await renderedScreen(stdout, columns);
      expect(screen[0]).toMatch(/^ID\s+RECEIVED\s+FLAGS$/);
      expect(screen[1]).toMatch(/^1\s+2026-11\S*\s+-$/);
      expect(screen[2]).toMatch(/^2\s+2026-11\S*\s+emai\S*…$/);
      expect(screen[2]?.length).toBe(columns);
      // The instant is cut from its end, with …, only where the terminal is too narrow for all of it.
      expect(screen[1]).toContain(columns >= 35 ? '1   2026-11-23T06:01:00.000Z  -' : '…');
      expect(onTerminal.stderr()).toContain(
        `KIND, EVENT and FROM hidden to fit ${columns} columns: widen the terminal, or -o csv or -o ndjson for every field.`,
      );
    },
  );

  // At 50 columns `fetch-o…` was all `webhook dead list` and `webhook status` showed of the name `--handoff` takes.
  it('webhook status and dead list at 50 columns: a hand-off named fetch-orders stays whole, the others give way', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    await store.append(orderEvent(1, []));
    await store.openHandOff('fetch-orders', longTarget, true);
    const first = await store.nextForHandOff('fetch-orders');
    if (first === undefined) throw new Error('no event to hand off');
    await store.markDead('fetch-orders', first, 'the platform answered HTTP 404 for the order', 1);
    await store.close();
    const onTerminal = terminal(50);
    await expect(status({ inbox: directory, stuckAfter: 3_600_000 }, onTerminal.context)).rejects.toThrow(
      /dead letter/,
    );
    await dead({ action: 'list', ids: [], inbox: directory }, onTerminal.context);
    const stdout = onTerminal.stdout();
    expect(await wrappedLineCount(stdout, 50)).toBe(0);
    const screen = await renderedScreen(stdout, 50);
    expect(screen[1]).toMatch(/^fetch-orders\s/);
    expect(screen[3]).toMatch(/^1\s+fetch-orders\s/);
  });

  // At 50 columns ATTEMPTS was left out with no line saying so, and RECEIVED cut to the day while KIND kept its width.
  it('webhook dead list at 50 columns: the columns left out are named on stderr, the instant keeps its hour', async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    for (const id of [1, 2]) await store.append(orderEvent(id, []));
    await store.openHandOff('fetch-orders', longTarget, true);
    for (const error of ['the order id "" names no order the platform can be asked', 'the platform has no order 0']) {
      const next = await store.nextForHandOff('fetch-orders');
      if (next === undefined) throw new Error('no event to hand off');
      await store.markDead('fetch-orders', next, error, 1);
    }
    await store.close();
    const onTerminal = terminal(50);
    await dead({ action: 'list', ids: [], inbox: directory }, onTerminal.context);
    const stdout = onTerminal.stdout();
    expect(await wrappedLineCount(stdout, 50)).toBe(0);
    const screen = await renderedScreen(stdout, 50);
    expect(screen[0]).toMatch(/^ID\s+HAND-OFF\s+RECEIVED\s+ERROR$/);
    // Two letters of one day told apart by their time, cut from its end; the error gets its share.
    expect(screen[1]).toMatch(/^1\s+fetch-orders\s+2026-11-23T06:…\s+the order .*…$/);
    expect(screen[2]).toMatch(/^2\s+fetch-orders\s+2026-11-23T06:…\s+the platfo.*…$/);
    expect(onTerminal.stderr()).toBe(
      'KIND and ATTEMPTS hidden to fit 50 columns: widen the terminal, or -o csv or -o json for every field.\n2 dead letters.\n',
    );
  });

  it("the ID column sized once to the store's largest id, a filtered listing's too", async () => {
    const directory = temporaryFolder();
    const store = await SqliteStore.open(directory);
    await store.append(orderEvent(1, []));
    await store.append(orderEvent(2, []));
    await store.close();
    // The second event as an inbox of millions holds it: id 1234567, received after the --until below.
    const database = new DatabaseSync(join(directory, 'inbox.sqlite'));
    database.exec('UPDATE events SET id = 1234567 WHERE id = 2');
    database.close();
    const onTerminal = terminal(80);
    await listInbox({ inbox: directory, until: '2026-11-23T06:01:30Z' }, onTerminal.context);
    const screen = await renderedScreen(onTerminal.stdout(), 80);
    // 7 digits: ID and its 5 blanks, then the gap of 2; FROM left out, as 7 + 75 columns do not fit 80.
    expect(screen[0]).toMatch(/^ID {7}RECEIVED {18}KIND {7}EVENT {9}FLAGS$/);
    expect(screen[1]).toMatch(/^1 {8}2026-11-23T06:01:00\.000Z  orders/);
    expect(screen).toHaveLength(2);
    expect(onTerminal.stderr()).toContain('FROM hidden to fit 80 columns');
  });

  it('piped as a table, every column and cell stays whole', async () => {
    const piped = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() }, globals: { output: 'table' } });
    await listInbox({ inbox: await inbox() }, piped.context);
    expect(piped.stdout()).toContain('203.0.113.7      email missing; document missing; status unknown\n');
  });
});
