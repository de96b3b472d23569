/**
 * An inbox whose `inbox.sqlite` is damaged (cut short by a half-copied backup restored, overwritten), a user test.
 * `webhook listen` said "Cannot open the inbox folder … (ERR_SQLITE_ERROR); choose another with --inbox DIR"
 * (exit 66), advice that starts an empty inbox and leaves the stored events behind, and the readers said SQLite's
 * bare "database disk image is malformed", exit 1. Each now names the file, SQLite's reason and how to recover it,
 * exit 65.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeTemporaryFolders);

/** An inbox holding `events` events, its database file then cut to a quarter of its size. */
async function damagedInbox(events: number): Promise<string> {
  const inbox = join(temporaryFolder(), 'inbox');
  mkdirSync(inbox, { mode: 0o700 });
  const store = await SqliteStore.open(inbox);
  for (let index = 0; index < events; index++)
    await store.append({
      receivedAt: Date.UTC(2026, 10, 30, 20, 0, index),
      kind: 'orders',
      deliveryId: `d${index}`,
      key: `orders:${index}`,
      flags: [],
      clientAddress: '127.0.0.1',
      raw: JSON.stringify({ id: index, padding: 'x'.repeat(2_000) }),
    });
  await store.close();
  const file = join(inbox, 'inbox.sqlite');
  const bytes = readFileSync(file);
  writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 4)));
  return inbox;
}

/** A file that is no database at all where inbox.sqlite should be. */
function inboxOfText(): string {
  const inbox = join(temporaryFolder(), 'inbox');
  mkdirSync(inbox, { mode: 0o700 });
  writeFileSync(join(inbox, 'inbox.sqlite'), `not a database ${'.'.repeat(200)}\n`, { mode: 0o600 });
  return inbox;
}

const damaged = (inbox: string, reason: string) =>
  `The inbox database ${join(inbox, 'inbox.sqlite')} is damaged (SQLite: ${reason}); nothing was read or stored. Stop every receiver of it, keep a copy of the file, then recover it (sqlite3 ${join(inbox, 'inbox.sqlite')} .recover | sqlite3 recovered.sqlite, and put recovered.sqlite in its place) or restore a backup. Moving it aside or choosing another --inbox starts an empty inbox: its events not yet handed off and its dead letters would be left behind.`;

describe('a damaged inbox database', () => {
  it('webhook listen: names the file and SQLite reason, how to recover it, exit 65', async () => {
    const inbox = await damagedInbox(400);
    const result = await runCommandLine(['webhook', 'listen', '--port', '0', '--client-id', 'erp', '--inbox', inbox], {
      configDir: freshConfigDir(),
      env: { B2BCTL_WEBHOOK_CLIENT_SECRET: 'a'.repeat(64) },
    });
    expect(result.stderr).toBe(`error: ${damaged(inbox, 'database disk image is malformed')}\n`);
    expect(result.stderr).not.toContain('choose another with --inbox');
    expect(result.code).toBe(65);
  });

  it.each([['inbox'], ['status'], ['dead', 'list']])('webhook %s: the same line, exit 65', async (...command) => {
    const inbox = await damagedInbox(400);
    const result = await runCommandLine(['webhook', ...command, '--inbox', inbox], { configDir: freshConfigDir() });
    expect(result.stderr).toBe(`error: ${damaged(inbox, 'database disk image is malformed')}\n`);
    expect(result.code).toBe(65);
  });

  it('a file that is no database at all: "file is not a database", exit 65', async () => {
    const inbox = inboxOfText();
    const result = await runCommandLine(['webhook', 'inbox', '--inbox', inbox], { configDir: freshConfigDir() });
    expect(result.stderr).toBe(`error: ${damaged(inbox, 'file is not a database')}\n`);
    expect(result.code).toBe(65);
  });
});
