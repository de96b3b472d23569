import { createServer } from 'node:http';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { requireThat } from '../../support/external-tools.js';
import { postgresBin, startPostgres, type TestPostgres } from '../../support/postgres.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import {
  postEvent,
  receiverToken,
  type SpawnedReceiver,
  spawnReceiver,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));
let database: TestPostgres | undefined;
const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);

beforeAll(async () => {
  if (!postgres.missing) database = await startPostgres();
}, 120_000);
afterAll(() => {
  database?.stop();
  removeTemporaryFolders();
});

/** An ERP endpoint recording every delivery it takes: the event's id and its delivery id. */
async function erp() {
  const deliveries: { id: number; deliveryId: string }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const event = JSON.parse(body) as { deliveryId: string; event: { id: number } };
      deliveries.push({ id: event.event.id, deliveryId: event.deliveryId });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/erp`,
    deliveries,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function receiverOn(store: string, forwardTo: string): Promise<SpawnedReceiver> {
  return spawnReceiver(['--inbox', temporaryFolder(), '--store', store, '--forward-to', forwardTo, '--from-start']);
}

describe.skipIf(postgres.missing)(`two receivers on one PostgreSQL store${postgres.note}`, () => {
  it(
    'store each acknowledged event once and deliver it once, in order, when one receiver is SIGKILLed mid-way',
    { timeout: 180_000 },
    async () => {
      const url = (database as TestPostgres).url;
      const target = await erp();
      const receivers = [await receiverOn(url, target.url), await receiverOn(url, target.url)];
      // One token, from the first receiver, for both: the balancer may send the event to either.
      const token = await receiverToken((receivers[0] as { url: string }).url);
      const tokens = [token, token];
      const acknowledged = new Set<number>();
      const total = 1200;
      let next = 1;
      // Round robin over both receivers, 16 senders at a time; the platform resends each event to both at times.
      const sender = async () => {
        while (next <= total) {
          const id = next++;
          if (id === total / 2) receivers[0]?.child.kill('SIGKILL');
          const index = id % 2;
          try {
            const answer = await postEvent(
              (receivers[index] as { url: string }).url,
              'orders',
              { ...order, id },
              tokens[index],
            );
            if (answer.status === 200) acknowledged.add(id);
          } catch {
            // The killed receiver: never acknowledged.
          }
          if (id % 10 === 0) {
            // A redelivery through the other receiver: stored once whichever receiver gets it.
            await postEvent((receivers[1] as { url: string }).url, 'orders', { ...order, id }, tokens[1]).catch(
              () => undefined,
            );
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, sender));
      expect((await (receivers[0] as SpawnedReceiver).done).signal).toBe('SIGKILL');
      expect(acknowledged.size).toBeGreaterThan(total / 2);

      const client = new Client({ connectionString: url });
      await client.connect();
      const rows = (await client.query<{ id: string; event: string }>('SELECT id, event FROM events ORDER BY id')).rows;
      const storedIds = rows.map((row) => (JSON.parse(row.event) as { id: number }).id);
      expect(new Set(storedIds).size).toBe(storedIds.length); // each stored once
      for (const id of acknowledged) expect(storedIds).toContain(id);

      // The survivor takes over the hand-off once the killed receiver's session (and its lock) is gone.
      const deadline = Date.now() + 60_000;
      while (new Set(target.deliveries.map((delivery) => delivery.id)).size < storedIds.length && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const deliveredIds = target.deliveries.map((delivery) => delivery.id);
      expect(new Set(deliveredIds)).toEqual(new Set(storedIds));
      // In store order; at least once: what the killed receiver delivered after its last group commit (at most 100
      // events, or 100 ms worth) is repeated by the survivor, once, as one run in store order.
      const firstDeliveries = deliveredIds.filter((id, index) => deliveredIds.indexOf(id) === index);
      expect(firstDeliveries).toEqual(storedIds);
      const repeats = deliveredIds.filter((id, index) => deliveredIds.indexOf(id) !== index);
      expect(repeats.length).toBeLessThanOrEqual(100);
      expect(new Set(repeats).size).toBe(repeats.length);
      const runStart = storedIds.indexOf(repeats[0] as number);
      expect(repeats).toEqual(repeats.length === 0 ? [] : storedIds.slice(runStart, runStart + repeats.length));
      // The survivor records its last group of deliveries within its 100 ms.
      const position = async () =>
        Number(
          (await client.query<{ position: string }>("SELECT position FROM handoffs WHERE name = 'forward'")).rows[0]
            ?.position,
        );
      const recordedBy = Date.now() + 10_000;
      while ((await position()) !== Number(rows.at(-1)?.id) && Date.now() < recordedBy)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await position()).toBe(Number(rows.at(-1)?.id));
      await client.end();

      receivers[1]?.child.kill('SIGTERM');
      expect((await (receivers[1] as SpawnedReceiver).done).code).toBe(0);
      await target.close();
    },
  );
});
