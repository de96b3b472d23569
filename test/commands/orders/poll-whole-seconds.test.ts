/**
 * orders poll against a platform that reads `updatedFrom`/`updatedTo` to the second only (a Java platform parsing
 * yyyy-MM-dd'T'HH:mm:ss'Z'), from a real HTTP server: it refuses a bound with milliseconds (400) and lists orders
 * otherwise. With orders.timePrecision s every order is emitted once and the cursor stops where the run did; without
 * it, the error line names the setting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { ndjsonOf } from '../../support/ndjson.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const platform = useScriptedPlatform();
afterAll(removeTemporaryFolders);

const wholeSecond = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const iso = (ms: number) => new Date(ms).toISOString();

/** The run's bounds, with milliseconds that whole seconds cannot say. */
const since = Math.floor(Date.now() / 1000) * 1000 - 600_000 + 400;
const until = since + 60_000 + 300;

/** Orders stamped by the millisecond, sorted by creation; some in the seconds the bounds fall in, either side. */
const orders = [
  -200, // before --since, in its second: listed by the widened window, never emitted
  100,
  ...Array.from({ length: 30 }, (_, index) => 1_000 + index * 1_500),
  60_000 + 200, // just before --until, in its second
  60_000 + 500, // after --until, in its second: listed, kept for the next run
].map((offset, index) => ({
  id: 9000 + index,
  status: 'AWAITING_PAYMENT',
  dateCreated: iso(since - 700_000 + index),
  lastUpdated: iso(since + offset),
}));

/** The listing of a platform reading whole seconds: both bounds inclusive, paged by offset over creation order. */
function useWholeSecondListing(): string[] {
  const asked: string[] = [];
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const query = new URL(request.url ?? '/', platform.url).searchParams;
    const [from, to] = [query.get('updatedFrom') ?? '', query.get('updatedTo') ?? ''];
    asked.push(`${from} ${to}`);
    for (const [name, value] of [
      ['updatedFrom', from],
      ['updatedTo', to],
    ])
      if (!wholeSecond.test(value as string)) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: `Parameter [${name}] with value [${value}] is invalid` }));
        return;
      }
    const offset = Number(query.get('offset'));
    const limit = Number(query.get('limit'));
    // To the second: an order stamped in the upper bound's second is inside it.
    const [fromMs, toMs] = [Date.parse(from), Date.parse(to) + 999];
    const inside = orders.filter((order) => {
      const updated = Date.parse(order.lastUpdated);
      return updated >= fromMs && updated <= toMs;
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(inside.slice(offset, offset + limit)));
  };
  return asked;
}

function poll(configDir: string, args: string[]) {
  const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
  return runCommandLine(['orders', 'poll', '-o', 'ndjson', ...args], { configDir, env });
}

const emittedIds = (stdout: string) => ndjsonOf<{ id: number }>(stdout).map((order) => order.id);

describe('orders poll, a platform that takes whole seconds only', () => {
  it('orders.timePrecision s: every order once, the cursor at the run’s end, none hidden by the rounding', async () => {
    const asked = useWholeSecondListing();
    const configDir = freshConfigDir();
    expect((await runCommandLine(['config', 'set', 'orders.timePrecision', 's'], { configDir })).code).toBe(0);
    const first = await poll(configDir, ['--since', iso(since), '--until', iso(until)]);
    expect(first.stderr).not.toMatch(/error/);
    expect(first.code).toBe(0);
    // Neither the order before --since nor the one after --until, though both were listed in the seconds asked.
    expect(emittedIds(first.stdout).toSorted()).toEqual(orders.slice(1, -1).map((order) => order.id));
    expect(asked.length).toBeGreaterThan(1);
    const cursorFile = join(configDir, 'cursors', 'default.orders-poll.json');
    const cursor = JSON.parse(readFileSync(cursorFile, 'utf8')) as { cursor: string };
    expect(cursor.cursor).toBe(iso(until));
    // The next run from the cursor: the order the first run's rounding listed past its end, once; no other again.
    const second = await poll(configDir, ['--until', iso(until + 5_000)]);
    expect(second.code).toBe(0);
    expect(emittedIds(second.stdout)).toEqual([(orders.at(-1) as { id: number }).id]);
  });

  it('without it: the 400 is the error line, naming the setting; nothing emitted, no cursor', async () => {
    const asked = useWholeSecondListing();
    const configDir = freshConfigDir();
    const result = await poll(configDir, ['--since', iso(since), '--until', iso(until)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const query = `updatedFrom=${encodeURIComponent(iso(since - 1))}&updatedTo=${encodeURIComponent(iso(until + 1))}&limit=25&offset=0`;
    expect(result.stderr.trim()).toBe(
      `error: GET ${platform.url}/v1/orders?${query} failed with HTTP 400: Parameter [updatedFrom] with value [${iso(since - 1)}] is invalid (if the platform takes updatedFrom and updatedTo to the second only: b2bctl config set orders.timePrecision s)`,
    );
    expect(asked).toHaveLength(1);
  });
});
