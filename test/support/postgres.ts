import { Client } from 'pg';
import type { TestPostgres } from '../../bench/lib/postgres.mjs';

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
