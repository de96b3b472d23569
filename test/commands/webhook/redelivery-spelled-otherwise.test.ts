/**
 * A redelivery of one order version whose id or `lastUpdated` is written otherwise than its first send (a panel's
 * resend serialising the instant in another form, an id as padded text) is a duplicate: answered 200 "duplicate", not
 * stored, not handed to the ERP again (a user test). An inbox keeps the keys an earlier b2bctl stored (the texts as
 * written) for the dedup window: a redelivery of an event stored before the upgrade is still recognised by them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { until } from '../../support/until.js';
import {
  listenInProcess,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const version = (id: unknown, lastUpdated: string) => ({
  id,
  orderId: 100_077,
  status: 'AWAITING_PAYMENT',
  lastUpdated,
});

/** A receiver forwarding to a stand-in ERP, sent `events` in turn: each answer's status, and what the ERP got. */
async function sent(events: unknown[], inbox = temporaryFolder()) {
  const erp = await standInErp();
  try {
    const { url, stop } = await listenInProcess(inbox, { forwardTo: erp.url, fromStart: true });
    const token = await receiverToken(url);
    const answers: string[] = [];
    for (const event of events)
      answers.push(((await (await postEvent(url, 'orders', event, token)).json()) as { status: string }).status);
    // A last, new event: once the ERP has it, every event before it was handed off.
    await postEvent(url, 'orders', version(999, '2026-12-01T00:00:00Z'), token);
    await until(() => erp.received.some((request) => request.body.includes('"id":999')));
    await stop();
    const forwarded = erp.received.map((request) => (JSON.parse(request.body) as { event: { id: unknown } }).event.id);
    return { answers, forwarded: forwarded.slice(0, -1) };
  } finally {
    await erp.close();
  }
}

describe('a redelivery written otherwise is a duplicate', () => {
  it('one instant as .000Z, as Z and at -03:00: stored once, handed to the ERP once', async () => {
    const { answers, forwarded } = await sent([
      version('77', '2026-11-30T23:00:00.000Z'),
      version(77, '2026-11-30T23:00:00.000Z'),
      version(77, '2026-11-30T20:00:00-03:00'),
      version(77, '2026-11-30T23:00:00Z'),
    ]);
    expect(answers).toEqual(['stored', 'duplicate', 'duplicate', 'duplicate']);
    expect(forwarded).toEqual(['77']);
  });

  it('"00042" then 42: one order, stored once', async () => {
    const { answers, forwarded } = await sent([
      version('00042', '2026-11-30T23:00:00Z'),
      version(42, '2026-11-30T23:00:00Z'),
    ]);
    expect(answers).toEqual(['stored', 'duplicate']);
    expect(forwarded).toEqual(['00042']);
  });

  it('a later version is still a new event', async () => {
    const { answers } = await sent([version(77, '2026-11-30T23:00:00Z'), version(77, '2026-11-30T23:00:00.001Z')]);
    expect(answers).toEqual(['stored', 'stored']);
  });

  it('an inbox holding the key an earlier b2bctl stored (the stamp and id as written): their redelivery is a duplicate', async () => {
    const inbox = temporaryFolder();
    const store = await SqliteStore.open(inbox);
    for (const [index, key] of ['orders:77:2026-11-30T20:00:00-03:00', 'orders:00042:2026-11-30T23:00:00Z'].entries())
      await store.append({
        receivedAt: Date.parse('2026-11-30T23:00:01Z'),
        kind: 'orders',
        deliveryId: `before-${index}`,
        key,
        flags: [],
        clientAddress: '127.0.0.1',
        raw: '{}',
      });
    await store.close();
    const { answers } = await sent(
      [version(77, '2026-11-30T20:00:00-03:00'), version('00042', '2026-11-30T23:00:00Z')],
      inbox,
    );
    expect(answers).toEqual(['duplicate', 'duplicate']);
  });
});

/** An orders event of order `id`. */
const event = (id: number, status: string, lastUpdated: string) => ({
  id,
  orderId: 100_000 + id,
  status,
  lastUpdated,
});

describe('under a stamp to the minute or second, a change of the order is a new event (a user test)', () => {
  it('created then canceled within one stamp: both stored and handed to the ERP; a resend of either a duplicate', async () => {
    const { answers, forwarded } = await sent([
      event(2, 'AWAITING_PAYMENT', '2026-12-01T00:40Z'),
      event(2, 'CANCELED', '2026-12-01T00:40Z'),
      event(3, 'AWAITING_PAYMENT', '2026-12-01T00:40:05Z'),
      event(3, 'CANCELED', '2026-12-01T00:40:05Z'),
      event(2, 'CANCELED', '2026-12-01T00:40:00.000Z'),
      event(3, 'AWAITING_PAYMENT', '2026-12-01T00:40:05Z'),
    ]);
    expect(answers).toEqual(['stored', 'stored', 'stored', 'stored', 'duplicate', 'duplicate']);
    expect(forwarded).toEqual([2, 2, 3, 3]);
  });

  it('an inbox holding the key an earlier b2bctl stored (id and stamp alone): a resend of that event is a duplicate', async () => {
    const inbox = await inboxWithOneEvent({
      receivedAt: Date.parse('2026-12-01T00:40:01Z'),
      deliveryId: 'before',
      key: 'orders:2:2026-12-01T00:40Z',
      raw: '{}',
    });
    const { answers } = await sent([event(2, 'AWAITING_PAYMENT', '2026-12-01T00:40Z')], inbox);
    expect(answers).toEqual(['duplicate']);
  });
});
