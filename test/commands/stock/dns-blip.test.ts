/**
 * A DNS blip during a night's push (a user test): a resolver that answers "no such name" (ENOTFOUND) for a few
 * seconds, as one failing over or a zone reloading does, is retried with a bulk run's back-off as an unreachable
 * resolver's EAI_AGAIN is, and the run goes on; a name that never resolves still ends in "does not resolve" once the
 * retries are spent. The resolver is the process's (`dns.lookup`, which every connection asks), scripted per test.
 */
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshConfigDir, freshWorkDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { FakeClock } from '../../support/fake-clock.js';
import { onlyReport, readReport } from '../../support/run-files.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';

const platform = useScriptedPlatform();
const blipHost = 'store.dns-blip.test';
const systemLookup = dns.lookup;
afterEach(() => {
  dns.lookup = systemLookup;
});

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The resolver answers "no such name" for `blip.test`'s first `failures` lookups (`code`), then 127.0.0.1. */
function resolverFailing(failures: number, code: 'ENOTFOUND' | 'EAI_AGAIN'): { lookups: () => number } {
  let lookups = 0;
  const scripted = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (hostname !== blipHost) return void systemLookup(hostname, options, callback);
    lookups += 1;
    if (lookups <= failures)
      return callback(Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, hostname }), '');
    if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    callback(null, '127.0.0.1', 4);
  };
  dns.lookup = scripted as typeof dns.lookup;
  return { lookups: () => lookups };
}

async function push(flags: string[] = []) {
  const folder = freshWorkDir();
  writeFileSync(join(folder, 'stock.csv'), 'sku,quantity,price\nA1,10,5.50\nB2,3,1.00\n');
  const port = new URL(platform.url).port;
  const env = {
    B2BCTL_BASE_URL: `http://${blipHost}:${port}`,
    B2BCTL_TOKEN: 'a-pre-issued-token-0123456789',
    B2BCTL_ALLOW_HTTP: 'true',
  };
  const clock = new FakeClock(Date.UTC(2026, 10, 30, 2, 0, 0));
  const result = await runCommandLine(['stock', 'push', 'stock.csv', '--route', 'batch', ...flags], {
    configDir: freshConfigDir(),
    env,
    cwd: folder,
    // The retries' waits (a bulk run's: seconds) are counted, not slept.
    clock,
  });
  const rows = readReport(join(folder, onlyReport(folder, 'stock')));
  return { result, clock, outcomes: rows.map((row) => `${row.key} ${row.outcome}`) };
}

function batchApplies(): void {
  platform.routes['PUT /v1/stock/batch'] = (_request, _body, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
}

describe('stock push: a name that does not resolve for a few seconds (a DNS blip)', () => {
  it.each(['ENOTFOUND', 'EAI_AGAIN'] as const)(
    '%s answered twice: retried with the bulk back-off, both items accepted, exit 0',
    async (code) => {
      batchApplies();
      const resolver = resolverFailing(2, code);
      const { result, clock, outcomes } = await push(['--verbose']);
      expect(result.code).toBe(0);
      expect(outcomes).toEqual(['A1 accepted', 'B2 accepted']);
      expect(platform.received).toEqual(['PUT /v1/stock/batch']);
      expect(resolver.lookups()).toBe(3);
      // The bulk run's waits: 1–2 s, then 2–4 s.
      const backoff = clock.waits.filter((ms) => ms >= 1000);
      expect(backoff).toHaveLength(2);
      expect(backoff[0]).toBeLessThanOrEqual(2000);
      expect(backoff[1]).toBeGreaterThanOrEqual(2000);
      expect(result.stderr).toMatch(
        new RegExp(`\\* retry 1/3 in \\d+ ms \\(${code}: the name did not resolve, retried as a DNS blip\\)`),
      );
      expect(result.stderr).not.toContain('Cannot reach');
    },
  );

  it('a name that never resolves: the retries are spent, then "does not resolve", nothing sent, exit 69', async () => {
    batchApplies();
    const resolver = resolverFailing(Number.POSITIVE_INFINITY, 'ENOTFOUND');
    const { result, outcomes } = await push(['--retries', '1']);
    expect(result.code).toBe(69);
    expect(outcomes).toEqual(['A1 failed', 'B2 failed']);
    expect(platform.received).toEqual([]);
    expect(resolver.lookups()).toBe(2);
    expect(result.stderr).toContain(`after 2 attempts: ${blipHost} does not resolve (ENOTFOUND)`);
  });
});
