/**
 * `orders poll` and `orders get` against every sandbox dialect (src/sandbox/dialects/): each answers the order
 * listing and detail in its own way (an envelope or none, the update instant as lastUpdated, lastModifiedDate or
 * updatedAt, ids as text, the detail wrapped in {"data"} or {"order"}, its lines under items, orderItems or lines).
 * The orders emitted must not depend on it: every version the store holds, once, each as the platform sent it.
 * Whole command lines run in process (runCommandLine: the real program, argv to exit code), no binary spawned.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { summaryOf } from '../../../src/sandbox/orders/store.js';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { loginToDialect, runCommandLine } from '../../support/command-line.js';
import { startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

/** The update instant of a listed order, whatever the dialect calls it. */
function updateInstant(order: Record<string, unknown>): string {
  const value = order.lastUpdated ?? order.updatedAt ?? order.lastModifiedDate;
  return new Date(Date.parse(String(value))).toISOString();
}

function emittedVersions(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const order = JSON.parse(line) as Record<string, unknown>;
      return `${String(order.id)}@${updateInstant(order)}`;
    })
    .toSorted();
}

describe.each(dialects.map((dialect) => [dialect.name, dialect] as const))(
  'orders against the %s dialect',
  (name, dialect) => {
    let sandbox: RunningSandbox;
    let configDir: string;
    const run = (args: string[]) => runCommandLine(args, { configDir });
    const storeVersions = () =>
      [...sandbox.state.orders.orders.values()].map((order) => `${order.id}@${order.lastUpdated}`).toSorted();

    beforeAll(async () => {
      sandbox = await startTestSandbox({ dialect, orderCount: 120 });
      configDir = freshConfigDir();
      const lag = await run(['config', 'set', 'orders.lag', '0']);
      if (lag.code !== 0) throw new Error(`config set orders.lag 0: ${lag.stderr}`);
      await loginToDialect(sandbox, dialect, configDir);
    });
    afterAll(async () => sandbox.close());

    it('poll emits every order version once, each listed object unchanged; the next run only what changed', async () => {
      const first = await run(['orders', 'poll', '--since', '31d', '--cursor', join(configDir, 'c1.json')]);
      expect(first.code).toBe(0);
      expect(first.stderr).not.toMatch(/warning/);
      expect(emittedVersions(first.stdout)).toEqual(storeVersions());
      // The platform's objects as this dialect lists them, not a translation.
      const byId = new Map([...sandbox.state.orders.orders.values()].map((order) => [String(order.id), order]));
      for (const line of first.stdout.trim().split('\n')) {
        const emitted = JSON.parse(line) as { id: unknown };
        expect(emitted).toEqual(dialect.orderSummary(summaryOf(byId.get(String(emitted.id))!)));
      }

      const changed = sandbox.state.orders.churn(sandbox.state.clock.now(), 3, 2);
      const second = await run(['orders', 'poll', '--cursor', join(configDir, 'c1.json')]);
      expect(second.code).toBe(0);
      const expected = [...changed.updated, ...changed.created].map((id) => {
        const order = sandbox.state.orders.orders.get(id)!;
        return `${id}@${order.lastUpdated}`;
      });
      expect(emittedVersions(second.stdout)).toEqual([...new Set(expected)].toSorted());
    });

    it('poll -o csv fills the id, dateCreated and lastUpdated columns from what b2bctl read, whatever the field names', async () => {
      const result = await run([
        'orders',
        'poll',
        '--since',
        '31d',
        '-o',
        'csv',
        '--cursor',
        join(configDir, 'c3.json'),
      ]);
      expect(result.code).toBe(0);
      const [header, ...rows] = result.stdout.trim().split('\r\n');
      const columns = header!.split(',');
      const lastUpdated = columns.indexOf('lastUpdated');
      const id = columns.indexOf('id');
      const fromCsv = rows.map((row) => `${row.split(',')[id]}@${row.split(',')[lastUpdated]}`).toSorted();
      expect(fromCsv).toEqual(storeVersions());
      // The creation instant as the platform wrote it (dateCreated, Spring's createdDate, a gateway's createdAt).
      const dateCreated = columns.indexOf('dateCreated');
      const created = rows.map((row) => row.split(','));
      expect(created.map((cells) => cells[dateCreated])).toEqual(
        created.map((cells) => sandbox.state.orders.orders.get(Number(cells[id]))?.dateCreated),
      );
    });

    it('poll --detail --out-dir writes each order out of its envelope; orders get prints the same detail', async () => {
      const dir = freshWorkDir();
      const result = await run([
        'orders',
        'poll',
        '--since',
        '31d',
        '--detail',
        '--out-dir',
        dir,
        '--cursor',
        join(configDir, 'c2.json'),
      ]);
      expect(result.code).toBe(0);
      const files = readdirSync(dir).toSorted();
      expect(files).toHaveLength(sandbox.state.orders.orders.size);
      const sample = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as Record<string, unknown>;
      // The detail is the order itself (an id at its root), not the dialect's envelope.
      expect(String(sample.id)).toMatch(/^\d+$/);
      const order = sandbox.state.orders.orders.get(Number(sample.id))!;
      const answer = dialect.orderDetail(order) as Record<string, unknown>;
      const unwrapped = 'id' in answer ? answer : (answer.data ?? answer.order);
      expect(sample).toEqual(unwrapped);

      // Each name carries the id the moves take and the number people see: ID-NUMBER-LASTUPDATED.json.
      for (const file of files) {
        const [id, number] = file.split('-');
        expect(file).toMatch(/^\d+-\d+-\d{8}T\d{9}Z\.json$/);
        expect(Number(number)).toBe(sandbox.state.orders.orders.get(Number(id))?.orderId);
      }

      const get = await run(['orders', 'get', String(sample.id), '-o', 'json']);
      expect(get.code).toBe(0);
      expect(JSON.parse(get.stdout)).toEqual(unwrapped);
      // By its number: one search of the listing (whatever this dialect calls its fields), said on stderr.
      const byNumber = await run(['orders', 'get', String(order.orderId), '-o', 'json']);
      expect(byNumber.code).toBe(0);
      expect(byNumber.stderr).toContain(`order ${order.orderId} is id ${order.id}`);
      expect(JSON.parse(byNumber.stdout)).toEqual(unwrapped);
    });

    it('doctor says where the listing holds the orders and their update instant', async () => {
      const doctor = await run(['doctor', '-o', 'json']);
      const findings = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
      const orders = findings.find((finding) => finding.check.startsWith('GET /v1/orders'));
      expect(orders?.result).toBe('ok');
      const field = { default: 'lastUpdated', spring: 'lastModifiedDate', legacy: 'lastUpdated', gateway: 'updatedAt' }[
        name
      ];
      expect(orders?.detail).toContain(`update instant in "${field}"`);
      // The buyer an NF-e's recipient is checked against, wherever this dialect keeps it.
      expect(orders?.detail).toMatch(/buyer's document in "[\w.]+"$/);
    });

    it("doctor warns when the listing names no buyer's document, and names the setting", async () => {
      const saved = [...sandbox.state.orders.orders.values()].map((order) => ({
        order,
        partnerDocument: order.partnerDocument,
        customer: order.customer,
      }));
      for (const { order } of saved) {
        (order as { partnerDocument?: string }).partnerDocument = undefined;
        (order as { customer?: unknown }).customer = undefined;
      }
      try {
        const doctor = await run(['doctor', '-o', 'json']);
        const findings = JSON.parse(doctor.stdout) as {
          check: string;
          result: string;
          detail: string;
          setting?: string;
        }[];
        const orders = findings.find((finding) => finding.check.startsWith('GET /v1/orders'));
        expect(orders).toMatchObject({ result: 'warn', setting: 'answers.order.buyerDocument' });
        expect(orders?.detail).toContain("no buyer's CNPJ or CPF b2bctl recognises");
      } finally {
        for (const { order, partnerDocument, customer } of saved) Object.assign(order, { partnerDocument, customer });
      }
    });
  },
);
