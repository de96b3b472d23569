import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { createDatabase, usePostgresCluster } from '../../support/postgres.js';
import { testContext } from '../../support/test-context.js';
import { until } from '../../support/until.js';
import {
  listenInProcess,
  postWithToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

// A secret planted in each place a credential can enter the receiver: none of them may come out of /healthz
// (no token needed), `webhook status`, or the receiver's log, even while every delivery fails and is retried.

const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));
const planted = {
  userInfo: 'planted-userinfo-7f3a',
  query: 'planted-query-91c2',
  execArgument: 'planted-exec-argument-44d0',
  execAssignment: 'planted-exec-variable-0b9e',
  postgres: 'planted-postgres-password-5e17',
};

const postgres = usePostgresCluster();
let erp: Server;
let erpPort = 0;

beforeAll(async () => {
  // An ERP that fails every delivery, so the retry lines (which name the target) are written.
  erp = createServer((request, response) => request.resume().on('end', () => response.writeHead(500).end('down')));
  await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
  erpPort = (erp.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => erp.close(resolve));
  removeReceiverFolders();
});

function clockForRetries() {
  return {
    now: () => Date.now(),
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20))),
  };
}

/** Everything the receiver and `webhook status` showed, for one store, after both hand-offs failed twice. */
async function everythingShown(store: { inbox: string; url?: string }): Promise<string> {
  const { memory, url, stop } = await listenInProcess(
    store.inbox,
    {
      store: store.url,
      forwardTo: `http://erp-user:${planted.userInfo}@127.0.0.1:${erpPort}/hook?api_key=${planted.query}&format=json`,
      exec: `DB_PASSWORD=${planted.execAssignment} false --db-password=${planted.execArgument}`,
      maxAttempts: 1000,
    },
    { clock: clockForRetries() },
  );
  await postWithToken(url, 'orders', order);
  const retried = (name: string) => memory.stderr().split(`Hand-off "${name}"`).length > 3;
  await until(() => retried('forward') && retried('exec'));
  const health = await (await fetch(`${url}/healthz`)).text();
  const { run: status } = await import('../../../src/commands/webhook/status.js');
  const statusMemory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
  await status({ inbox: store.inbox, store: store.url, stuckAfter: 900_000 }, statusMemory.context);
  await stop();
  // What the page and the table do show: the names and figures, the targets without their credentials.
  expect(JSON.parse(health)).toEqual({
    status: 'ok',
    problems: [],
    handOffs: [
      { name: 'exec', pending: 1, oldestPendingSeconds: expect.any(Number), dead: 0 },
      { name: 'forward', pending: 1, oldestPendingSeconds: expect.any(Number), dead: 0 },
    ],
  });
  expect(statusMemory.stdout()).toContain('"target": "exec false …"');
  expect(statusMemory.stdout()).toContain(`"target": "http://***@127.0.0.1:${erpPort}/hook?api_key=***&format=***"`);
  expect(memory.stderr()).toContain(`Hand-off "forward" (http://***@127.0.0.1:${erpPort}/hook?api_key=***&format=***)`);
  return [health, memory.stdout(), memory.stderr(), statusMemory.stdout(), statusMemory.stderr()].join('\n');
}

describe('no secret on /healthz, in webhook status or in the log', () => {
  it('SQLite store: URL user-info and query, --exec arguments and assignments', { timeout: 120_000 }, async () => {
    const shown = await everythingShown({ inbox: temporaryFolder() });
    for (const secret of [planted.userInfo, planted.query, planted.execArgument, planted.execAssignment])
      expect(shown).not.toContain(secret);
  });

  it.skipIf(postgres.missing)(
    `PostgreSQL store: the password of --store too${postgres.note}`,
    { timeout: 120_000 },
    async () => {
      const url = (await createDatabase(postgres.cluster(), 'no_secret_shown')).replace(
        'postgres@',
        `postgres:${planted.postgres}@`,
      );
      const shown = await everythingShown({ inbox: temporaryFolder(), url });
      for (const secret of Object.values(planted)) expect(shown).not.toContain(secret);
    },
  );
});
