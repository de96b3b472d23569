// Runs every benchmark in turn (start-up, customers, stock, orders, api, webhooks), even when one misses its target, and
// exits non-zero if any did. Pass --quick for the smaller sizes of the customer and stock benchmarks.
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick') ? ['--quick'] : [];
let missed = 0;
for (const bench of ['startup.mjs', 'customers.mjs', 'stock.mjs', 'orders.mjs', 'api.mjs', 'webhooks.mjs', 'tax.mjs']) {
  // The figures are ratios measured in one run, but a loaded machine moves them: the load is printed with each.
  console.log(
    `${bench}: load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(', ')} at ${new Date().toISOString()}`,
  );
  const result = spawnSync(
    process.execPath,
    [join(import.meta.dirname, bench), ...(bench === 'startup.mjs' ? [] : quick)],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) missed++;
  console.log('');
}
process.exitCode = missed > 0 ? 1 : 0;
