import { Client } from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { postgresBin, startPostgres, type TestPostgres } from '../../bench/lib/postgres.mjs';
import { type Requirement, requireThat } from './external-tools.js';

// One implementation for the tests and the benchmarks (bench/webhooks.mjs).
export { postgresBin, startPostgres, type TestPostgres } from '../../bench/lib/postgres.mjs';

/** Creates an empty database `name` in the cluster and returns its URL: each test gets a store of its own. */
export async function createDatabase(cluster: TestPostgres, name: string): Promise<string> {
  const admin = new Client({ connectionString: cluster.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url.replace(/\/webhooks$/, `/${name}`);
}

/**
 * One throwaway PostgreSQL cluster for a test file: call it at the file's top. `missing` and `note` say whether the
 * server is installed here (a test that needs it is skipped, naming why); `cluster()`, inside a test, is the cluster,
 * started before the file's first test and stopped after its last.
 */
export function usePostgresCluster(): Requirement & { cluster: () => TestPostgres } {
  const installed = requireThat(
    postgresBin() !== undefined,
    'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
  );
  let started: TestPostgres | undefined;
  beforeAll(async () => {
    if (!installed.missing) started = await startPostgres();
  }, 120_000);
  afterAll(() => started?.stop());
  const cluster = () => {
    if (!started) throw new Error('usePostgresCluster(): the cluster exists only inside a test, where it is installed');
    return started;
  };
  return { ...installed, cluster };
}
