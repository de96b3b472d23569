/**
 * --fetch-orders writes each order through a temporary copy renamed over orders/<id>.json: the copies a receiver
 * killed mid-write left are removed when the next receiver starts, in the name grammar every rewritten file uses, and
 * nothing else in the folder is (a user test). Ids that differ only in a character a file name cannot hold get a file
 * each, named as `orders poll --out-dir` names its files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makePrivateFolder } from '../../../src/lib/private-file.js';
import { wholeOrder } from '../../support/fetch-orders-receiver.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
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

describe('--fetch-orders, the orders folder a killed receiver left', () => {
  it('removes the abandoned copies at start, keeps every other file, and writes A-1 and A_1 to two files', async () => {
    const inbox = temporaryFolder();
    const orders = join(inbox, 'orders');
    makePrivateFolder(orders);
    const left = ['.42.json.0123456789abcdef.tmp', '.A-1.json.fedcba9876543210.tmp'];
    const kept = ['42.json', 'notes.tmp', '.42.json.tmp'];
    for (const name of [...left, ...kept]) writeFileSync(join(orders, name), '{}\n', { mode: 0o600 });
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'platform-token' };
    const { url, stop } = await listenInProcess(inbox, { fetchOrders: true }, { env });
    const token = await receiverToken(url);
    for (const id of ['A-1', 'A_1'])
      expect((await postEvent(url, 'orders', wholeOrder(id, 'PAID', '2026-11-30T00:00:00Z'), token)).status).toBe(200);
    await until(() => existsSync(join(orders, 'A-1.json')) && existsSync(join(orders, 'A_1.json')));
    await stop();
    expect(readdirSync(orders).toSorted()).toEqual([...kept, 'A-1.json', 'A_1.json'].toSorted());
    const idIn = (name: string) =>
      (JSON.parse(readFileSync(join(orders, name), 'utf8')) as { order: { id: string } }).order.id;
    expect([idIn('A-1.json'), idIn('A_1.json')]).toEqual(['A-1', 'A_1']);
    expect(platform.received).toEqual([]);
  });
});
