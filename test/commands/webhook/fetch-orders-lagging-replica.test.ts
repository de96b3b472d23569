/**
 * --fetch-orders against a platform whose detail lags behind its webhooks (a replica): a simplified orders event
 * announces a version (its `lastUpdated`), and a detail older than that is no fetch of it. It is never written as the
 * order: the event is tried again for --give-up-after, and written once the platform answers the version announced,
 * else a dead letter (a user test). The rule is the one `orders poll --detail` applies to a detail older than listed.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { ordersAfterEvents, wholeOrder } from '../../support/fetch-orders-receiver.js';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeReceiverFolders } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();

/** The simplified orders event of order `id`, announcing its cancellation at `lastUpdated`. */
const canceled = (id: number, lastUpdated?: unknown) => ({
  id,
  orderId: 100_000 + id,
  status: 'CANCELED',
  lastUpdated,
});

/** The order's detail as the platform answers it: READY_TO_SHIP before the cancellation, CANCELED after. */
const detail = (id: number, status: string, lastUpdated?: unknown) => ({
  ...wholeOrder(id, status, lastUpdated),
  orderId: 100_000 + id,
});

/** A detail route answering `lagging` to its first `times` requests, then `current`. */
function catchingUp(times: number, lagging: unknown, current: unknown): RouteHandler {
  let asked = 0;
  return (_request, _body, response) => answerJson(response, 200, ++asked <= times ? lagging : current);
}

const announcedAt = '2026-11-30T23:13:00.000Z';
const laggingAt = '2026-11-30T23:11:58.637Z';

/** The GETs of order `id`'s detail the platform received. */
const detailRequests = (id: number) => platform.received.filter((request) => request === `GET /v1/orders/${id}`);

describe('--fetch-orders never writes a detail older than the version its event announces (a user test)', () => {
  it('an older detail is a failed fetch, tried again and written once the platform answers the version announced', async () => {
    platform.routes['GET /v1/orders/3'] = catchingUp(
      2,
      detail(3, 'READY_TO_SHIP', laggingAt),
      detail(3, 'CANCELED', announcedAt),
    );
    const { statusOf, stderr } = await ordersAfterEvents(platform, [canceled(3, announcedAt)]);
    expect(detailRequests(3)).toHaveLength(3);
    expect(statusOf(3)).toBe('CANCELED');
    const failures = stderr.split('\n').filter((line) => line.includes('failed (attempt'));
    expect(failures).toEqual([
      expect.stringMatching(
        /^Hand-off "fetch-orders" \(fetch orders into \S+\): orders event \d+ failed \(attempt 1, failing for .* of --give-up-after 72 h: order 3's detail is an older version \(updated 2026-11-30T23:11:58\.637Z\) than its event announces \(updated 2026-11-30T23:13:00\.000Z\): a platform replica lagging behind its webhooks; not written\); trying again in 0\.5 s\.$/,
      ),
      expect.stringContaining('failed (attempt 2, '),
    ]);
    expect(stderr).not.toMatch(/dead after/);
  });

  it('a detail older for ever: a dead letter after --give-up-after that says why, and no order file', async () => {
    platform.routes['GET /v1/orders/2'] = answerJsonHandler(detail(2, 'READY_TO_SHIP', laggingAt));
    const { orders, stderr } = await ordersAfterEvents(platform, [canceled(2, announcedAt)], { giveUpAfter: 20_000 });
    expect(existsSync(join(orders, '2.json'))).toBe(false);
    const dead =
      /orders event (\d+) is dead after (\d+) attempts over .* \(--give-up-after\) \((.*)\); delivery goes on/.exec(
        stderr,
      );
    expect(dead?.[3]).toBe(
      "order 2's detail is an older version (updated 2026-11-30T23:11:58.637Z) than its event announces (updated 2026-11-30T23:13:00.000Z): a platform replica lagging behind its webhooks; not written",
    );
    // Each attempt asked the platform once more: the replica had every chance to catch up.
    expect(detailRequests(2)).toHaveLength(Number(dead?.[2]));
    expect(Number(dead?.[2])).toBeGreaterThan(1);
    const store = await SqliteStore.open(dirname(orders));
    try {
      expect(await store.deadLetters('fetch-orders')).toMatchObject([
        { eventId: Number(dead?.[1]), error: dead?.[3], attempts: Number(dead?.[2]) },
      ]);
    } finally {
      await store.close();
    }
  });

  it('a detail newer than the event announces, or as new, is written at once', async () => {
    platform.routes['GET /v1/orders/4'] = answerJsonHandler(detail(4, 'INVOICED', '2026-11-30T23:14:00.000Z'));
    platform.routes['GET /v1/orders/5'] = answerJsonHandler(detail(5, 'CANCELED', announcedAt));
    const { statusOf, stderr } = await ordersAfterEvents(platform, [
      canceled(4, announcedAt),
      canceled(5, announcedAt),
    ]);
    expect(platform.received).toEqual(['GET /v1/orders/4', 'GET /v1/orders/5']);
    expect([4, 5].map(statusOf)).toEqual(['INVOICED', 'CANCELED']);
    expect(stderr).not.toMatch(/failed \(attempt|dead after|older version/);
  });

  it.each([
    ['the event shows no lastUpdated', canceled(6), detail(6, 'READY_TO_SHIP', laggingAt)],
    ['the event shows lastUpdated null', canceled(6, null), detail(6, 'READY_TO_SHIP', laggingAt)],
    ['the detail shows no lastUpdated', canceled(6, announcedAt), detail(6, 'READY_TO_SHIP')],
    [
      'the detail shows lastUpdated null and its creation instant',
      canceled(6, announcedAt),
      { ...detail(6, 'READY_TO_SHIP', null), dateCreated: laggingAt },
    ],
    [
      'the event stamps a form b2bctl does not read',
      canceled(6, '30/11/2026 23:13:00'),
      detail(6, 'READY_TO_SHIP', laggingAt),
    ],
  ])('%s: nothing to compare, the detail is written at once as before', async (_name, event, answered) => {
    platform.routes['GET /v1/orders/6'] = answerJsonHandler(answered);
    const { statusOf, stderr } = await ordersAfterEvents(platform, [event]);
    expect(platform.received).toEqual(['GET /v1/orders/6']);
    expect(statusOf(6)).toBe('READY_TO_SHIP');
    expect(stderr).not.toMatch(/failed \(attempt|dead after|older version/);
  });

  it.each([
    ['to the minute', '2026-12-01T00:24Z'],
    ['to the second', '2026-12-01T00:24:43Z'],
    ['to the second, padded with zeros', '2026-12-01T00:24:43.000Z'],
    ['without a zone (the platform’s wall clock, Brasília)', '2026-11-30T21:24:43'],
  ])(
    'a detail stamped %s, the version of an event to the millisecond, is written at once (a user test)',
    async (_name, detailStamp) => {
      platform.routes['GET /v1/orders/12'] = answerJsonHandler(detail(12, 'CANCELED', detailStamp));
      const { statusOf, stderr } = await ordersAfterEvents(platform, [canceled(12, '2026-12-01T00:24:43.786Z')]);
      expect(detailRequests(12)).toHaveLength(1);
      expect(statusOf(12)).toBe('CANCELED');
      expect(stderr).not.toMatch(/failed \(attempt|dead after|older version/);
    },
  );

  it('a detail whose whole minute ends before the event’s instant is still older', async () => {
    platform.routes['GET /v1/orders/13'] = catchingUp(
      1,
      detail(13, 'READY_TO_SHIP', '2026-12-01T00:23Z'),
      detail(13, 'CANCELED', '2026-12-01T00:24Z'),
    );
    const { statusOf, stderr } = await ordersAfterEvents(platform, [canceled(13, '2026-12-01T00:24:00.000Z')]);
    expect(detailRequests(13)).toHaveLength(2);
    expect(statusOf(13)).toBe('CANCELED');
    expect(stderr).toContain(
      "order 13's detail is an older version (updated 2026-12-01T00:23:00.000Z) than its event announces (updated 2026-12-01T00:24:00.000Z)",
    );
  });
});

/** A route answering `body` as JSON, 200. */
function answerJsonHandler(body: unknown): RouteHandler {
  return (_request, _body, response) => answerJson(response, 200, body);
}
