/**
 * --fetch-orders keeps the newest version of each order in orders/<id>.json, whatever order the versions come in:
 * stamps apart by less than a millisecond, stamps as epoch numbers, a stamp b2bctl cannot read, a detail fetched from
 * a platform lagging behind its own webhooks; and an event with an empty id is no order to fetch.
 */
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ordersAfterEvents, wholeOrder } from '../../support/fetch-orders-receiver.js';
import { answerJsonText, useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeReceiverFolders } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();

const whole = wholeOrder;
const afterEvents = (events: unknown[]) => ordersAfterEvents(platform, events);

describe('--fetch-orders compares lastUpdated at its full precision (a user test)', () => {
  it('an older version apart by less than a millisecond, coming later, leaves the newer file', async () => {
    const { statusOf, stderr } = await afterEvents([
      whole(904, 'SHIPPED', '2026-11-30T12:00:00.000999Z'),
      whole(904, 'AWAITING_PAYMENT', '2026-11-30T12:00:00.000001Z'),
      whole(902, 'SHIPPED', '2026-11-30T12:00:00.000100Z'),
      whole(902, 'AWAITING_PAYMENT', '2026-11-30T12:00:00.000Z'),
      // Microseconds in another zone: 09:00:00.000200-03:00 is 12:00:00.000200Z, after .000100Z.
      whole(903, 'SHIPPED', '2026-11-30T09:00:00.000200-03:00'),
      whole(903, 'AWAITING_PAYMENT', '2026-11-30T12:00:00.000100Z'),
      // A newer one by less than a millisecond replaces the file.
      whole(905, 'NEW', '2026-11-30T12:00:00.000001Z'),
      whole(905, 'PAID', '2026-11-30T12:00:00.000002Z'),
    ]);
    expect([904, 902, 903].map(statusOf)).toEqual(['SHIPPED', 'SHIPPED', 'SHIPPED']);
    expect(statusOf(905)).toBe('PAID');
    expect(stderr).toMatch(
      /Order 904: \S+904\.json is kept, not replaced by this event: it is older \(lastUpdated "2026-11-30T12:00:00\.000001Z"\) than the file's \("2026-11-30T12:00:00\.000999Z"\)\./,
    );
  });
});

describe('--fetch-orders reads the stamps b2bctl reads elsewhere, and never lets an unreadable one win (a user test)', () => {
  it('epoch milliseconds and seconds are compared as instants', async () => {
    const { statusOf } = await afterEvents([
      whole(170001, 'NEW', 1796050000000),
      whole(170001, 'OLD', 1796040000000),
      // Seconds and milliseconds of one platform compare as the same clock.
      whole(170003, 'NEW', 1796050000),
      whole(170003, 'OLD', 1796040000000),
      whole(170004, 'OLD', '2026-11-30T12:00:00Z'),
      whole(170004, 'NEW', 1796050000000),
    ]);
    expect([170001, 170003, 170004].map(statusOf)).toEqual(['NEW', 'NEW', 'NEW']);
  });

  it('a stamp it cannot read never replaces a file whose stamp it can; it says so', async () => {
    const { statusOf, stderr } = await afterEvents([
      whole(170005, 'READABLE', '2026-11-29T12:00:00Z'),
      whole(170005, 'UNREADABLE', '30/11/2026 12:00:00'),
      whole(170006, 'READABLE', '2026-11-29T12:00:00Z'),
      { ...whole(170006, 'UNSTAMPED', undefined), lastUpdated: undefined },
    ]);
    expect([170005, 170006].map(statusOf)).toEqual(['READABLE', 'READABLE']);
    expect(stderr).toMatch(
      /Order 170005: \S+ is kept, not replaced by this event: its lastUpdated \("30\/11\/2026 12:00:00"\) is no instant b2bctl reads, and the file's is "2026-11-29T12:00:00Z"\./,
    );
    expect(stderr).toMatch(/Order 170006: \S+ is kept, not replaced by this event: its lastUpdated \(none\)/);
  });

  it('a readable stamp replaces a file whose stamp it cannot read, never silently (a user test)', async () => {
    const { statusOf, stderr } = await afterEvents([
      whole(320001, 'UNREADABLE', '30/11/2026 12:00:00'),
      whole(320001, 'READABLE', '2026-11-29T12:00:00Z'),
      whole(320002, 'EMPTY', ''),
      whole(320002, 'READABLE', '2026-11-29T12:00:00Z'),
      whole(320003, 'NULL', null),
      whole(320003, 'READABLE', '2026-11-29T12:00:00Z'),
    ]);
    // The rule is one both ways: a version without a readable stamp counts as the older (null until first changed).
    expect([320001, 320002, 320003].map(statusOf)).toEqual(['READABLE', 'READABLE', 'READABLE']);
    const said = stderr.split('\n').filter((line) => /order 32000\d/i.test(line));
    expect(said).toEqual([
      expect.stringMatching(
        /^warning: order 320001: \S+320001\.json is replaced by this event \(lastUpdated "2026-11-29T12:00:00Z"\), though its own lastUpdated \("30\/11\/2026 12:00:00"\) is no instant b2bctl reads: a version without a readable stamp counts as the older\.$/,
      ),
      expect.stringMatching(/^warning: order 320002: .* though its own lastUpdated \(""\) is no instant b2bctl reads/),
      expect.stringMatching(
        /^warning: order 320003: .* though its own lastUpdated \(none\) is no instant b2bctl reads/,
      ),
    ]);
  });

  it('epoch milliseconds written as a JSON string of 13 digits are compared as instants (a user test)', async () => {
    const { statusOf, stderr } = await afterEvents([
      whole(310003, 'NEW', '1796050000000'),
      whole(310003, 'OLD', '1796040000000'),
      whole(310004, 'NEW', '1796050000000'),
      whole(310004, 'OLD', '2026-11-29T12:00:00Z'),
    ]);
    expect([310003, 310004].map(statusOf)).toEqual(['NEW', 'NEW']);
    expect(stderr).toMatch(
      /Order 310003: \S+ is kept, not replaced by this event: it is older \(lastUpdated "1796040000000"\)/,
    );
    expect(stderr).not.toMatch(/no instants b2bctl reads/);
  });

  it('two stamps it cannot read: the later arrival is written, and that is said once', async () => {
    const { statusOf, stderr } = await afterEvents([
      whole(170002, 'NEW', '30/11/2026 12:00:00'),
      whole(170002, 'OLD', '29/11/2026 12:00:00'),
      whole(170007, 'NEW', '30/11/2026 12:00:00'),
      whole(170007, 'OLD', '29/11/2026 12:00:00'),
    ]);
    expect([170002, 170007].map(statusOf)).toEqual(['OLD', 'OLD']);
    const said = stderr.match(/are no instants b2bctl reads/g) ?? [];
    expect(said).toHaveLength(1);
    expect(stderr).toContain(
      'warning: order 170002: the lastUpdated stamps "29/11/2026 12:00:00" and "30/11/2026 12:00:00" are no instants b2bctl reads (ISO-8601, epoch seconds or milliseconds), so the later arrival was written to',
    );
  });
});

/** A detail route answering `body` as JSON. */
const answer = (body: unknown) => answerJsonText(200, JSON.stringify(body));

/** The simplified orders event of `id`, newer than the whole orders these tests send first. */
const simplified = (id: number) => ({
  id,
  orderId: id,
  status: 'INVOICED',
  lastUpdated: '2026-11-30T12:00:05.000Z',
});

describe('--fetch-orders compares a fetched detail with the file before writing it (a user test)', () => {
  // An event that comes late announces an older version than the file holds, and the detail (a lagging replica)
  // answers that version: the file is not moved back. (A detail older than its own event is tried again.)
  it('a detail older than the file (a lagging replica) leaves the file; the event is handled, not dead', async () => {
    platform.routes['GET /v1/orders/190007'] = answer(whole(190007, 'AWAITING_PAYMENT', '2026-11-29T09:00:00.000Z'));
    platform.routes['GET /v1/orders/190006'] = answer({
      ...whole(190006, 'UNSTAMPED', undefined),
      lastUpdated: undefined,
    });
    platform.routes['GET /v1/orders/190008'] = answer(whole(190008, 'INVOICED', '2026-11-30T12:00:05.000Z'));
    const { statusOf, stderr } = await afterEvents([
      whole(190007, 'INVOICED', '2026-11-30T12:00:00.000Z'),
      { ...simplified(190007), status: 'AWAITING_PAYMENT', lastUpdated: '2026-11-29T09:00:00.000Z' },
      whole(190006, 'INVOICED', '2026-11-30T12:00:00.000Z'),
      simplified(190006),
      // A newer detail is written, as always.
      whole(190008, 'PAID', '2026-11-30T12:00:00.000Z'),
      simplified(190008),
    ]);
    expect(platform.received).toEqual(['GET /v1/orders/190007', 'GET /v1/orders/190006', 'GET /v1/orders/190008']);
    expect([190007, 190006, 190008].map(statusOf)).toEqual(['INVOICED', 'INVOICED', 'INVOICED']);
    expect(stderr).toMatch(
      /Order 190007: \S+190007\.json is kept, not replaced by its fetched detail: it is older \(lastUpdated "2026-11-29T09:00:00\.000Z"\) than the file's \("2026-11-30T12:00:00\.000Z"\)\./,
    );
    expect(stderr).toMatch(/Order 190006: \S+ is kept, not replaced by its fetched detail: its lastUpdated \(none\)/);
    expect(stderr).not.toMatch(/dead after/);
  });
});

describe('--fetch-orders refuses an event whose id is empty, before any request (a user test)', () => {
  it.each([
    ['simplified', { id: '', orderId: 180001, status: 'A', lastUpdated: '2026-11-30T10:00:00Z' }],
    ['whole', whole('', 'A', '2026-11-30T10:00:00Z')],
    ['blank', { id: '  ', orderId: 180001, status: 'A', lastUpdated: '2026-11-30T10:00:00Z' }],
  ])('%s: a dead letter that says why; no GET /v1/orders/, no orders/.json', async (_name, event) => {
    platform.routes['GET /v1/orders/'] = (_request, _body, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":1},{"id":2}]');
    const { orders, stderr } = await afterEvents([event]);
    expect(platform.received).toEqual([]);
    expect(readdirSync(orders)).toEqual(['999.json']);
    expect(stderr).toMatch(
      /orders event \d+ is dead after 1 attempt \(the order id "\s*" names no order the platform can be asked\)/,
    );
  });
});

/** A simplified orders event whose id is what a serialiser may write for "unset". */
const unsetId = (id: number | string) => ({
  id,
  orderId: 180002,
  status: 'A',
  lastUpdated: '2026-11-30T10:00:00Z',
});

describe('--fetch-orders refuses an event whose id is 0 or below, before any request', () => {
  it.each([
    ['the number 0', unsetId(0), '0'],
    ['the text "0"', unsetId('0'), '"0"'],
    ['the text "00"', unsetId('00'), '"00"'],
    ['the number -1', unsetId(-1), '-1'],
    ['a whole order with id 0', whole(0, 'A', '2026-11-30T10:00:00Z'), '0'],
  ])(
    '%s: a dead letter that says why, in one line; no GET /v1/orders/0, no orders/0.json',
    async (_name, event, shownId) => {
      for (const id of ['0', '00', '-1'])
        platform.routes[`GET /v1/orders/${id}`] = (_request, _body, response) =>
          response.writeHead(200, { 'content-type': 'application/json' }).end(`{"id":${id},"status":"A"}`);
      const { orders, stderr } = await afterEvents([event]);
      expect(platform.received).toEqual([]);
      expect(readdirSync(orders)).toEqual(['999.json']);
      const said = stderr.split('\n').filter((line) => line.includes('names no order'));
      expect(said).toEqual([
        expect.stringMatching(
          new RegExp(
            `orders event \\d+ is dead after 1 attempt \\(the order id ${shownId} names no order the platform can be asked\\)`,
          ),
        ),
      ]);
    },
  );
});

describe('--fetch-orders refuses an orders event with no id at all, before any request (a user test)', () => {
  it.each([
    ['no id', { orderId: 340006, status: 'A', lastUpdated: '2026-11-30T10:00:00Z' }, 'the orders event has no id and'],
    [
      '"id": null',
      { id: null, orderId: 340007, status: 'A', lastUpdated: '2026-11-30T10:00:00Z' },
      'the order id null',
    ],
    [
      '"id": true',
      { id: true, orderId: 340008, status: 'A', lastUpdated: '2026-11-30T10:00:00Z' },
      'the order id true',
    ],
  ])('%s: a dead letter that says why, not counted done in silence; no request, no file', async (_name, event, why) => {
    const { orders, stderr } = await afterEvents([event]);
    expect(platform.received).toEqual([]);
    expect(readdirSync(orders)).toEqual(['999.json']);
    const said = stderr.split('\n').filter((line) => line.includes('names no order'));
    expect(said).toEqual([
      expect.stringContaining(`is dead after 1 attempt (${why} names no order the platform can be asked)`),
    ]);
  });
});
