/**
 * orders poll against a listing page holding entries it cannot read beside a good order, from a real HTTP server:
 * the scan reads the window's first page more than once, and each unreadable entry is counted once in its warning,
 * the number an operator compares with what the platform shows (a user test).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const iso = (ms: number) => new Date(ms).toISOString();
const since = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
const until = since + 600_000;

/** The tester's page: one good order, then null, one without lastUpdated, one without id, one with a local date. */
const oddPage = [
  { id: 7, orderId: 1007, status: 'NEW', lastUpdated: iso(since + 60_000) },
  null,
  { id: 8, orderId: 1008, status: 'NEW' },
  { orderId: 1009, status: 'NEW', lastUpdated: iso(since + 120_000) },
  { id: 10, orderId: 1010, status: 'NEW', lastUpdated: '30/11/2026 12:00' },
];

describe('orders poll: unreadable listing entries', () => {
  it('counts each once though the first page is read again: "3 listed entries" and 1 stamp, the good order emitted', async () => {
    const offsets: number[] = [];
    platform.routes['GET /v1/orders'] = (request, _body, response) => {
      const offset = Number(new URL(request.url ?? '/', platform.url).searchParams.get('offset'));
      offsets.push(offset);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(offset === 0 ? oddPage : []));
    };
    const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
    const result = await runCommandLine(
      ['orders', 'poll', '-o', 'ndjson', '--since', iso(since), '--until', iso(until)],
      { configDir: freshConfigDir(), env },
    );
    expect(result.code).toBe(0);
    expect(ndjsonOf<{ id: number }>(result.stdout).map((order) => order.id)).toEqual([7]);
    // The premise: the page at offset 0 was read more than once.
    expect(offsets.filter((offset) => offset === 0).length).toBeGreaterThan(1);
    // The local date is a stamp found in a form no setting reads: quoted apart (a user test), and counted once too.
    expect(result.stderr).toContain(
      'warning: 3 listed entries had no id or update instant b2bctl recognises; they were not emitted and the cursor was not moved past them.',
    );
    expect(result.stderr).toContain(
      `warning: 1 listed entry had an update stamp b2bctl cannot read: order 10's lastUpdated holds "30/11/2026 12:00"`,
    );
  });
});
