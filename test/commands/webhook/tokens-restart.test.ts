import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, defaultReceiverPaths } from '../../../src/webhook/receiver.js';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import { createDatabase, usePostgresCluster } from '../../support/postgres.js';
import {
  clientId,
  clientSecret,
  listenInProcess,
  postEvent,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

// Tokens outlive a restart of the receiver (they are kept in its store, as digests, signed with the store's key),
// until they expire; a receiver started with another client secret revokes every token issued before it, on a
// shared PostgreSQL store too.

const newSecret = 'the-new-client-secret-0123456789abcdef';
const order = (id: number) => ({ ...sampleEvent('orders', new Date('2026-11-23T06:00:00Z')), id });

const postgres = usePostgresCluster();
afterAll(removeReceiverFolders);

/** `webhook listen` on `inbox` with `secret`, until `work` is done; returns what it logged. */
async function listening(inbox: string, secret: string, work: (url: string) => Promise<void>): Promise<string> {
  const { memory, url, stop } = await listenInProcess(inbox, {}, { env: { B2BCTL_WEBHOOK_CLIENT_SECRET: secret } });
  try {
    await work(url);
  } finally {
    await stop();
  }
  return memory.stderr();
}

describe('tokens and restarts', () => {
  it('SQLite: a token outlives a restart with the same secret, not one with a new secret', async () => {
    const inbox = temporaryFolder();
    let token = '';
    await listening(inbox, clientSecret, async (url) => {
      token = await receiverToken(url);
      expect((await postEvent(url, 'orders', order(1), token)).status).toBe(200);
    });
    const sameSecret = await listening(inbox, clientSecret, async (url) => {
      expect((await postEvent(url, 'orders', order(2), token)).status).toBe(200);
    });
    expect(sameSecret).not.toContain('revoked');
    const changed = await listening(inbox, newSecret, async (url) => {
      const refused = await postEvent(url, 'orders', order(3), token);
      expect([refused.status, await refused.json()]).toEqual([
        401,
        { error: 'invalid_token', error_description: 'Token unknown' },
      ]);
      const fresh = await receiverToken(url, clientId, newSecret);
      expect((await postEvent(url, 'orders', order(4), fresh)).status).toBe(200);
    });
    expect(changed).toContain(
      `The client secret is not the one SQLite ${inbox}/inbox.sqlite last served with: the tokens issued before are revoked.`,
    );
    // Back to the old secret: the tokens of the old one stay revoked.
    await listening(inbox, clientSecret, async (url) => {
      expect((await postEvent(url, 'orders', order(5), token)).status).toBe(401);
    });
  });

  it.skipIf(postgres.missing)(
    `PostgreSQL: a token of one receiver works on another; a new secret revokes it on both${postgres.note}`,
    { timeout: 120_000 },
    async () => {
      const url = await createDatabase(postgres.cluster(), 'tokens_restart');
      const start = async (secret: string) => {
        const store = await PostgresStore.open(url);
        const receiver = await startReceiver({
          host: '127.0.0.1',
          port: 0,
          clientId,
          clientSecret: secret,
          tokenTtlSeconds: 3600,
          store,
          paths: defaultReceiverPaths,
          bodyLimitBytes: 1024 * 1024,
          requestTimeoutMs: 10_000,
          stuckAfterMs: 900_000,
        });
        return { url: receiver.url, close: async () => (await receiver.close(), await store.close()) };
      };
      const first = await start(clientSecret);
      const second = await start(clientSecret);
      const token = await receiverToken(first.url);
      expect((await postEvent(second.url, 'orders', order(1), token)).status).toBe(200);
      await first.close();
      await second.close();
      const restarted = await start(clientSecret);
      expect((await postEvent(restarted.url, 'orders', order(2), token)).status).toBe(200);
      await restarted.close();
      const rotated = [await start(newSecret), await start(newSecret)];
      for (const receiver of rotated)
        expect((await postEvent(receiver.url, 'orders', order(3), token)).status).toBe(401);
      // Both rotated receivers made one key together: a token of one works on the other.
      const fresh = await receiverToken((rotated[0] as { url: string }).url, clientId, newSecret);
      expect((await postEvent((rotated[1] as { url: string }).url, 'orders', order(4), fresh)).status).toBe(200);
      for (const receiver of rotated) await receiver.close();
    },
  );
});
