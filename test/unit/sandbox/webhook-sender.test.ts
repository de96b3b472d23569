import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { EventOutbox } from '../../../src/sandbox/events.js';
import { type WebhookDelivery, WebhookSender } from '../../../src/sandbox/webhooks/sender.js';
import { fetchToken, repoRoot, startTestSandbox } from '../../support/sandbox.js';
import {
  clientId,
  clientSecret,
  removeReceiverFolders,
  startTestReceiver,
  type TestReceiver,
} from '../../support/webhook-receiver.js';

const customers = JSON.parse(readFileSync(join(repoRoot, 'samples', 'customers.json'), 'utf8')) as Record<
  string,
  unknown
>[];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(removeReceiverFolders);

/** A receiver nobody listens on: every delivery fails at once. */
const unreachable = {
  url: 'http://127.0.0.1:9',
  style: 'basic' as const,
  clientId,
  tokenPath: '/oauth/token',
  customersPath: '/webhooks/customers',
  ordersPath: '/webhooks/orders',
};

async function loop(
  style: 'basic' | 'body' | 'headers',
  secret = clientSecret,
): Promise<{ sandbox: RunningSandbox; receiver: TestReceiver }> {
  const receiver = await startTestReceiver();
  closers.push(() => receiver.close());
  const sandbox = await startTestSandbox({
    webhook: {
      url: receiver.url,
      style,
      clientId,
      clientSecret: secret,
      tokenPath: '/oauth/token',
      customersPath: '/webhooks/customers',
      ordersPath: '/webhooks/orders',
    },
  });
  closers.push(() => sandbox.close());
  return { sandbox, receiver };
}

async function createCustomer(sandbox: RunningSandbox, customer: Record<string, unknown>): Promise<number> {
  const answer = await fetch(`${sandbox.url}/v1/customer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await fetchToken(sandbox)}`, 'content-type': 'application/json' },
    body: JSON.stringify(customer),
  });
  return answer.status;
}

async function deliveries(sandbox: RunningSandbox): Promise<WebhookDelivery[]> {
  await sandbox.state.webhooks.idle();
  return (await (await fetch(`${sandbox.url}/_sandbox/webhook-deliveries`)).json()) as WebhookDelivery[];
}

describe('the sandbox sends webhooks', () => {
  it.each(['basic', 'body', 'headers'] as const)(
    'delivers the customers webhook after a create and an update (%s style)',
    async (style) => {
      const { sandbox, receiver } = await loop(style);
      const customer = customers[0] as Record<string, unknown>;
      expect(await createCustomer(sandbox, customer)).toBe(200);
      const update = await fetch(`${sandbox.url}/v1/customer/${encodeURIComponent(customer.document as string)}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${await fetchToken(sandbox)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tradingName: 'Renamed' }),
      });
      expect(update.status).toBe(200);
      const history = await deliveries(sandbox);
      expect(history.map((delivery) => [delivery.kind, delivery.status])).toEqual([
        ['customers', 'delivered'],
        ['customers', 'delivered'],
      ]);
      expect(history[0]?.steps.map((step) => [step.step, step.status])).toEqual([
        ['token', 200],
        ['event', 200],
      ]);
      const stored = receiver.onDisk();
      expect(stored).toHaveLength(2);
      expect(stored[0]).toMatchObject({
        kind: 'customers',
        flags: [],
        event: { document: customer.document, documentType: 'pj' },
      });
      expect(stored[1]?.event).toMatchObject({ tradingName: 'Renamed' });
    },
  );

  it('delivers what a route publishes to the outbox as the orders webhook', async () => {
    const { sandbox, receiver } = await loop('basic');
    sandbox.state.events.publish({
      kind: 'orders',
      payload: { id: 5, orderId: 5, lastUpdated: '2026-11-23T06:00:00.000Z' },
    });
    expect((await deliveries(sandbox))[0]).toMatchObject({ kind: 'orders', status: 'delivered' });
    expect(receiver.onDisk()[0]).toMatchObject({ kind: 'orders', event: { id: 5 } });
  });

  it('records a refused delivery with its error and resends it once the receiver is configured right', async () => {
    const { sandbox, receiver } = await loop('basic', 'wrong-secret');
    expect(await createCustomer(sandbox, customers[1] as Record<string, unknown>)).toBe(200);
    const [failed] = await deliveries(sandbox);
    expect(failed).toMatchObject({ status: 'failed', error: 'token HTTP 401', attempts: 1 });
    expect(JSON.stringify(failed)).not.toContain('wrong-secret');
    expect(receiver.onDisk()).toEqual([]);

    const configured = await fetch(`${sandbox.url}/_sandbox/webhook-config`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, style: 'headers', clientId, clientSecret }),
    });
    expect(await configured.json()).not.toHaveProperty('clientSecret');
    const resent = await fetch(`${sandbox.url}/_sandbox/webhook-deliveries/${failed?.id}/resend`, { method: 'POST' });
    expect(await resent.json()).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(receiver.onDisk()).toHaveLength(1);
    expect((await fetch(`${sandbox.url}/_sandbox/webhook-deliveries/999/resend`, { method: 'POST' })).status).toBe(404);
  });

  it('keeps the last 1,000 deliveries, as docs/sandbox.md says: an older one is no longer listed, its resend 404', async () => {
    const outbox = new EventOutbox();
    const sender = new WebhookSender(outbox, () => new Date('2026-11-23T06:00:00Z'));
    // Sent nowhere (port 9 refuses): each is recorded as failed, the case a receiver test resends.
    sender.configure({ ...unreachable, clientSecret });
    for (let order = 1; order <= 1001; order++) outbox.publish({ kind: 'orders', payload: { id: order } });
    await sender.idle();
    expect([sender.list().length, sender.list()[0]?.id, sender.list().at(-1)?.id]).toEqual([1000, 2, 1001]);
    expect(sender.resend(1)).toBeUndefined();
  });

  it('sends nothing when no receiver is configured, while the outbox still records the event', async () => {
    const sandbox = await startTestSandbox();
    closers.push(() => sandbox.close());
    expect(await createCustomer(sandbox, customers[2] as Record<string, unknown>)).toBe(200);
    expect(await deliveries(sandbox)).toEqual([]);
    expect(sandbox.state.events.list().map((event) => event.kind)).toEqual(['customers']);
  });
});
