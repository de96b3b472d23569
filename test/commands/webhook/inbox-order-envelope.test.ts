/**
 * `webhook inbox` shows an orders event's order where the receiver reads it (its key, --fetch-orders): at the root, or
 * in an `order` or `data` envelope (a user test). An operator looking for order 6 finds it in the table and the CSV.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { renderedScreen } from '../../support/rendered-screen.js';
import { runCommandLine } from '../../support/command-line.js';
import { testContext } from '../../support/test-context.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const order = (id: number, items: unknown[]) => ({
  id,
  orderId: 100_000 + id,
  status: 'INVOICED',
  lastUpdated: '2026-11-30T23:13:11.000Z',
  items,
});

/** Three orders events: one in an `order` envelope, one in `data` with no lines, one at the root. */
async function inbox(): Promise<string> {
  const directory = temporaryFolder();
  const store = await SqliteStore.open(directory);
  const payloads = [
    { order: order(6, [{ sku: 'B', qty: 1 }]) },
    { requestId: 'r-7', data: order(7, []) },
    order(8, [{ sku: 'C', qty: 2 }]),
  ];
  for (const [index, payload] of payloads.entries())
    await store.append({
      receivedAt: Date.parse('2026-11-30T23:13:11.785Z') + index,
      kind: 'orders',
      deliveryId: `delivery-${index}`,
      key: `orders:${index}`,
      flags: [],
      clientAddress: '127.0.0.1',
      raw: JSON.stringify(payload),
    });
  await store.close();
  return directory;
}

describe('webhook inbox reads an orders event in an envelope (a user test)', () => {
  it('the table on a terminal: EVENT is the order id, wherever the event holds the order', async () => {
    const onTerminal = testContext({
      env: { B2BCTL_CONFIG_DIR: temporaryFolder() },
      tty: { stdout: true, stderr: true },
      columns: 120,
    });
    await listInbox({ inbox: await inbox() }, onTerminal.context);
    const screen = await renderedScreen(onTerminal.stdout(), 120);
    expect(screen[0]).toMatch(/^ID\s+RECEIVED\s+KIND\s+EVENT\s+FROM\s+FLAGS$/);
    expect(screen.slice(1, 4).map((row) => row.split(/\s+/)[3])).toEqual(['6', '7', '8']);
  });

  it("-o csv: event.id, event.status and event.lastUpdated are the order's", async () => {
    const listed = await runCommandLine(['webhook', 'inbox', '--inbox', await inbox(), '-o', 'csv'], {
      configDir: temporaryFolder(),
    });
    expect(listed.code).toBe(0);
    const rows = listed.stdout.trim().split(/\r?\n/);
    expect(rows[0]).toBe(
      'id,receivedAt,kind,deliveryId,clientAddress,event.id,event.document,event.status,event.lastUpdated,flags',
    );
    expect(rows.slice(1).map((row) => row.split(',').slice(5, 9))).toEqual(
      ['6', '7', '8'].map((id) => [id, '', 'INVOICED', '2026-11-30T23:13:11.000Z']),
    );
  });

  it('-o json keeps the event whole, envelope and all', async () => {
    const listed = await runCommandLine(['webhook', 'inbox', '--inbox', await inbox(), '-o', 'json'], {
      configDir: temporaryFolder(),
    });
    const events = JSON.parse(listed.stdout) as { event: unknown }[];
    expect(events[0]?.event).toEqual({ order: order(6, [{ sku: 'B', qty: 1 }]) });
  });
});
