/**
 * An `--exec` hand-off whose store cannot record a command's process group (a full disk) is the receiver's own
 * problem, and /healthz says it (a user test: every try of the command was stopped before it ran, while /healthz
 * answered `200 {"status":"ok"}`). The store's refusal is made by a trigger in the inbox itself, as a full disk
 * refuses that one insert: the receiver runs the real store, the real command and the real /healthz.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/base/clock.js';
import { sqliteFileName, SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { until } from '../../support/until.js';
import {
  listenInProcess,
  postWithToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** Runs `sql` on the inbox's database through a connection of its own, beside the running receiver. */
function onInbox(inbox: string, sql: string): void {
  const database = new DatabaseSync(join(inbox, sqliteFileName));
  try {
    database.exec('PRAGMA busy_timeout = 5000');
    database.exec(sql);
  } finally {
    database.close();
  }
}

async function health(url: string): Promise<{ code: number; body: { status: string; problems: unknown[] } }> {
  const answer = await fetch(`${url}/healthz`);
  return { code: answer.status, body: (await answer.json()) as { status: string; problems: unknown[] } };
}

describe('webhook listen --exec: a store that cannot record the command', () => {
  it('/healthz answers 503 "store cannot write" while the record fails, and ok once it goes through', async () => {
    const inbox = temporaryFolder();
    await (await SqliteStore.open(inbox)).close();
    onInbox(
      inbox,
      "CREATE TRIGGER full_disk BEFORE INSERT ON command_runs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END",
    );
    const imported = join(inbox, 'imported.txt');
    const { url, stop } = await listenInProcess(
      inbox,
      { exec: `cat > /dev/null; echo "$B2BCTL_EVENT_ID" >> '${imported}'` },
      { clock: systemClock },
    );
    try {
      expect((await postWithToken(url, 'customers', { id: 1 })).status).toBe(200);
      await until(async () => (await health(url)).code === 503, '/healthz to say the store cannot write', {
        deadlineMs: 10_000,
        everyMs: 50,
      });
      const failing = await health(url);
      expect(failing.body.status).toBe('degraded');
      expect(failing.body.problems).toEqual([{ problem: 'store cannot write', seconds: expect.any(Number) }]);
      // The command never ran: its group could not be recorded.
      expect(existsSync(imported)).toBe(false);
      onInbox(inbox, 'DROP TRIGGER full_disk');
      await until(() => existsSync(imported), 'the command to run', { deadlineMs: 20_000, everyMs: 50 });
      expect(readFileSync(imported, 'utf8')).toBe('1\n');
      const back = await health(url);
      expect([back.code, back.body.status, back.body.problems]).toEqual([200, 'ok', []]);
    } finally {
      await stop();
    }
  });
});
