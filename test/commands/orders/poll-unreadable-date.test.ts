/**
 * `orders poll` behind a front that writes a `Date` header that is no HTTP date (a user test): a gateway writing the
 * date pt-BR style (`01/12/2026 02:24:13`), or `abc 1`. Read loosely, the first was January 12 and the second 2001:
 * the window was held at that "platform time", the order listed was never emitted, exit 0 run after run, and the
 * warning sent the operator to set clocks that were right. Such a header is no clock: this machine's is used, and
 * the header is quoted once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { temporaryFolder } from '../../support/temporary.js';

const platform = useScriptedPlatform();

const now = Date.parse('2026-12-01T02:24:13.000Z');
const updated = new Date(now - 20 * 60_000).toISOString();

/** The listing: order 7, updated 20 minutes ago, on the first page; the front writes `date` as its Date header. */
function listingWithDate(date: string): void {
  platform.routes['GET /v1/orders'] = (request, _body, response) => {
    const offset = Number(new URL(request.url ?? '/', 'http://localhost').searchParams.get('offset') ?? 0);
    response
      .writeHead(200, { 'content-type': 'application/json', date })
      .end(JSON.stringify(offset === 0 ? [{ id: 7, status: 'PAID', lastUpdated: updated }] : []));
  };
}

const warning = (date: string) =>
  `warning: the platform's Date header (${JSON.stringify(date)}) is no HTTP date, so its clock is not known: this machine's clock is used for the window.`;

describe('orders poll with a Date header that is no HTTP date', () => {
  it.each(['01/12/2026 02:24:13', 'abc 1'])(
    'Date: %s — the order is emitted, the cursor moves to this machine’s now less the lag, the header said once',
    async (date) => {
      listingWithDate(date);
      const cursor = join(temporaryFolder(), 'cursor.json');
      const env = { B2BCTL_BASE_URL: platform.url, B2BCTL_TOKEN: 'a-pre-issued-token-0123456789' };
      const configDir = freshConfigDir();
      const clock = new FakeClock(now);
      const first = await runCommandLine(['orders', 'poll', '--since', '1h', '--cursor', cursor], {
        configDir,
        env,
        clock,
      });
      expect(first.code).toBe(0);
      expect(
        first.stdout
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { id: number }).id),
      ).toEqual([7]);
      const warnings = first.stderr.split('\n').filter((line) => line.startsWith('warning:'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(warning(date));
      expect(first.stderr).not.toContain('behind this machine');
      // The run reads up to this machine's now less orders.lag (2 s), not months back.
      expect((JSON.parse(readFileSync(cursor, 'utf8')) as { cursor: string }).cursor).toBe(
        new Date(now - 2_000).toISOString(),
      );

      clock.advance(60_000);
      const second = await runCommandLine(['orders', 'poll', '--cursor', cursor], { configDir, env, clock });
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('');
      expect((JSON.parse(readFileSync(cursor, 'utf8')) as { cursor: string }).cursor).toBe(
        new Date(now + 58_000).toISOString(),
      );
    },
  );
});
