import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/base/errors.js';
import { acquireLock } from '../../../src/config/lock.js';
import { run as status } from '../../../src/commands/webhook/status.js';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { run as listen } from '../../../src/commands/webhook/listen.js';
import { postgresMigrations } from '../../../src/webhook/store/postgres-migrations.js';
import { receiverLockName } from '../../../src/webhook/store/open.js';
import { sqliteMigrations } from '../../../src/webhook/store/sqlite-migrations.js';
import { sqliteFileName } from '../../../src/webhook/store/sqlite-store.js';
import { requireThat } from '../../support/external-tools.js';
import { createDatabase, postgresBin, startPostgres } from '../../support/postgres.js';
import { testContext } from '../../support/test-context.js';
import { clientSecret, listenOptions, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { until } from '../../support/until.js';

// The receiver and the inbox reader on an inbox of b2bctl 0.1.0 (test/fixtures/inbox/README.md), and on one
// written by a b2bctl newer than this one.

afterAll(removeReceiverFolders);

const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);

function oldInbox(userVersion?: number): string {
  const directory = temporaryFolder();
  const file = join(directory, sqliteFileName);
  copyFileSync(new URL('../../fixtures/inbox/v1/inbox.sqlite', import.meta.url), file);
  if (userVersion !== undefined) {
    const database = new DatabaseSync(file);
    database.exec(`PRAGMA user_version = ${userVersion}`);
    database.close();
  }
  return directory;
}

function context() {
  return testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret } });
}

/** An ERP that takes every event and keeps their ids. */
async function startErp(): Promise<{ url: string; taken: number[]; close: () => void }> {
  const taken: number[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      taken.push((JSON.parse(body) as { id: number }).id);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/hooks`, taken, close: () => server.close() };
}

describe('an inbox of b2bctl 0.1.0', () => {
  it('webhook listen takes it up: the erp hand-off goes on with the two events it had not delivered', async () => {
    const inbox = oldInbox();
    const erp = await startErp();
    try {
      const memory = context();
      const running = memory.run(listen, listenOptions(inbox, { forwardTo: erp.url, handoff: 'erp' }));
      await memory.firstLine();
      await until(() => erp.taken.length >= 2, 'two deliveries', { deadlineMs: 30_000 });
      memory.interrupt();
      await running;
      expect(erp.taken).toEqual([6, 7]);
      const database = new DatabaseSync(join(inbox, sqliteFileName), { readOnly: true });
      expect(database.prepare('PRAGMA user_version').get()).toEqual({ user_version: sqliteMigrations.length });
      database.close();
    } finally {
      erp.close();
    }
  });

  it('webhook inbox lists its seven events', async () => {
    const memory = context();
    expect(await memory.run(listInbox, { inbox: oldInbox() })).toBe(ExitCode.ok);
    const events = memory
      .stdout()
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { event: { id: number } }).event.id);
    expect(events).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('with no receiver running, webhook inbox brings it up to date under the receiver lock, and leaves no lock', async () => {
    const inbox = oldInbox();
    const memory = context();
    expect(await memory.run(listInbox, { inbox })).toBe(ExitCode.ok);
    expect(versionOf(inbox)).toBe(sqliteMigrations.length);
    expect(existsSync(join(inbox, receiverLockName))).toBe(false);
  });

  it('under a running receiver (an older one, not yet restarted), webhook status and webhook inbox change nothing: exit 75 and what to do', async () => {
    const inbox = oldInbox();
    const before = readFileSync(join(inbox, sqliteFileName));
    const receiver = acquireLock(join(inbox, receiverLockName), 'webhook listen', () => undefined);
    try {
      for (const [command, name] of [
        [status, 'webhook status'],
        [listInbox, 'webhook inbox'],
      ] as const) {
        const memory = context();
        expect(await memory.run(command, { inbox, stuckAfter: 900 })).toBe(ExitCode.interrupted);
        expect(memory.stdout()).toBe('');
        expect(memory.stderr().trim().split('\n')).toEqual([
          expect.stringMatching(
            new RegExp(
              `^error: The inbox in ${inbox} has schema version 0, which this b2bctl \\(0\\.0\\.0-test\\) brings up to ${sqliteMigrations.length} only while no receiver runs on it\\. Another "webhook listen" is running \\(PID ${process.pid}, .* Stop that receiver and start it with this b2bctl \\(it brings the inbox up to date\\), then run ${name} again\\.$`,
            ),
          ),
        ]);
      }
      expect(readFileSync(join(inbox, sqliteFileName)).equals(before)).toBe(true);
    } finally {
      receiver();
    }
  });
});

function versionOf(inbox: string): number {
  const database = new DatabaseSync(join(inbox, sqliteFileName), { readOnly: true });
  const { user_version: version } = database.prepare('PRAGMA user_version').get() as { user_version: number };
  database.close();
  return version;
}

/** The line a newer inbox is refused with. */
function refusal(inbox: string): string {
  return `The inbox SQLite ${join(inbox, sqliteFileName)} has schema version ${sqliteMigrations.length + 1}; this b2bctl (0.0.0-test) knows versions up to ${sqliteMigrations.length}. Use the newer b2bctl that upgraded it.`;
}

describe('an inbox newer than this b2bctl', () => {
  it('webhook listen exits 75 in one line naming both versions, listening on nothing, the inbox untouched', async () => {
    const inbox = oldInbox(sqliteMigrations.length + 1);
    const before = readFileSync(join(inbox, sqliteFileName));
    const erp = await startErp();
    try {
      const memory = context();
      expect(await memory.run(listen, listenOptions(inbox, { forwardTo: erp.url, handoff: 'erp' }))).toBe(
        ExitCode.interrupted,
      );
      expect(memory.stderr().trim().split('\n')).toEqual([`error: ${refusal(inbox)}`]);
      expect(memory.stdout()).toBe('');
      expect(erp.taken).toEqual([]);
      expect(readFileSync(join(inbox, sqliteFileName)).equals(before)).toBe(true);
    } finally {
      erp.close();
    }
  });

  it('webhook inbox exits 75 with the same line and lists nothing', async () => {
    const inbox = oldInbox(sqliteMigrations.length + 1);
    const memory = context();
    expect(await memory.run(listInbox, { inbox })).toBe(ExitCode.interrupted);
    expect(memory.stderr().trim().split('\n')).toEqual([`error: ${refusal(inbox)}`]);
    expect(memory.stdout()).toBe('');
  });
});

describe(`a PostgreSQL store newer than this b2bctl${postgres.note}`, () => {
  it.skipIf(postgres.missing)(
    'webhook listen --store exits 75 with the same line, not 69',
    async () => {
      const cluster = await startPostgres();
      try {
        const url = await createDatabase(cluster, 'newer_store');
        const admin = new Client({ connectionString: url });
        await admin.connect();
        await admin.query('CREATE TABLE schema_version (id INTEGER PRIMARY KEY, version INTEGER NOT NULL)');
        await admin.query('INSERT INTO schema_version VALUES (1, $1)', [postgresMigrations.length + 1]);
        await admin.end();
        const memory = context();
        expect(await memory.run(listen, listenOptions(temporaryFolder(), { store: url }))).toBe(ExitCode.interrupted);
        expect(memory.stderr().trim().split('\n')).toEqual([
          expect.stringMatching(
            new RegExp(
              `^error: The inbox PostgreSQL newer_store@[^ ]+ has schema version ${postgresMigrations.length + 1}; this b2bctl \\(0\\.0\\.0-test\\) knows versions up to ${postgresMigrations.length}\\. Use the newer b2bctl that upgraded it\\.$`,
            ),
          ),
        ]);
        expect(memory.stdout()).toBe('');
      } finally {
        cluster.stop();
      }
    },
    120_000,
  );
});
