/**
 * issue 12's "Done when", small: scripts/orders-cron-check.mjs runs `orders poll` as cron does (a new process per
 * run, the cursor in the config folder) against a churning sandbox, some runs SIGKILLed or piped into head -3, then
 * a last run after churn stops, and checks that no order version was missed or emitted twice by normal runs.
 * `node scripts/orders-cron-check.mjs` runs it a hundred times (docs/orders-poll.md).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { collect } from '../../support/cli.js';
import { repoRoot } from '../../support/sandbox.js';

it('ten cron runs in a row against a churning sandbox: nothing missed, nothing emitted twice', async () => {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'scripts', 'orders-cron-check.mjs'), '--runs', '10', '--seed', '7', '--orders', '120'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const result = await collect(child);
  expect(result.stdout).toMatch(/^orders cron check: 10 runs \+ 1 after churn stopped/m);
  expect(result.stdout).toMatch(/^missed: 0; emitted twice by normal runs: 0; other problems: 0$/m);
  expect(result.code).toBe(0);
}, 180_000);
