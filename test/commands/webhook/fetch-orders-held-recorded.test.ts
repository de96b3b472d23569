/**
 * --fetch-orders and the ERP's hand-off, one order's fetch failing (the platform answers 500 for order 2 only): the
 * ERP takes event 1 (a customers event), then its hand-off waits behind orders event 2 for up to --give-up-after. A
 * user test found event 1 left unrecorded for the whole wait: /healthz counted it pending, and a receiver killed
 * during the hold sent it again. What was taken is recorded in its group's time (100 ms) though the next delivery
 * waits; the kill itself is test/e2e/webhook/held-delivery-kill.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ListenOptions } from '../../../src/commands/webhook/listen.js';
import { orderDetail, simplifiedOrder } from '../../support/fetch-orders-receiver.js';
import { createDatabase, usePostgresCluster } from '../../support/postgres.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { until } from '../../support/until.js';
import {
  listenInProcess,
  pendingOn,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const platform = useScriptedPlatform();
const postgres = usePostgresCluster();

const stamp = '2026-11-30T23:29:11.081Z';
const simplified = (id: number) => simplifiedOrder(id, stamp);
const detail = (id: number) => orderDetail(id, stamp);
const holdWarning = /^warning: hand-off "fetch-orders" fails on order 2 \(orders event 2\)/m;

/**
 * A receiver with --fetch-orders and the ERP hand-off `flags`, sent a customers event then orders 2 and 3, whose
 * order 2 fetch answers 500 until `release()`; `taken()` lists the store ids the ERP took, in order.
 */
async function heldReceiver(flags: Partial<ListenOptions>, taken: () => number[]) {
  let released = false;
  platform.routes['GET /v1/orders/2'] = (_request, _body, response) =>
    released ? answerJson(response, 200, detail(2)) : answerJson(response, 500, { error: 'internal error' });
  platform.routes['GET /v1/orders/3'] = (_request, _body, response) => answerJson(response, 200, detail(3));
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'platform-token' };
  const inbox = temporaryFolder();
  const start = () => listenInProcess(inbox, { ...flags, fetchOrders: true }, { env });
  const first = await start();
  const token = await receiverToken(first.url);
  expect((await postEvent(first.url, 'customers', { id: 9, document: '11222333000181' }, token)).status).toBe(200);
  for (const id of [2, 3]) expect((await postEvent(first.url, 'orders', simplified(id), token)).status).toBe(200);
  await until(() => holdWarning.test(first.memory.stderr()), 'the hold behind order 2');
  await until(() => taken().length === 1, 'event 1 at the ERP');
  return { first, start, release: () => (released = true) };
}

/**
 * The hold, until the position of the ERP's hand-off `name` is past event 1, then a restart with order 2 fetched: the
 * events the ERP took during the hold, and by the end.
 */
async function recordedDuringTheHold(flags: Partial<ListenOptions>, name: string, taken: () => number[]) {
  const { first, start, release } = await heldReceiver(flags, taken);
  let duringTheHold: number[];
  try {
    // The group commit's bound is 100 ms; the ceiling is only for a position that is never recorded.
    await until(async () => (await pendingOn(first.url, name)) === 2, `"${name}" recording event 1 during the hold`, {
      deadlineMs: 30_000,
    });
    duringTheHold = taken();
  } finally {
    await first.stop();
  }
  release();
  const second = await start();
  try {
    await until(() => taken().length >= 3, 'events 2 and 3 at the ERP after the restart');
    await until(async () => (await pendingOn(second.url, name)) === 0, `"${name}" recording events 2 and 3`);
  } finally {
    await second.stop();
  }
  return { duringTheHold, byTheEnd: taken() };
}

const eventOneOnce = { duringTheHold: [1], byTheEnd: [1, 2, 3] };

describe('--fetch-orders: what the ERP took before a held order is recorded while the hold lasts (a user test)', () => {
  it('--forward-to (SQLite): /healthz stops counting event 1 within the group commit', async () => {
    const erp = await standInErp();
    const taken = () => erp.received.map((request) => (JSON.parse(request.body) as { id: number }).id);
    try {
      expect(await recordedDuringTheHold({ forwardTo: erp.url }, 'forward', taken)).toEqual(eventOneOnce);
    } finally {
      await erp.close();
    }
  });

  it('--exec (SQLite): /healthz stops counting event 1 within the group commit', async () => {
    const folder = temporaryFolder();
    const log = join(folder, 'taken.log');
    const script = join(folder, 'import.sh');
    writeFileSync(script, `#!/bin/sh\necho "$B2BCTL_EVENT_ID" >> "${log}"\n`, { mode: 0o700 });
    const taken = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map(Number) : []);
    expect(await recordedDuringTheHold({ exec: script }, 'exec', taken)).toEqual(eventOneOnce);
  });

  it.skipIf(postgres.missing)(
    `--forward-to (PostgreSQL): /healthz stops counting event 1 within the group commit${postgres.note}`,
    async () => {
      const store = await createDatabase(postgres.cluster(), 'held_recorded');
      const erp = await standInErp();
      const taken = () => erp.received.map((request) => (JSON.parse(request.body) as { id: number }).id);
      try {
        expect(await recordedDuringTheHold({ forwardTo: erp.url, store }, 'forward', taken)).toEqual(eventOneOnce);
      } finally {
        await erp.close();
      }
    },
  );
});
