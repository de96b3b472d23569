/**
 * --fetch-orders reads every form of ISO-8601 stamp at its full precision (a user test): a space between date and time
 * (`2026-11-30 12:00:00.000999Z`, PostgreSQL's `12:00:00.780308+00`), an offset in hours after a `T`. Compared at the
 * millisecond, two changes within one would tie and the older arrival would replace the newer file, silently.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ordersAfterEvents, wholeOrder } from '../../support/fetch-orders-receiver.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeReceiverFolders } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();

const whole = wholeOrder;
const afterEvents = (events: unknown[]) => ordersAfterEvents(platform, events);

/** A detail route answering `body` as JSON. */
const answer = (body: unknown) => answerJsonText(200, JSON.stringify(body));

describe('--fetch-orders compares stamps written with a space or an hours offset at full precision (a user test)', () => {
  it.each([
    ['2026-11-30 12:00:00.000999Z', '2026-11-30 12:00:00.000001Z'],
    ['2026-11-30 12:00:00.780308+00', '2026-11-30 12:00:00.780001+00'],
    ['2026-11-30 12:00:00.000999-03', '2026-11-30 12:00:00.000001-03'],
    ['2026-11-30 12:00:00.000999+00:00', '2026-11-30 12:00:00.000001+00:00'],
    ['2026-11-30T12:00:00.000999+00', '2026-11-30T12:00:00.000001+00'],
    ['2026-11-30T12:00:00.5+00', '2026-11-30T12:00:00.1+00'],
    ['2026-11-30T12:00:01+00', '2026-11-30T12:00:00+00'],
    ['2026-11-30 12:00:00,000999Z', '2026-11-30 12:00:00,000001Z'],
  ])('%s, then the older %s: the file keeps the newer, and says so', async (newer, older) => {
    const { statusOf, stderr } = await afterEvents([whole(470001, 'NEW', newer), whole(470001, 'OLD', older)]);
    expect(statusOf(470001)).toBe('NEW');
    expect(stderr).toContain(
      `is kept, not replaced by this event: it is older (lastUpdated "${older}") than the file's ("${newer}").`,
    );
    expect(stderr).not.toMatch(/no instants? b2bctl reads/);
  });

  // The event comes late, announcing the version the (lagging) detail answers: older than the file by less than a
  // millisecond. (A detail older than its own event is tried again: fetch-orders-lagging-replica.test.ts.)
  it('a fetched detail older by less than a millisecond leaves the file', async () => {
    platform.routes['GET /v1/orders/480010'] = answer(whole(480010, 'OLDREPLICA', '2026-11-30 12:00:00.000001+00'));
    const { statusOf, stderr } = await afterEvents([
      whole(480010, 'SHIPPED', '2026-11-30 12:00:00.000999+00'),
      { id: 480010, orderId: 480010, status: 'OLDREPLICA', lastUpdated: '2026-11-30 12:00:00.000001+00' },
    ]);
    expect(platform.received).toEqual(['GET /v1/orders/480010']);
    expect(statusOf(480010)).toBe('SHIPPED');
    expect(stderr).toContain(
      'is kept, not replaced by its fetched detail: it is older (lastUpdated "2026-11-30 12:00:00.000001+00") than the file\'s ("2026-11-30 12:00:00.000999+00").',
    );
  });
});
