/**
 * Builds before the s3-1 fix kept the ERP's echo of its forward credential in clear in dead letters. With the
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
import type { EventStore } from '../../../src/webhook/store/types.js';
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

/** Where a test's store is: an inbox folder (SQLite) or a database URL (PostgreSQL). */
interface Place {
  open: () => Promise<EventStore>;
  listen: Partial<ListenOptions>;
  flags: string[];
  /** The fingerprints the store keeps of what it masked. */
  fingerprints: () => Promise<string[]>;
}

/** Keeps one more event and a dead letter for it whose error is `error`, written as a build before s3-1 did. */
async function keepDeadLetter(place: Place, error: string): Promise<void> {
  const store = await place.open();
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

  it('a second start with the same token does not scan again; another credential does', async () => {
    // Kept after the first start's scrub: a second start that scanned would mask it.
    await keepDeadLetter(place(), `HTTP 401: token ${erpToken} again`);
    const second = await startAndStop(place(), { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken });
    expect(second).not.toContain('Masked');
    expect((await keptErrors(place()))[1]).toBe(`HTTP 401: token ${erpToken} again`);

    await keepDeadLetter(place(), `HTTP 401: token ${otherToken} refused`);
    const rotated = await startAndStop(place(), { B2BCTL_WEBHOOK_FORWARD_TOKEN: otherToken });
    expect(rotated).toContain('in 1 dead letter kept');
    expect((await keptErrors(place()))[2]).toBe('HTTP 401: token [redacted] refused');
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
    expect((await keptErrors(place()))[3]).toBe('HTTP 422: user usr pass [redacted]');
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
    open: () => SqliteStore.open(inbox),
    listen: { inbox },
    flags: ['--inbox', inbox],
    fingerprints,
  }));
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
    open: () => PostgresStore.open(url),
    listen: { store: url },
    flags: ['--store', url],
    fingerprints,
  }));
});
