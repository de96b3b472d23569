/**
 * `b2bctl api` on a route that answers one record, not a listing: an order's detail holds its lines in `items`, as
 * many listings' envelopes hold their records. `-o json|ndjson|csv` printed those lines alone, the order itself
 * dropped, with exit 0 (found by a fresh user test). A record is JSON as sent for `-o json`, one compact line for
 * ndjson and one row for csv and table, with a note (a user test); a listing in an envelope of paging figures is still rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { loginToDialect, runCommandLine } from '../../support/command-line.js';
import { sandboxPassword, startTestSandbox } from '../../support/sandbox.js';
import { dialects } from '../../../src/sandbox/dialects/index.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(() => removeTemporaryFolders());

describe('api -o on an answer that is one record with a list inside', () => {
  let sandbox: RunningSandbox;
  let configDir: string;
  const api = (...args: string[]) =>
    runCommandLine(['api', ...args], { configDir, cwd: freshWorkDir(), env: { B2BCTL_PASSWORD: sandboxPassword } });

  beforeAll(async () => {
    const dialect = dialects.find((candidate) => candidate.name === 'default');
    if (dialect === undefined) throw new Error('no default dialect');
    sandbox = await startTestSandbox({ dialect });
    configDir = freshConfigDir();
    await loginToDialect(sandbox, dialect, configDir);
  });
  afterAll(async () => sandbox.close());

  it('-o json prints the order whole, as sent, without a note (a record is JSON already)', async () => {
    const sent = await api('/v1/orders/217');
    const order = JSON.parse(sent.stdout) as { id: number; items: unknown[] };
    expect(order.items.length).toBeGreaterThan(0);
    const result = await api('/v1/orders/217', '-o', 'json');
    expect(result.code).toBe(0);
    // As sent, ended as a line (a format asked for lines: `while read` got nothing without it).
    expect(result.stdout).toBe(sent.stdout.endsWith('\n') ? sent.stdout : `${sent.stdout}\n`);
    expect(result.stderr).toBe('');
  });

  it('-o ndjson writes the order whole on one compact line, with a note', async () => {
    const order = JSON.parse((await api('/v1/orders/217')).stdout) as unknown;
    const result = await api('/v1/orders/217', '-o', 'ndjson');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${JSON.stringify(order)}\n`);
    expect(result.stderr).toBe(
      'warning: -o ndjson formats a list; this answer is not one, so it is written as one line.\n',
    );
  });

  it.each(['csv', 'table'])('-o %s writes the order as one row, its items as JSON in their cell', async (format) => {
    const order = JSON.parse((await api('/v1/orders/217')).stdout) as Record<string, unknown>;
    const result = await api('/v1/orders/217', '-o', format);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split(/\r?\n/);
    expect(lines).toHaveLength(2);
    expect(lines[0]?.toLowerCase().replaceAll('_', '')).toContain('items');
    expect(result.stdout).not.toMatch(/^\{/);
    expect(result.stdout).toContain(String(order.id));
    expect(result.stderr).toBe(
      `warning: -o ${format} formats a list; this answer is one record, so it is written as one row.\n`,
    );
  });

  it('--paginate refuses it as no listing (exit 1), rather than paging its lines', async () => {
    const result = await api('/v1/orders/217', '--paginate');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'answered an object with a list under items beside fields that are no paging figure (id, orderId, status and 11 more): --paginate reads an object as a page of a listing only when every field beside its list is one',
    );
  });
});
