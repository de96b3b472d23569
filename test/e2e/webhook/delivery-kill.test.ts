import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import {
  postEvent,
  receiverToken,
  removeReceiverFolders,
  type SpawnedReceiver,
  spawnReceiver,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));

/**
 * An ERP that takes every event and keeps what it got, in arrival order: the store id and the order's own id; and
 * the order ids as a set, kept as they arrive, so a wait asks "delivered?" per event without rebuilding it.
 */
async function recordingErp() {
  const received: { storeId: number; orderId: number }[] = [];
  const orderIds = new Set<number>();
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const delivered = JSON.parse(body) as { id: number; event: { id: number } };
      received.push({ storeId: delivered.id, orderId: delivered.event.id });
      orderIds.add(delivered.event.id);
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/erp`;
  return { url, received, orderIds, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Waits for `condition`, for as long as the ERP keeps receiving: a busy machine delivers slowly, but a receiver that
 * delivers nothing for a minute is stuck (or has lost its events), and that fails the test.
 */
async function until(condition: () => boolean, what: () => string, progress: () => number): Promise<void> {
  let seen = progress();
  let stalledSince = Date.now();
  while (!condition()) {
    if (progress() !== seen) {
      seen = progress();
      stalledSince = Date.now();
    } else if (Date.now() - stalledSince > 60_000)
      throw new Error(`gave up waiting, nothing delivered for 60 s: ${what()}`);
    // A poll costs the CPU the receiver it waits for needs (two cores, a loaded machine): not more often than this.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook listen --forward-to killed while it delivers (built binary)', () => {
  it(
    'delivers every acknowledged event after a SIGKILL, in store order, repeating at most the unrecorded groups',
    // The waits fail on a stall, not on time (a loaded machine delivers slowly); this bounds the whole test.
    { timeout: 900_000 },
    async () => {
      const erp = await recordingErp();
      const inbox = temporaryFolder();
      const receivers: SpawnedReceiver[] = [];
      const receiver = async () => {
        const started = await spawnReceiver(['--inbox', inbox, '--forward-to', erp.url]);
        receivers.push(started);
        return started;
      };
      const stopReceivers = () => {
        for (const each of receivers)
          if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill('SIGKILL');
      };
      // A timeout does not stop this function (its finally would not run): the receivers go when the test ends too.
      onTestFinished(stopReceivers);
      try {
        const first = await receiver();
        const token = await receiverToken(first.url);
        const acknowledged: number[] = [];
        let next = 1;
        // Intake goes on while the hand-off delivers and records its position; the kill lands amid both.
        const sender = async () => {
          while (next <= 3000) {
            const id = next++;
            try {
              const answer = await postEvent(first.url, 'orders', { ...order, id }, token);
              if (answer.status === 200) acknowledged.push(id);
            } catch {
              return; // killed: this event was never acknowledged
            }
          }
        };
        const sending = Promise.all(Array.from({ length: 16 }, sender));
        await until(
          () => erp.received.length >= 700,
          () => `${erp.received.length} delivered before the kill`,
          () => erp.received.length,
        );
        first.child.kill('SIGKILL');
        await sending;
        expect((await first.done).signal).toBe('SIGKILL');
        const beforeKill = erp.received.length;

        const second = await receiver();
        await until(
          () => acknowledged.every((id) => erp.orderIds.has(id)),
          () => `${acknowledged.filter((id) => !erp.orderIds.has(id)).length} acknowledged events not delivered`,
          () => erp.received.length,
        );
        second.child.kill('SIGTERM');
        expect((await second.done).code).toBe(0);

        const storeIds = erp.received.map((each) => each.storeId);
        // Before the kill: each stored event once, in store order, none skipped.
        const firstStoreId = storeIds[0] as number;
        expect(storeIds.slice(0, beforeKill)).toEqual(
          Array.from({ length: beforeKill }, (_, index) => firstStoreId + index),
        );
        // After it: from at most the event after the last one delivered, again in order, none skipped; what it
        // repeats is what was delivered and not yet recorded (the group being recorded and the one being delivered,
        // 100 each at most) and the one in flight.
        const resumedAt = storeIds[beforeKill] as number;
        const lastBeforeKill = storeIds[beforeKill - 1] as number;
        expect(resumedAt).toBeLessThanOrEqual(lastBeforeKill + 1);
        expect(lastBeforeKill + 1 - resumedAt).toBeLessThanOrEqual(201);
        const after = storeIds.slice(beforeKill);
        expect(after).toEqual(Array.from({ length: after.length }, (_, index) => resumedAt + index));
        expect(acknowledged.length).toBeGreaterThanOrEqual(700);
      } finally {
        // A failed wait leaves a receiver running: it goes before the ERP it may still be sending to.
        stopReceivers();
        await erp.close();
      }
    },
  );
});
