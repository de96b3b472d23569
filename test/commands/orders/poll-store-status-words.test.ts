/**
 * orders poll --status on a store with status words of its own (answers.order.statusWords, a user test): its own word
 * or b2bctl's stage name for it lists the orders in that status, sent to the listing as the store writes it; a word
 * that is neither is refused before anything is fetched, naming the words known. From a real HTTP server standing for
 * a store whose listing filters by the exact text of its own words.
 */
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { answerJson, useScriptedPlatform } from '../../support/scripted-platform.js';
import { listingAsk, listingPage } from '../../support/scripted-order-listing.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const iso = (ms: number) => new Date(ms).toISOString();
const since = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const until = since + 600_000;

const orders = [
  { id: 1, orderId: 101, status: 'AGUARDANDO_PAGAMENTO', lastUpdated: iso(since + 60_000) },
  { id: 2, orderId: 102, status: 'PRONTO_PARA_ENVIO', lastUpdated: iso(since + 120_000) },
  { id: 3, orderId: 103, status: 'CANCELADO', lastUpdated: iso(since + 180_000) },
];

/** The `status` filters each listing request was sent. */
let asked: string[][] = [];

beforeEach(() => {
  asked = [];
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const ask = listingAsk(request);
    asked.push(ask.statuses);
    answerJson(response, 200, listingPage(orders, ask, { byStatus: true }));
  };
});

async function poll(...statuses: string[]) {
  const configDir = freshConfigDir();
  const words = 'AGUARDANDO_PAGAMENTO=AWAITING_PAYMENT,PRONTO_PARA_ENVIO=READY_TO_SHIP,CANCELADO=CANCELED';
  await runCommandLine(['config', 'set', 'answers.order.statusWords', words], { configDir });
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  const filter = statuses.flatMap((status) => ['--status', status]);
  const cursor = join(temporaryFolder(), 'cursor.json');
  const window = ['--since', iso(since), '--until', iso(until), '--cursor', cursor];
  return await runCommandLine(['orders', 'poll', '-o', 'ndjson', ...window, ...filter], { configDir, env });
}

const ids = (stdout: string) => ndjsonOf<{ id: number }>(stdout).map((order) => order.id);

describe('orders poll --status on a store with its own status words', () => {
  it("the store's own word lists its orders", async () => {
    const result = await poll('pronto_para_envio');
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([2]);
    expect(asked.every((statuses) => statuses.join() === 'PRONTO_PARA_ENVIO')).toBe(true);
  });

  it("b2bctl's stage name is sent as the store's word for it", async () => {
    const result = await poll('READY_TO_SHIP', 'cancelled');
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual([2, 3]);
    expect(asked[0]).toEqual(expect.arrayContaining(['PRONTO_PARA_ENVIO', 'CANCELADO']));
    expect(result.stderr).not.toMatch(/warning/);
  });

  it('a word that is neither is refused before anything is fetched, naming the words known', async () => {
    const result = await poll('PRONTO_PRA_ENVIO');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--status PRONTO_PRA_ENVIO: no status of this store (answers.order.statusWords names AGUARDANDO_PAGAMENTO, PRONTO_PARA_ENVIO and CANCELADO',
    );
    expect(asked).toEqual([]);
  });
});
