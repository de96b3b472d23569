import { Client } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InterruptedError, UsageError } from '../../../src/base/errors.js';
import { schemaLock } from '../../../src/webhook/store/postgres-migrations.js';
import { openingLimitMs, StoreUnansweredError } from '../../../src/webhook/store/postgres-opening.js';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import { requireThat } from '../../support/external-tools.js';
import { createDatabase, postgresBin, startPostgres, type TestPostgres } from '../../support/postgres.js';

// Opening a PostgreSQL store has a time limit and stops on the command's interrupt: a database that takes the
// connection and never answers held webhook status and listen for ever, deaf to SIGTERM (the silent listener's
// cases are in test/commands/webhook/store-unanswered.test.ts). Here the limit's setting, and a real database whose
// first statements wait (another session holds the schema lock): the limit covers them too.

describe('the time opening a PostgreSQL store may take', () => {
  const url = 'postgres://hooks@db.internal/webhooks';

  it.each([
    ['neither connect_timeout nor PGCONNECT_TIMEOUT: 10 s', url, {}, 10_000],
    ["the URL's connect_timeout, in seconds", `${url}?connect_timeout=3`, {}, 3_000],
    ['PGCONNECT_TIMEOUT when the URL has none', url, { PGCONNECT_TIMEOUT: '4' }, 4_000],
    ['the URL before PGCONNECT_TIMEOUT', `${url}?connect_timeout=3`, { PGCONNECT_TIMEOUT: '4' }, 3_000],
    ['0: as long as it takes, as in libpq', `${url}?connect_timeout=0`, {}, undefined],
  ])('%s', (_case, given, environment, expected) => {
    expect(openingLimitMs(given, environment)).toBe(expected);
  });

  it.each([
    [`${url}?connect_timeout=2.5`, {}, 'connect_timeout in the store URL is "2.5"'],
    [`${url}?connect_timeout=-1`, {}, 'connect_timeout in the store URL is "-1"'],
    [url, { PGCONNECT_TIMEOUT: 'ten' }, 'PGCONNECT_TIMEOUT is "ten"'],
  ])('refuses %s %j as a usage error', (given, environment, message) => {
    expect(() => openingLimitMs(given, environment)).toThrow(UsageError);
    expect(() => openingLimitMs(given, environment)).toThrow(
      `${message}: give a whole number of seconds to wait for the store (0 waits as long as it takes).`,
    );
  });
});

const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);

let cluster: TestPostgres | undefined;
let databases = 0;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end();
});
afterAll(() => cluster?.stop());

/** A fresh database whose schema lock a session of the test's own holds: a store opening there waits on it. */
async function lockedDatabase(): Promise<{ url: string; holder: Client }> {
  const url = await createDatabase(cluster as TestPostgres, `opening_${++databases}`);
  const holder = new Client({ connectionString: url });
  await holder.connect();
  clients.push(holder);
  await holder.query('SELECT pg_advisory_lock($1)', [schemaLock]);
  return { url, holder };
}

/** The sessions of other clients in `holder`'s database, apart from the holder itself. */
async function otherSessions(holder: Client): Promise<number> {
  const found = await holder.query<{ n: string }>(
    'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  return Number(found.rows[0]?.n);
}

/**
 * True once the store's session, let go by the holder, has found b2bctl gone and ended without committing: PostgreSQL
 * notices a client that hung up only when it next answers, so the wait on the lock outlives the client until then.
 */
async function hungUpWithNothingMade(holder: Client): Promise<boolean> {
  await holder.query('SELECT pg_advisory_unlock($1)', [schemaLock]);
  await expect.poll(() => otherSessions(holder)).toBe(0);
  const tables = await holder.query("SELECT 1 FROM pg_tables WHERE tablename = 'schema_version'");
  return tables.rowCount === 0;
}

describe.skipIf(postgres.missing)(`PostgreSQL store, first statements unanswered${postgres.note}`, () => {
  beforeAll(async () => {
    cluster ??= await startPostgres();
  }, 120_000);

  it('the limit covers the first statements: it ends, hung up, and nothing of the schema is made', async () => {
    const { url, holder } = await lockedDatabase();
    const port = new URL(url).port;
    const opening = PostgresStore.open(`${url}?connect_timeout=1`);
    await expect(opening).rejects.toMatchObject({
      failure: expect.any(StoreUnansweredError),
      place: `127.0.0.1:${port}`,
      message: 'took the connection but did not answer within 1 s',
    });
    await expect(hungUpWithNothingMade(holder)).resolves.toBe(true);
  });

  it('an interrupt while the first statements wait stops it at once, naming the store', async () => {
    const { url, holder } = await lockedDatabase();
    const interrupt = new AbortController();
    const opening = PostgresStore.open(url, { interrupt: interrupt.signal });
    // Waiting on the lock: the store's session is there, its statement not answered.
    await expect.poll(() => otherSessions(holder)).toBe(1);
    interrupt.abort('SIGINT');
    await expect(opening).rejects.toThrow(InterruptedError);
    await expect(opening).rejects.toThrow(
      `Stopped by SIGINT while waiting for the PostgreSQL store at 127.0.0.1:${new URL(url).port}.`,
    );
    await expect(hungUpWithNothingMade(holder)).resolves.toBe(true);
  });

  it('a store that answers opens within the limit and is used after it as before', async () => {
    const { url, holder } = await lockedDatabase();
    await holder.query('SELECT pg_advisory_unlock($1)', [schemaLock]);
    const store = await PostgresStore.open(`${url}?connect_timeout=5`);
    try {
      await store.openHandOff('erp', 'http://erp', true);
      expect(await store.backlog()).toMatchObject([{ name: 'erp', pending: 0 }]);
    } finally {
      await store.close();
    }
  });
});
