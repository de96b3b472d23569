import { copyFileSync, readFileSync } from 'node:fs';
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
import { run as dead } from '../../../src/commands/webhook/dead.js';
import { run as replay } from '../../../src/commands/webhook/replay.js';
import { migratePostgres, postgresMigrations } from '../../../src/webhook/store/postgres-migrations.js';
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

  it('webhook inbox and replay read it as it is, with or without a receiver running: the file is not changed', async () => {
    const inbox = oldInbox();
    await leftAsItIs(inbox, async () => {
      const listing = context();
      expect(await listing.run(listInbox, { inbox })).toBe(ExitCode.ok);
      expect(listing.stdout().trim().split('\n')).toHaveLength(7);
      const replaying = context();
      expect(await replaying.run(replay, replayOfOne(inbox))).toBe(ExitCode.ok);
      expect(replaying.stderr()).toContain('Replayed 1 event');
    });
  });

  it('webhook status and dead never bring it up to date, with or without a receiver running: exit 75, one line saying who does', async () => {
    const inbox = oldInbox();
    await leftAsItIs(inbox, async () => {
      for (const [name, runIt] of readersBesideTheReceiver(inbox)) {
        const memory = context();
        expect(await runIt(memory)).toBe(ExitCode.interrupted);
        expect(memory.stdout()).toBe('');
        expect(memory.stderr().trim().split('\n')).toEqual([
          `error: ${olderRefusal(`SQLite ${join(inbox, sqliteFileName)}`, 0, name)}`,
        ]);
      }
    });
  });
});

/**
 * Runs `readers` on the older SQLite inbox twice, without and then with a receiver's lock held (a receiver running),
 * and checks that the file is byte for byte as it was, still at version 0.
 */
async function leftAsItIs(inbox: string, readers: () => Promise<void>): Promise<void> {
  const before = readFileSync(join(inbox, sqliteFileName));
  for (const receiverRunning of [false, true]) {
    const receiver = receiverRunning
      ? acquireLock(join(inbox, receiverLockName), 'webhook listen', () => undefined)
      : () => undefined;
    try {
      await readers();
    } finally {
      receiver();
    }
  }
  expect(versionOf(inbox)).toBe(0);
  expect(readFileSync(join(inbox, sqliteFileName)).equals(before)).toBe(true);
}

/** The commands beside the receiver that need the newest tables, each with its name and a run of it on the store. */
function readersBesideTheReceiver(
  inbox: string,
  store?: string,
): [string, (memory: ReturnType<typeof context>) => Promise<number>][] {
  return [
    ['webhook status', (memory) => memory.run(status, { inbox, store, stuckAfter: 900_000 })],
    ['webhook dead list', (memory) => memory.run(dead, { action: 'list', ids: [], inbox, store })],
    ['webhook dead retry', (memory) => memory.run(dead, { action: 'retry', ids: [3], inbox, store })],
  ];
}

/** `webhook replay --id 6 --exec 'cat > /dev/null'`: reads the events only, which every version holds alike. */
function replayOfOne(inbox: string, store?: string) {
  return { inbox, store, id: [6], exec: 'cat > /dev/null', attempts: 1, execTimeout: 10_000 };
}

/** The line an older inbox is refused with by a command that does not bring it up to date. */
function olderRefusal(description: string, found: number, command: string): string {
  return `The inbox ${description} has schema version ${found}; this b2bctl (0.0.0-test) writes version ${sqliteMigrations.length}. Only the receiver brings an inbox up to date, when it starts: restart webhook listen with this b2bctl, then run ${command} again.`;
}

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

describe(`a PostgreSQL store older than this b2bctl, receivers of the older one still writing to it${postgres.note}`, () => {
  it.skipIf(postgres.missing)(
    'webhook status and dead refuse it in one line, webhook inbox and replay read it, and none changes its version',
    async () => {
      const cluster = await startPostgres();
      try {
        for (const [name, version] of [
          ['release_store', 0],
          ['one_step_behind', postgresMigrations.length - 1],
        ] as const) {
          const url = await createDatabase(cluster, name);
          await withClient(url, async (client) => {
            await client.query(readFileSync(new URL('../../fixtures/inbox/postgres-v1.sql', import.meta.url), 'utf8'));
            if (version > 0) await migratePostgres(client, 'test store', postgresMigrations.slice(0, version));
          });
          for (const [commandName, runIt] of readersBesideTheReceiver(temporaryFolder(), url)) {
            const memory = context();
            expect(await runIt(memory)).toBe(ExitCode.interrupted);
            expect(memory.stdout()).toBe('');
            expect(memory.stderr().trim().split('\n')).toEqual([
              `error: ${olderRefusal(`PostgreSQL ${name}@127.0.0.1`, version, commandName)}`,
            ]);
          }
          const listing = context();
          expect(await listing.run(listInbox, { inbox: temporaryFolder(), store: url })).toBe(ExitCode.ok);
          expect(listing.stdout().trim().split('\n')).toHaveLength(7);
          const replaying = context();
          expect(await replaying.run(replay, replayOfOne(temporaryFolder(), url))).toBe(ExitCode.ok);
          expect(await postgresVersionOf(url)).toEqual(version === 0 ? [] : [{ version }]);
        }
      } finally {
        cluster.stop();
      }
    },
    120_000,
  );

  it.skipIf(postgres.missing)(
    'webhook inbox on a database no receiver has used makes no tables: exit 66, one line saying so',
    async () => {
      const cluster = await startPostgres();
      try {
        const url = await createDatabase(cluster, 'no_receiver_yet');
        const memory = context();
        expect(await memory.run(listInbox, { inbox: temporaryFolder(), store: url })).toBe(ExitCode.inputMissing);
        expect(memory.stdout()).toBe('');
        expect(memory.stderr().trim().split('\n')).toEqual([
          'error: PostgreSQL no_receiver_yet@127.0.0.1 holds no inbox: no receiver has started on it. Check --store, or start webhook listen --store on it first.',
        ]);
        const tables = await withClient(url, (client) =>
          client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'"),
        );
        expect(tables.rows).toEqual([]);
      } finally {
        cluster.stop();
      }
    },
    120_000,
  );
});

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The version row of a store, none when it has no `schema_version` table (a store of 0.1.0). */
async function postgresVersionOf(url: string): Promise<unknown[]> {
  return withClient(url, async (client) => {
    const present = await client.query("SELECT to_regclass('schema_version') IS NOT NULL AS found");
    if (present.rows[0]?.found !== true) return [];
    return (await client.query('SELECT version FROM schema_version')).rows;
  });
}
