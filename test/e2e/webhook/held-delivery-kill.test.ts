/**
 * `webhook listen --fetch-orders --forward-to` (built binary) killed while one order's fetch holds the ERP's hand-off:
 * the ERP took event 1 (a customers event) before orders event 2, whose detail the platform answers 500. A user test
 * found event 1 unrecorded for the whole hold, so the receiver started after a SIGKILL sent it again. Only a process
 * can be killed: the in-process tests (test/commands/webhook/fetch-orders-held-recorded.test.ts) read the position.
 */
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { wholeOrder } from '../../support/fetch-orders-receiver.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { untilWith } from '../../support/until.js';
import {
  postEvent,
  receiverToken,
  removeReceiverFolders,
  type SpawnedReceiver,
  spawnReceiver,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();
// A spawned receiver on a busy machine: looked at every 50 ms, given a minute.
const until = untilWith({ everyMs: 50, deadlineMs: 60_000 });

const stamp = '2026-11-30T23:29:11.081Z';
const simplified = (id: number) => ({ id, orderId: 100_000 + id, status: 'AWAITING_PAYMENT', lastUpdated: stamp });
const detail = (id: number) => ({ ...wholeOrder(id, 'AWAITING_PAYMENT', stamp), orderId: 100_000 + id });

/** The pending count /healthz gives for hand-off `name`. */
async function pendingOn(url: string, name: string): Promise<number | undefined> {
  const page = (await (await fetch(`${url}/healthz`)).json()) as { handOffs: { name: string; pending: number }[] };
  return page.handOffs.find((handOff) => handOff.name === name)?.pending;
}

describe('webhook listen --fetch-orders --forward-to killed during a hold (built binary)', () => {
  it('sends the event the ERP took before the held order once, not again after a SIGKILL', async () => {
    let released = false;
    platform.routes['GET /v1/orders/2'] = (_request, _body, response) =>
      released ? answerJson(response, 200, detail(2)) : answerJson(response, 500, { error: 'internal error' });
    platform.routes['GET /v1/orders/3'] = (_request, _body, response) => answerJson(response, 200, detail(3));
    const erp = await standInErp();
    const taken = () => erp.received.map((request) => (JSON.parse(request.body) as { id: number }).id);
    const inbox = temporaryFolder();
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'platform-token' };
    const receivers: SpawnedReceiver[] = [];
    const receiver = async () => {
      const started = await spawnReceiver(['--inbox', inbox, '--fetch-orders', '--forward-to', erp.url], env);
      receivers.push(started);
      return started;
    };
    // A failed wait does not stop this function: the receivers go when the test ends too.
    onTestFinished(() => {
      for (const each of receivers)
        if (each.child.exitCode === null && each.child.signalCode === null) each.child.kill('SIGKILL');
    });
    try {
      const first = await receiver();
      const token = await receiverToken(first.url);
      expect((await postEvent(first.url, 'customers', { id: 9, document: '11222333000181' }, token)).status).toBe(200);
      for (const id of [2, 3]) expect((await postEvent(first.url, 'orders', simplified(id), token)).status).toBe(200);
      await until(() => first.stderrSoFar().includes('warning: hand-off "fetch-orders" fails on order 2'), 'the hold');
      await until(() => taken().length === 1, 'event 1 at the ERP');
      await until(async () => (await pendingOn(first.url, 'forward')) === 2, 'event 1 recorded during the hold');
      first.child.kill('SIGKILL');
      expect((await first.done).signal).toBe('SIGKILL');

      released = true;
      const second = await receiver();
      // In store order: a repeat of event 1 would come before event 2.
      await until(() => taken().length >= 3, 'events 2 and 3 at the ERP');
      expect(taken()).toEqual([1, 2, 3]);
      second.child.kill('SIGTERM');
      expect((await second.done).code).toBe(0);
    } finally {
      await erp.close();
    }
  });
});
