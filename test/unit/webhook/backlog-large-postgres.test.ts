import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backlogHealth } from '../../../src/webhook/backlog.js';
import { backlogStatements } from '../../../src/webhook/store/backlog-queries.js';
import { PostgresStore } from '../../../src/webhook/store/postgres-store.js';
import { requireThat } from '../../support/external-tools.js';
import { createDatabase, postgresBin, startPostgres, type TestPostgres } from '../../support/postgres.js';

// The PostgreSQL side of backlog-large-store.test.ts: on a generated inbox, PostgreSQL's own plan for each health
// statement reads the events table through its primary key under a LIMIT (or max(id) from the index's end), never
// by a sequential scan; and the figures are right at that size. The handoffs and dead tables hold a row per
// hand-off and per dead letter: the planner may read them whole, which costs nothing the inbox's size adds.

const postgres = requireThat(
  postgresBin() !== undefined,
  'the PostgreSQL server (postgresql) is not installed here; .ci/run installs it',
);
const firstAt = Date.parse('2026-01-01T00:00:00Z');
const count = 300_000;

let cluster: TestPostgres | undefined;
afterAll(() => cluster?.stop());

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Each node of a plan as `Node Type [relation] [index]`, depth first. */
function planSteps(node: PlanNode): string[] {
  const here = [node['Node Type'], node['Relation Name'], node['Index Name']].filter(Boolean).join(' ');
  return [here, ...(node.Plans ?? []).flatMap(planSteps)];
}

/** PostgreSQL's plan for `sql` with `values` bound, as the store sends it (`?` numbered `$1`...). */
async function planOf(client: Client, sql: string, values: unknown[]): Promise<string[]> {
  let index = 0;
  const numbered = sql.replace(/\?/g, () => `$${++index}`);
  const answer = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
    `EXPLAIN (FORMAT JSON) ${numbered}`,
    values,
  );
  return planSteps((answer.rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0].Plan);
}

describe.skipIf(postgres.missing)(`backlog on a large PostgreSQL inbox${postgres.note}`, () => {
  beforeAll(async () => {
    cluster ??= await startPostgres();
  }, 120_000);

  it('answers from index probes of the events table only, with the right figures', { timeout: 180_000 }, async () => {
    const url = await createDatabase(cluster as TestPostgres, 'large_backlog');
    const store = await PostgresStore.open(url);
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`INSERT INTO events (received_at, kind, delivery_id, key, flags, client_address, event)
        SELECT ${firstAt} + n * 1000, 'orders', 'd' || n, 'k' || n, '[]', '127.0.0.1', '{"id":' || n || '}'
        FROM generate_series(1, ${count}) AS n`);
      await client.query('INSERT INTO dedup (key, received_at) SELECT key, received_at FROM events');
      await store.openHandOff('caught-up', 'http://erp', false);
      await store.openHandOff('from-start', 'http://audit', true);
      // Dead letters are counted whole: their number, not the inbox's size, bounds that statement.
      await client.query(`INSERT INTO dead (handoff, event_id, error, attempts, died_at)
        SELECT 'from-start', n, 'HTTP 422', 1, ${firstAt} FROM generate_series(1, 50) AS n`);
      await client.query('ANALYZE');

      const caughtUpAt = count;
      const cases: [keyof typeof backlogStatements, unknown[]][] = [
        ['oldestPending', [0]],
        ['oldestPending', [caughtUpAt]],
        ['pendingCounted', [0]],
        ['pendingCounted', [caughtUpAt]],
        ['newestId', []],
      ];
      for (const [name, values] of cases) {
        const steps = await planOf(client, backlogStatements[name], values);
        const onEvents = steps.filter((step) => / events( |$)/.test(step));
        expect({ name, values, onEvents }).toEqual({
          name,
          values,
          onEvents: onEvents.map(() => expect.stringMatching(/^Index (Only )?Scan( Backward)? events events_pkey$/)),
        });
        expect({ name, values, steps }).toEqual({ name, values, steps: expect.arrayContaining(['Limit']) });
        expect(steps.filter((step) => step.startsWith('Seq Scan events'))).toEqual([]);
      }

      expect(await store.backlog()).toEqual([
        { name: 'caught-up', target: 'http://erp', pending: 0, oldestPendingAt: undefined, dead: 0 },
        { name: 'from-start', target: 'http://audit', pending: count, oldestPendingAt: firstAt + 1000, dead: 50 },
      ]);
      const health = await backlogHealth(store, firstAt + (count + 10) * 1000, 60_000);
      expect(health.handOffs.map((handOff) => [handOff.name, handOff.pending, handOff.oldestPendingSeconds])).toEqual([
        ['caught-up', 0, 0],
        ['from-start', count, count + 9],
      ]);
    } finally {
      await client.end();
      await store.close();
    }
  });
});
