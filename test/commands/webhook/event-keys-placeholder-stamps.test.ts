/**
 * An orders event whose `lastUpdated` is no instant b2bctl reads (a user test): a placeholder a serialiser writes for an
 * unset date (MySQL's and PHP's `0000-00-00 00:00:00`, `null`, `undefined`, `0`, .NET's `0001-01-01T00:00:00`) or
 * any other text. Taken as a version, the order's next change would share it and be answered `duplicate`, and lost.
 */
import { describe, expect, it } from 'vitest';
import { postEvent, receiverToken, useTestReceivers } from '../../support/webhook-receiver.js';

const startTestReceiver = useTestReceivers();

const stored = '200 {"status":"stored","deliveryId":…}';
const duplicate = '200 {"status":"duplicate"}';

describe('an orders event whose lastUpdated is no instant (a user test)', () => {
  it.each(['0000-00-00 00:00:00', 'null', 'undefined', '0', '0001-01-01T00:00:00', '30/11/2026 14:22:18'])(
    'is recognised by its content: each later change is stored, flagged (%j)',
    async (stamp) => {
      const receiver = await startTestReceiver();
      const token = await receiverToken(receiver.url);
      const answers: string[] = [];
      for (const status of ['SHIPPED', 'DELIVERED', 'DELIVERED']) {
        const answer = await postEvent(receiver.url, 'orders', { id: 150005, status, lastUpdated: stamp }, token);
        answers.push(`${answer.status} ${(await answer.text()).replace(/"deliveryId":"[^"]+"/, '"deliveryId":…')}`);
      }
      // The last is the second sent again, word for word: that one is a redelivery.
      expect(answers).toEqual([stored, stored, duplicate]);
      const events = receiver.onDisk();
      expect(events.map((event) => (event.event as { status: string }).status)).toEqual(['SHIPPED', 'DELIVERED']);
      for (const event of events) {
        expect(event.key).toMatch(/^orders:150005:[\w-]{22}$/);
        expect(event.flags).toContain(`lastUpdated ${JSON.stringify(stamp)} is no instant b2bctl reads`);
      }
    },
  );

  it('a readable stamp is still the version: the same stamp again is a redelivery', async () => {
    const receiver = await startTestReceiver();
    const token = await receiverToken(receiver.url);
    const stamp = '2026-11-30 12:00:00.780308+00';
    for (const status of ['SHIPPED', 'SHIPPED-AGAIN']) {
      const answer = await postEvent(receiver.url, 'orders', { id: 150006, status, lastUpdated: stamp }, token);
      expect(answer.status).toBe(200);
    }
    // The key holds the stamp's instant (UTC, its digits past the millisecond kept), not its text.
    expect(receiver.onDisk().map((event) => event.key)).toEqual(['orders:150006:2026-11-30T12:00:00.780308Z']);
  });
});
