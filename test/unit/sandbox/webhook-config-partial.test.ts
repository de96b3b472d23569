/**
 * Pointing the sandbox at a receiver (a user test): a failed delivery is said in one line on the sandbox's stderr,
 * not only in GET /_sandbox/webhook-deliveries, and PUT /_sandbox/webhook-config changes the fields it gives,
 * keeping the others (the secret too), so correcting the URL alone is one small request.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import type { SandboxOptions } from '../../../src/sandbox/options.js';
import { fetchToken, repoRoot, startTestSandbox } from '../../support/sandbox.js';
import { clientId, clientSecret, removeReceiverFolders, startTestReceiver } from '../../support/webhook-receiver.js';

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
  clientSecret,
  tokenPath: '/oauth/token',
  customersPath: '/webhooks/customers',
  ordersPath: '/webhooks/orders',
};

async function sandboxWith(overrides: Partial<SandboxOptions>): Promise<RunningSandbox> {
  const sandbox = await startTestSandbox(overrides);
  closers.push(() => sandbox.close());
  return sandbox;
}

async function createCustomer(sandbox: RunningSandbox, index: number): Promise<void> {
  const answer = await fetch(`${sandbox.url}/v1/customer`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await fetchToken(sandbox)}`, 'content-type': 'application/json' },
    body: JSON.stringify(customers[index]),
  });
  expect(answer.status).toBe(200);
  await sandbox.state.webhooks.idle();
}

function putConfig(sandbox: RunningSandbox, body: string): Promise<Response> {
  return fetch(`${sandbox.url}/_sandbox/webhook-config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body,
  });
}

it('a failed delivery is one line to the sandbox log: which, to where, what failed, how to resend', async () => {
  const lines: string[] = [];
  const sandbox = await sandboxWith({ webhook: unreachable, logWebhookFailure: (line) => lines.push(line) });
  await createCustomer(sandbox, 0);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(
    /^warning: webhook delivery 1 \(customers, event \d+\) to http:\/\/127\.0\.0\.1:9 failed: token .+; GET \/_sandbox\/webhook-deliveries shows it, POST \/_sandbox\/webhook-deliveries\/1\/resend sends it again\.$/,
  );
  expect(lines[0]).not.toContain(clientSecret);
});

it('a delivered one logs nothing', async () => {
  const receiver = await startTestReceiver();
  closers.push(() => receiver.close());
  const lines: string[] = [];
  const sandbox = await sandboxWith({
    webhook: { ...unreachable, url: receiver.url },
    logWebhookFailure: (line) => lines.push(line),
  });
  await createCustomer(sandbox, 0);
  expect(receiver.onDisk()).toHaveLength(1);
  expect(lines).toEqual([]);
});

it('PUT with the url alone changes the url and keeps the rest, the secret too: the next delivery arrives', async () => {
  const receiver = await startTestReceiver();
  closers.push(() => receiver.close());
  const sandbox = await sandboxWith({ webhook: { ...unreachable, style: 'headers' } });
  const answer = await putConfig(sandbox, JSON.stringify({ url: receiver.url }));
  expect(answer.status).toBe(200);
  // Shown without the secret, which was kept all the same: the delivery below needs it.
  expect(await answer.json()).toEqual({
    url: receiver.url,
    style: 'headers',
    clientId,
    tokenPath: '/oauth/token',
    customersPath: '/webhooks/customers',
    ordersPath: '/webhooks/orders',
  });
  await createCustomer(sandbox, 1);
  expect(receiver.onDisk()).toHaveLength(1);
});

it('the first configuration still needs url, clientId and clientSecret, and says so; nothing is configured', async () => {
  const sandbox = await sandboxWith({});
  const answer = await putConfig(sandbox, JSON.stringify({ url: 'http://127.0.0.1:9' }));
  expect(answer.status).toBe(400);
  const { message } = (await answer.json()) as { message: string };
  expect(message).toMatch(
    /^Webhook configuration: clientId .+; clientSecret .+ \(no receiver is configured yet: url, clientId and clientSecret are needed\)$/,
  );
  expect(await (await fetch(`${sandbox.url}/_sandbox/webhook-config`)).json()).toEqual({});
});

it('a body that is no object is refused, and the configuration is left as it was', async () => {
  const sandbox = await sandboxWith({ webhook: unreachable });
  const answer = await putConfig(sandbox, '["http://127.0.0.1:10"]');
  expect(answer.status).toBe(400);
  expect(((await answer.json()) as { message: string }).message).toBe(
    'Webhook configuration: the body must be a JSON object of the fields to set',
  );
  expect(sandbox.state.webhooks.configured()).toEqual(unreachable);
});

it('a field given a wrong value is refused, and the configuration is left as it was', async () => {
  const sandbox = await sandboxWith({ webhook: unreachable });
  const answer = await putConfig(sandbox, JSON.stringify({ style: 'cookie' }));
  expect(answer.status).toBe(400);
  expect(sandbox.state.webhooks.configured()).toEqual(unreachable);
});
