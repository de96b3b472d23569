/**
 * Older builds kept the ERP's echo of its forward credential in clear in dead letters. With the
 * credential configured, `webhook listen` masks it in the kept letters as it starts (and `webhook dead list` as it
 * lists), once per credential: a fingerprint (an HMAC under the inbox's own key) remembers it, so a later start
 * does not read the dead letters again. Both stores.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type ListenOptions } from '../../../src/commands/webhook/listen.js';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import type { EventStore, StoreOptions } from '../../../src/webhook/store/types.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireThat } from '../../support/external-tools.js';
import { createDatabase, postgresBin, startPostgres, type TestPostgres } from '../../support/postgres.js';
import { testContext } from '../../support/test-context.js';
import { clientSecret, listenOptions, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const erpToken = 'FWDTOK-SECRET-abcdef0123456789';
const otherToken = 'FWDTOK-ROTATED-9876543210fedcba';
const basicPassword = 'FWDPW-SECRET';
// Nothing listens there: the receivers of these tests deliver nothing (no event is pending).
const erpUrl = 'http://127.0.0.1:7960/hooks';
const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);

const fingerprintsQuery = 'SELECT fingerprint FROM scrubbed_secrets';
/** The time the receivers of these tests read on their clock (test-context.ts's fake clock). */
const receiverClock = Date.UTC(2026, 10, 23, 12, 0, 0);

/** Where a test's store is: an inbox folder (SQLite) or a database URL (PostgreSQL). */
interface Place {
  open: (options?: StoreOptions) => Promise<EventStore>;
  listen: Partial<ListenOptions>;
  flags: string[];
  /** The fingerprints the store keeps of what it masked. */
  fingerprints: () => Promise<string[]>;
}

/**
 * Keeps one more event and a dead letter for it whose error is `error`, written as an older build did (or an
 * older receiver still running on a shared store), at `diedAt` (now when not given).
 */
async function keepDeadLetter(place: Place, error: string, diedAt?: number): Promise<void> {
  const store = await place.open({ now: () => diedAt ?? Date.now() });
  try {
    const id = (await store.deadLetters()).length + 1;
    const raw = JSON.stringify({ id });
    await store.append({
      receivedAt: Date.parse('2026-11-23T06:00:00Z'),
      kind: 'orders',
      deliveryId: `d-${id}`,
      key: `orders:${id}`,
      flags: [],
      clientAddress: '203.0.113.7',
      raw,
    });
    await store.openHandOff('forward', erpUrl, true);
    const [event] = (await store.pendingForHandOff('forward', undefined, 1)).events;
    await store.markDead('forward', event as never, error, 1);
  } finally {
    await store.close();
  }
}

/** The dead letters' errors as the store keeps them (not as `dead list` shows them). */
async function keptErrors(place: Place): Promise<string[]> {
  const store = await place.open();
  try {
    return (await store.deadLetters()).map((letter) => letter.error);
  } finally {
    await store.close();
  }
}

/** Starts the receiver with `env` and stops it once it serves: returns what it logged. */
async function startAndStop(place: Place, env: Record<string, string>): Promise<string> {
  const memory = testContext({
    env: { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret, ...env },
  });
  const running = run(listenOptions(temporaryFolder(), { forwardTo: erpUrl, ...place.listen }), memory.context);
  await memory.firstLine();
  memory.interrupt();
  await running;
  return memory.stderr();
}

function scrubTests(place: () => Place): void {
  it('a dead letter holding the token in clear is masked at start; the fingerprint is no form of the token', async () => {
    await keepDeadLetter(place(), `HTTP 401: {"message": "token ${erpToken} not valid"}`);
    const log = await startAndStop(place(), { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken });
    expect(log).toContain("Masked the ERP's forward credential in 1 dead letter kept by an earlier b2bctl.");
    expect(log).not.toContain(erpToken);
    expect(await keptErrors(place())).toEqual(['HTTP 401: {"message": "token [redacted] not valid"}']);
    const kept = await place().fingerprints();
    expect(kept).toHaveLength(1);
    const plainHashes = ['hex', 'base64'].map((encoding) =>
      createHash('sha256')
        .update(erpToken)
        .digest(encoding as 'hex' | 'base64'),
    );
    for (const fingerprint of kept) {
      expect(fingerprint).not.toContain(erpToken.slice(7));
      expect(plainHashes).not.toContain(fingerprint);
    }
  });

  it('a later start masks what was kept in clear since the last scan (an older receiver on a shared store)', async () => {
    // Kept after the first start's scrub, as an older receiver still running on the shared store keeps it.
    await keepDeadLetter(place(), `HTTP 401: token ${erpToken} again`);
    const second = await startAndStop(place(), { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken });
    expect(second).toContain("Masked the ERP's forward credential in 1 dead letter kept by an earlier b2bctl.");
    expect(second).not.toContain(erpToken);
    expect((await keptErrors(place()))[1]).toBe('HTTP 401: token [redacted] again');
    // Only the letters that died since the last scan (less an hour) are read again, not every letter at each start:
    // one stamped two hours before it is left as it is (no receiver writes a letter in the past). The receivers here
    // run on the test context's clock.
    await keepDeadLetter(place(), `HTTP 401: token ${erpToken} of long ago`, receiverClock - 2 * 3_600_000);
    expect(await startAndStop(place(), { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken })).not.toContain('Masked');
    expect((await keptErrors(place()))[2]).toBe(`HTTP 401: token ${erpToken} of long ago`);
    // Another credential is new to the store: every letter is read for it.
    await keepDeadLetter(place(), `HTTP 401: token ${otherToken} refused`, receiverClock - 3 * 3_600_000);
    const rotated = await startAndStop(place(), { B2BCTL_WEBHOOK_FORWARD_TOKEN: otherToken });
    expect(rotated).toContain('in 1 dead letter kept');
    expect((await keptErrors(place()))[3]).toBe('HTTP 401: token [redacted] refused');
  });

  it('webhook dead list with B2BCTL_WEBHOOK_FORWARD_BASIC masks the password in the store and in what it prints', async () => {
    await keepDeadLetter(place(), `HTTP 422: user usr pass ${basicPassword}`);
    const listed = await runCommandLine(['webhook', 'dead', 'list', ...place().flags, '-o', 'json'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_WEBHOOK_FORWARD_BASIC: `usr:${basicPassword}` },
    });
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(basicPassword);
    expect(listed.stderr).toContain('in 1 dead letter kept');
    expect((await keptErrors(place()))[4]).toBe('HTTP 422: user usr pass [redacted]');
  });
}

describe('dead letters of an earlier build, SQLite inbox', () => {
  const inbox = temporaryFolder();
  const fingerprints = async () => {
    const database = new DatabaseSync(join(inbox, 'inbox.sqlite'));
    try {
      return database
        .prepare(fingerprintsQuery)
        .all()
        .map((row) => String(row.fingerprint));
    } finally {
      database.close();
    }
  };
  scrubTests(() => ({
    open: (options) => SqliteStore.open(inbox, options),
    listen: { inbox },
    flags: ['--inbox', inbox],
    fingerprints,
  }));
});

/** A fresh SQLite inbox folder, and the place of it whose fingerprints the test does not read. */
function freshSqliteInbox(): { inbox: string; place: Place } {
  const inbox = temporaryFolder();
  return {
    inbox,
    place: {
      open: () => SqliteStore.open(inbox),
      listen: { inbox },
      flags: ['--inbox', inbox],
      fingerprints: async () => [],
    },
  };
}

describe('dead letters of an earlier build that quote what an --exec command printed', () => {
  it('the secrets given to the command (--exec-env, its own assignments) are masked at the start, once', async () => {
    const { inbox, place } = freshSqliteInbox();
    const erpSecret = 'ERPSECRET-0123456789abcdef';
    const dbPassword = 'DBPW-fedcba9876543210';
    // What a build before the masking kept: the command's last three lines, in clear.
    await keepDeadLetter(
      place,
      `exit code 1: curl: login with ERP_TOKEN=${erpSecret} refused | psql: password ${dbPassword} rejected | done`,
    );
    const startWithExec = async () => {
      const memory = testContext({
        env: {
          B2BCTL_CONFIG_DIR: temporaryFolder(),
          B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret,
          ERP_TOKEN: erpSecret,
        },
      });
      const options = listenOptions(inbox, { exec: `DB_PASSWORD=${dbPassword} ./import.sh`, execEnv: ['ERP_TOKEN'] });
      const running = run(options, memory.context);
      await memory.firstLine();
      memory.interrupt();
      await running;
      return memory.stderr();
    };
    const first = await startWithExec();
    expect(first).toContain(
      'Masked the secrets given to the --exec command (its --exec-env values and the variables its command line sets) in 1 dead letter kept by an earlier b2bctl.',
    );
    expect(first).not.toContain(erpSecret);
    expect(await keptErrors(place)).toEqual([
      'exit code 1: curl: login with ERP_TOKEN=[redacted] refused | psql: password [redacted] rejected | done',
    ]);
    // Remembered: a second start with the same secrets says nothing and reads no dead letter again.
    expect(await startWithExec()).not.toContain('Masked');
  });
});

describe('webhook dead list when the scrub cannot write the store', () => {
  it('lists the dead letters, masked as shown, with one warning saying the store still holds the credential', async () => {
    const { inbox, place } = freshSqliteInbox();
    await keepDeadLetter(place, `HTTP 401: {"message": "token ${erpToken} not valid"}`);
    // Another connection holds the write lock past the store's busy wait (5 s), as a reader who may not write the
    // file, or a receiver in a long commit, leaves the scrub unable to write; reading goes on beside it (WAL).
    const holder = new DatabaseSync(join(inbox, 'inbox.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const listed = await runCommandLine(['webhook', 'dead', 'list', ...place.flags, '-o', 'json'], {
        configDir: freshConfigDir(),
        env: { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken },
      });
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ eventId: 1, error: 'HTTP 401: {"message": "token [redacted] not valid"}' }),
      ]);
      const warnings = listed.stderr.split('\n').filter((line) => line.includes('warning'));
      expect(warnings).toEqual([
        expect.stringContaining(
          `warning: the forward credential was not masked in the dead letters kept in SQLite ${join(inbox, 'inbox.sqlite')} (database is locked); this list masks it as it shows them, but the store still holds it in clear. Run b2bctl webhook dead list once as the user the receiver runs as`,
        ),
      ]);
      expect(listed.stderr).toContain('1 dead letter.');
      expect(listed.stderr).not.toContain(erpToken);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    // Nothing was written: the next run with the lock free masks it in the store.
    expect(await keptErrors(place)).toEqual([`HTTP 401: {"message": "token ${erpToken} not valid"}`]);
  }, 20_000);
});

describe.skipIf(postgres.missing)(`dead letters of an earlier build, PostgreSQL store${postgres.note}`, () => {
  let cluster: TestPostgres | undefined;
  let url = '';
  beforeAll(async () => {
    cluster = await startPostgres();
    url = await createDatabase(cluster, 'scrubbed');
  }, 120_000);
  afterAll(() => cluster?.stop());
  const fingerprints = async () => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ fingerprint: string }>(fingerprintsQuery)).rows.map((row) => row.fingerprint);
    } finally {
      await client.end();
    }
  };
  scrubTests(() => ({
    open: (options) => PostgresStore.open(url, options),
    listen: { store: url },
    flags: ['--store', url],
    fingerprints,
  }));

  it('webhook dead list as a role that may only read lists, masked as shown, with one warning, exit 0', async () => {
    const place: Place = { open: () => PostgresStore.open(url), listen: {}, flags: [], fingerprints };
    await keepDeadLetter(place, `HTTP 401: token ${otherToken} refused again`);
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query('CREATE ROLE dead_reader LOGIN');
      await admin.query('GRANT SELECT ON ALL TABLES IN SCHEMA public TO dead_reader');
    } finally {
      await admin.end();
    }
    const asReader = url.replace('postgres@', 'dead_reader@');
    const listed = await runCommandLine(['webhook', 'dead', 'list', '--store', asReader, '-o', 'json'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_WEBHOOK_FORWARD_TOKEN: otherToken },
    });
    expect(listed.code).toBe(0);
    const errors = (JSON.parse(listed.stdout) as { error: string }[]).map((letter) => letter.error);
    expect(errors.at(-1)).toBe('HTTP 401: token [redacted] refused again');
    expect(listed.stdout).not.toContain(otherToken);
    const warnings = listed.stderr.split('\n').filter((line) => line.includes('warning'));
    expect(warnings).toEqual([
      expect.stringMatching(
        /warning: the forward credential was not masked in the dead letters kept in PostgreSQL scrubbed@127\.0\.0\.1 \(.+\); this list masks it as it shows them, but the store still holds it in clear\. Run b2bctl webhook dead list once as the user the receiver runs as/,
      ),
    ]);
    expect((await keptErrors(place)).at(-1)).toBe(`HTTP 401: token ${otherToken} refused again`);
  });
});
