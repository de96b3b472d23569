// Orders benchmark (issue 12): catch-up of 10,000 orders with `orders poll --since 31d --concurrency 8` against a
// sandbox answering every request after 50 ms (--latency 50):
//   - orders/s against the ideal 8 connections x 25 orders / 0.05 s = 4,000/s (target >= 50%);
//   - listing requests against the minimum 10,000 / 25 = 400 (target <= 1.2x).
// The scan reads a full window by overlapping offset pages (one order of overlap per page, so 10,000 orders take
// about 10,000 / 24 requests) and proves from the shared orders that none was skipped (src/domain/orders-window.ts);
// churn costs a few extra pages, which the request count shows.
// Then the catch-up in flat memory: a first sync of 100,000 and of 1,000,000 orders (a synthetic listing-only store,
// bench/lib/synthetic-orders.mjs, so the server holds nothing), every order emitted once, the cursor over the last
// one, and the CLI's peak RSS for 1,000,000 orders <= 1.2x that for 100,000.
// Usage: npm run bench:orders [-- --quick]   (--quick: 2,000 orders, and 100,000 against 300,000 for the catch-up)
import { catchUp } from './lib/catch-up.mjs';
import { benchEnv, login, megabytes, runCli, startSandbox, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick');
const orders = quick ? 2_000 : 10_000;
const latencyMs = 50;
const concurrency = 8;
const { env, cleanup } = benchEnv();
const sandbox = await startSandbox(['--orders', String(orders), '--latency', String(latencyMs)], env);
let allOk = true;
try {
  await login(sandbox.url, env);
  await fetch(`${sandbox.url}/_sandbox/requests`, { method: 'DELETE' });
  const result = await runCli(['orders', 'poll', '--since', '31d', '--concurrency', String(concurrency)], { env });
  if (result.code !== 0) throw new Error(`orders poll exited ${result.code}: ${result.stderr}`);
  const emitted = result.stdout.split('\n').filter((line) => line !== '').length;
  const counts = await (await fetch(`${sandbox.url}/_sandbox/requests`)).json();
  const requests = counts['GET /v1/orders'] ?? 0;
  const perSecond = emitted / (result.ms / 1000);
  const ideal = (concurrency * 25) / (latencyMs / 1000);
  const minimum = Math.ceil(orders / 25);
  console.log(`orders poll catch-up: ${emitted} of ${orders} orders in ${(result.ms / 1000).toFixed(2)} s`);
  allOk =
    verdict(
      'orders/s vs ideal 4,000/s (>= 50%)',
      `${perSecond.toFixed(0)}/s = ${((perSecond / ideal) * 100).toFixed(0)}%`,
      perSecond / ideal >= 0.5,
    ) && allOk;
  allOk =
    verdict(
      `listing requests vs minimum ${minimum} (<= 1.2x)`,
      `${requests} = ${(requests / minimum).toFixed(2)}x`,
      requests / minimum <= 1.2,
    ) && allOk;
  allOk = verdict('every order emitted', `${emitted}/${orders}`, emitted === orders) && allOk;
} finally {
  await sandbox.stop();
}
try {
  allOk = (await flatCatchUp(quick ? [100_000, 300_000] : [100_000, 1_000_000], env)) && allOk;
} finally {
  cleanup();
}
process.exitCode = allOk ? 0 : 1;

/** The catch-up at two sizes: each order once, the cursor over the last, and peak RSS flat across sizes. */
async function flatCatchUp([small, large], runEnv) {
  let ok = true;
  const runs = [];
  for (const count of [small, large]) {
    const run = await catchUp(count, runEnv);
    runs.push(run);
    console.log(
      `orders poll catch-up of ${count} orders: ${(run.ms / 1000).toFixed(1)} s, peak RSS ${megabytes(run.maxRss)}`,
    );
    ok =
      verdict(
        `${count}: every order once (emitted, twice, missing)`,
        `${run.lines}, ${run.twice}, ${run.missing}`,
        run.lines === count && run.twice === 0 && run.missing === 0,
      ) && ok;
    ok =
      verdict(
        `${count}: cursor over the last order written`,
        `${run.cursor.cursor} >= ${run.lastInstant}`,
        Date.parse(run.cursor.cursor) >= Date.parse(run.lastInstant),
      ) && ok;
  }
  const ratio = runs[1].maxRss / runs[0].maxRss;
  return verdict(`peak RSS ${large} vs ${small} orders (<= 1.2x)`, `${ratio.toFixed(2)}x`, ratio <= 1.2) && ok;
}
