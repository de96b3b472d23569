/**
 * A receiver with --fetch-orders and the ERP's hand-off (--exec, --forward-to): the ERP is handed an orders event only
 * once its fetch is done, so the order's file is there when the ERP looks for it; an --exec command is told the
 * file as B2BCTL_ORDER_FILE when its fetch wrote it (a user test). Each detail fails once first, as a lagging or busy
 * platform does: run side by side, the ERP's hand-off took the event while the fetch waited to try again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListenOptions } from '../../../src/commands/webhook/listen.js';
import { orderDetail, simplifiedOrder } from '../../support/fetch-orders-receiver.js';
import { answerJson, type RouteHandler, useScriptedPlatform } from '../../support/scripted-platform.js';
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

const platform = useScriptedPlatform();

const stamp = '2026-11-30T23:29:11.081Z';
const simplified = (id: number) => simplifiedOrder(id, stamp);
const detail = (id: number) => orderDetail(id, stamp);

/** A detail route answering 503 to its first request, then the order. */
function failingOnce(id: number): RouteHandler {
  let asked = 0;
  return (_request, _body, response) =>
    ++asked === 1 ? answerJson(response, 503, { error: 'busy' }) : answerJson(response, 200, detail(id));
}

/** A receiver with --fetch-orders and `flags`, sent orders 1..3 and a customers event; its inbox folder. */
async function receiverSent(flags: Partial<ListenOptions>, inbox: string, done: () => boolean) {
  for (const id of [1, 2, 3]) platform.routes[`GET /v1/orders/${id}`] = failingOnce(id);
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'platform-token' };
  const { url, stop, memory } = await listenInProcess(inbox, { ...flags, fetchOrders: true }, { env });
  const token = await receiverToken(url);
  for (const id of [1, 2, 3]) expect((await postEvent(url, 'orders', simplified(id), token)).status).toBe(200);
  expect((await postEvent(url, 'customers', { id: 9, document: '11222333000181' }, token)).status).toBe(200);
  await until(done);
  await stop();
  return memory.stderr();
}

describe('--fetch-orders with the ERP hand-off: the fetch goes first (a user test)', () => {
  it("--exec: each order's command finds its file, named in B2BCTL_ORDER_FILE", async () => {
    const folder = temporaryFolder();
    const inbox = join(folder, 'inbox');
    const log = join(folder, 'imported.log');
    const script = join(folder, 'import.sh');
    // What an importer written the obvious way does: read orders/<id>.json of the order it is given.
    writeFileSync(
      script,
      `#!/bin/sh
id=$(sed -n 's/.*"event":{"id":\\([0-9]*\\).*/\\1/p')
if [ -f "${inbox}/orders/$id.json" ]; then seen=file; else seen="NO FILE"; fi
echo "$B2BCTL_EVENT_KIND $id $seen \${B2BCTL_ORDER_FILE:-none}" >> "${log}"
`,
      { mode: 0o700 },
    );
    const stderr = await receiverSent(
      { exec: script },
      inbox,
      () => existsSync(log) && readFileSync(log, 'utf8').trim().split('\n').length === 4,
    );
    const orders = join(inbox, 'orders');
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
      `orders 1 file ${join(orders, '1.json')}`,
      `orders 2 file ${join(orders, '2.json')}`,
      `orders 3 file ${join(orders, '3.json')}`,
      'customers 9 NO FILE none',
    ]);
    expect(stderr).not.toMatch(/dead after/);
  });

  it('--forward-to: the ERP is sent an orders event once its file is there', async () => {
    const inbox = temporaryFolder();
    const seen: string[] = [];
    const erp = await standInErp((request) => {
      const { id } = (JSON.parse(request.body) as { event: { id: number } }).event;
      seen.push(`${id} ${existsSync(join(inbox, 'orders', `${id}.json`)) ? 'file' : 'NO FILE'}`);
      return { status: 200 };
    });
    try {
      await receiverSent({ forwardTo: erp.url }, inbox, () => seen.length === 4);
      expect(seen).toEqual(['1 file', '2 file', '3 file', '9 NO FILE']);
    } finally {
      await erp.close();
    }
  });
});
