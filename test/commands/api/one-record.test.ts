/**
 * `b2bctl api` on a route that answers one record, not a listing: an order's detail holds its lines in `items`, as
 * many listings' envelopes hold their records. `-o json|ndjson|csv` printed those lines alone, the order itself
 * dropped, with exit 0 (found by a fresh user test). A record is printed as sent, with the note every other
 * non-list answer gets; a listing in an envelope of paging figures is still rows.
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

  it.each(['json', 'ndjson', 'csv', 'table'])('-o %s prints the order whole, as sent, with a note', async (format) => {
    const sent = await api('/v1/orders/217');
    const order = JSON.parse(sent.stdout) as { id: number; items: unknown[] };
    expect(order.items.length).toBeGreaterThan(0);
    const result = await api('/v1/orders/217', '-o', format);
    expect(result.code).toBe(0);
    // As sent, ended as a line (a format asked for lines: `while read` got nothing without it).
    expect(result.stdout).toBe(sent.stdout.endsWith('\n') ? sent.stdout : `${sent.stdout}\n`);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.stderr).toBe(
      `warning: -o ${format} formats a list; this answer is not one, so it is printed as sent.\n`,
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
