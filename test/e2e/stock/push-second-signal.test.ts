/**
 * A cron run stopped by a second signal (a wrapper's double SIGTERM, systemd's stop then its kill timeout) still
 * ends its log with the closing line, its exit code the signal's: a log shipper or a grep for `; exit ` found no end
 * for such a night (a fresh user test). Its counts are the report's as it stands, the items of the requests in flight
 * `unknown` (they may have been applied, as the line before it says); with -o json its summary object comes first on
 * stdout, written by the ending process itself.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { collect, freshConfigDir, freshWorkDir, sleep, spawnCli } from '../../support/cli.js';
import { credentialsEnv, startTestSandbox } from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

afterAll(removeTemporaryFolders);

it.each(['SIGTERM', 'SIGINT'] as const)(
  'stock push off a terminal, %s twice: the last line is the closing line with the signal exit code',
  async (signal) => {
    // Every answer takes 2 s, so the requests in flight are still in flight when the second signal comes.
    const slow = await startTestSandbox({ latencyMs: 2000 });
    try {
      const folder = freshWorkDir();
      const rows = Array.from({ length: 500 }, (_, n) => `SKU-${n},${n % 40},${(n % 90) + 1}.50`);
      writeFileSync(join(folder, 'stock.csv'), `sku,quantity,price\n${rows.join('\n')}\n`);
      const configDir = freshConfigDir();
      const push = spawnCli(
        ['stock', 'push', 'stock.csv', '--route', 'batch', '--batch-size', '10', '--concurrency', '2', '-o', 'json'],
        configDir,
        credentialsEnv(slow),
        folder,
      );
      const done = collect(push);
      let said = '';
      push.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
      // Once a batch is on its way (the login, slow too, is over), the first signal.
      while ((slow.state.requestCounts.get('PUT /v1/stock/batch') ?? 0) === 0) await sleep(20);
      push.kill(signal);
      while (!said.includes('finishing the requests already sent')) await sleep(20);
      // A second signal within 0.2 s of the first is taken for the same one delivered twice (GNU timeout).
      await sleep(300);
      push.kill(signal);
      const { signal: endedBy, stdout, stderr, closingLine } = await done;
      // The process ends by the signal itself, as a shell expects (its status 128 + the signal's number).
      expect(endedBy).toBe(signal);
      const exitCode = signal === 'SIGTERM' ? 143 : 130;
      expect(stderr).toMatch(/stock push: stopped at once; [12] requests? in flight may have been applied/);
      expect(closingLine).toMatch(
        new RegExp(
          `^stock push: stock\\.csv to profile "default" \\(http://127\\.0\\.0\\.1:\\d+\\): (?:.*, )?(?:10|20) unknown, .*; exit ${exitCode}$`,
        ),
      );
      const summary = JSON.parse(stdout) as { outcomes: Record<string, number>; exitCode: number };
      expect(summary).toMatchObject({ command: 'stock push', file: 'stock.csv', exitCode });
      expect([10, 20]).toContain(summary.outcomes.unknown);
      expect(Object.values(summary.outcomes).reduce((sum, count) => sum + count, 0)).toBe(500);
    } finally {
      await slow.close();
    }
  },
  60_000,
);
