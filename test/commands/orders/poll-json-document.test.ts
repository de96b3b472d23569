/**
 * `orders poll -o json > FILE`: one JSON document, readable only once its closing `]` is written. A run failed mid-way
 * (a platform answering 500, a SIGKILL) left an array without its end while the cursor, moved window by window as
 * for NDJSON, had passed the orders in it: an importer rejected the file, and the next run did not emit them again
 * (a user test). The cursor now moves only once the document is whole and on disk.
 */
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/orders/poll.js';
import { FakeClock } from '../../support/fake-clock.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeTemporaryFolders);

const start = Date.parse('2026-12-01T03:00:00.000Z');
const now = start + 7_200_000;
const at = (ms: number) => new Date(ms).toISOString();

/**
 * 5,200 orders updated over the two hours after `start`, one every 1.38 s: more than the 5,000 a window may hold
 * read by offset, so the catch-up is split by time into pieces, each written (and, to a file, fsynced) in turn.
 */
const orders = Array.from({ length: 5_200 }, (_, index) => ({
  id: 10_000 + index,
  orderId: 500_000 + index,
  status: 'AWAITING_PAYMENT',
  dateCreated: at(start - 86_400_000 + index * 1_000),
  lastUpdated: at(start + 1_000 + Math.floor(index * 1_380)),
}));
const newestFirst = orders.toSorted((left, right) => right.dateCreated.localeCompare(left.dateCreated));

/** The store, listing by update date newest first by creation; `failing` answers every listing request 500. */
async function store(clockNow: () => number) {
  const state = { failAfter: Number.POSITIVE_INFINITY, requests: 0 };
  const server = createServer((request, response) => {
    response.setHeader('date', new Date(clockNow()).toUTCString());
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (++state.requests > state.failAfter) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end('{"message":"internal error"}');
      return;
    }
    const from = Date.parse(url.searchParams.get('updatedFrom') ?? '');
    const to = Date.parse(url.searchParams.get('updatedTo') ?? '');
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 5);
    const listed = newestFirst.filter(
      (order) => Date.parse(order.lastUpdated) >= from && Date.parse(order.lastUpdated) <= to,
    );
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(listed.slice(offset, offset + limit)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const configDir = temporaryFolder('b2bctl-orders-json-document-');
  const env = {
    B2BCTL_CONFIG_DIR: configDir,
    B2BCTL_BASE_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    B2BCTL_TOKEN: 'stub-token',
    B2BCTL_RETRIES: '0',
  };
  return { env, configDir, state, close: () => new Promise((resolve) => server.close(resolve)) };
}

const options = { statuses: [], detail: false, watch: false, intervalSeconds: 60, concurrency: 4 };

/** One run at `clock`, `-o json` to a regular file: its exit code, the file's text, and the cursor after it. */
async function pollToFile(platform: Awaited<ReturnType<typeof store>>, clock: FakeClock, since?: string) {
  const path = join(temporaryFolder(), 'orders.json');
  const fd = openSync(path, 'w');
  try {
    const memory = testContext({ env: platform.env, clock, globals: { output: 'json' }, stdoutFd: fd });
    const code = await memory.run(run, { ...options, since });
    const cursorPath = join(platform.configDir, 'cursors', 'default.orders-poll.json');
    const cursor = existsSync(cursorPath)
      ? (JSON.parse(readFileSync(cursorPath, 'utf8')) as { cursor: string; emitted?: string[] })
      : undefined;
    return { code, text: readFileSync(path, 'utf8'), cursor, stderr: memory.stderr() };
  } finally {
    closeSync(fd);
  }
}

/** The ids of the orders a (maybe unterminated) JSON array holds. */
const idsIn = (text: string) => [...text.matchAll(/"id":\s*(\d+)/g)].map((match) => Number(match[1]));

describe('orders poll -o json to a file', () => {
  it('a platform 500 mid-run leaves the cursor where it was: the next run emits every order of the broken file again', async () => {
    const clock = new FakeClock(start);
    const platform = await store(() => clock.now());
    try {
      // A first run before any of the orders: the cursor is saved just before `start`.
      const first = await pollToFile(platform, clock, '1h');
      expect([first.code, JSON.parse(first.text)]).toEqual([0, []]);
      const cursorBefore = first.cursor?.cursor;
      expect(cursorBefore).toBe(at(start - 2_000));

      // Two hours later, the catch-up fails 150 listing requests in: part of the array is written, without its end.
      clock.advance(now - start);
      platform.state.failAfter = platform.state.requests + 150;
      const broken = await pollToFile(platform, clock);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain('failed with HTTP 500');
      const inBroken = idsIn(broken.text);
      expect(inBroken.length).toBeGreaterThan(0);
      expect(broken.text.trimEnd().endsWith(']')).toBe(false);
      // Nothing of the document was taken: the cursor, and what it remembers as emitted, are as they were.
      expect(broken.cursor?.cursor).toBe(cursorBefore);
      expect(broken.cursor?.emitted ?? []).toEqual([]);

      // The platform well again: the next run writes one whole document holding every order of the broken file.
      platform.state.failAfter = Number.POSITIVE_INFINITY;
      const again = await pollToFile(platform, clock);
      expect(again.code).toBe(0);
      const document = JSON.parse(again.text) as { id: number }[];
      const emitted = new Set(document.map((order) => order.id));
      expect(inBroken.filter((id) => !emitted.has(id))).toEqual([]);
      expect(document.length).toBe(orders.length);
      expect(again.cursor?.cursor).toBe(at(now - 2_000));
    } finally {
      await platform.close();
    }
  });
});
