/**
 * --fetch-orders reads every form of ISO-8601 stamp at its full precision (t6-20): a space between date and time
 * (`2026-11-30 12:00:00.000999Z`, PostgreSQL's `12:00:00.780308+00`), an offset in hours after a `T`. Compared at the
 * millisecond, two changes within one would tie and the older arrival would replace the newer file, silently.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/webhook/listen.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { testContext } from '../../support/test-context.js';
import {
  clientSecret,
  listenOptions,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** A whole order as the full-payload webhook carries it. */
function whole(id: number | string, status: string, lastUpdated: unknown) {
  return { id, status, lastUpdated, items: [{ sku: 'A', quantity: status.length }] };
}

/**
 * A receiver with --fetch-orders on the scripted platform: posts `events` in turn, then a last whole order whose
 * file says the hand-off went past them all (it hands events off in order); returns the inbox's orders folder, the
 * order held in each file, and the receiver's stderr.
 */
async function afterEvents(events: unknown[]) {
  const inbox = temporaryFolder();
  const memory = testContext({
    env: {
      B2BCTL_CONFIG_DIR: temporaryFolder(),
      B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret,
      B2BCTL_BASE_URL: platform.url,
      B2BCTL_TOKEN: 'platform-token',
    },
  });
  const running = run(listenOptions(inbox, { fetchOrders: true }), memory.context);
  const url = await memory.firstLine();
  const token = await receiverToken(url);
  for (const event of events) expect((await postEvent(url, 'orders', event, token)).status).toBe(200);
  await postEvent(url, 'orders', whole(999, 'LAST', '2026-11-30T00:00:00Z'), token);
  const orders = join(inbox, 'orders');
  await until(() => existsSync(join(orders, '999.json')));
  memory.interrupt();
  await running;
  const statusOf = (id: number | string) =>
    (JSON.parse(readFileSync(join(orders, `${id}.json`), 'utf8')) as { order: { status: string } }).order.status;
  return { orders, statusOf, stderr: memory.stderr() };
}

/** A detail route answering `body` as JSON. */
const answer = (body: unknown) => (_request: unknown, _body: string, response: ServerResponse) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('--fetch-orders compares stamps written with a space or an hours offset at full precision (t6-20)', () => {
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

  it('a fetched detail older by less than a millisecond leaves the file', async () => {
    platform.routes['GET /v1/orders/480010'] = answer(whole(480010, 'OLDREPLICA', '2026-11-30 12:00:00.000001+00'));
    const { statusOf, stderr } = await afterEvents([
      whole(480010, 'SHIPPED', '2026-11-30 12:00:00.000999+00'),
      { id: 480010, orderId: 480010, status: 'SHIPPED', lastUpdated: '2026-11-30 12:00:00.001999+00' },
    ]);
    expect(platform.received).toEqual(['GET /v1/orders/480010']);
    expect(statusOf(480010)).toBe('SHIPPED');
    expect(stderr).toContain(
      'is kept, not replaced by its fetched detail: it is older (lastUpdated "2026-11-30 12:00:00.000001+00") than the file\'s ("2026-11-30 12:00:00.000999+00").',
    );
  });
});
