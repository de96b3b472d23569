// Orders benchmark (issue 12): catch-up of 10,000 orders with `orders poll --since 31d --concurrency 8` against a
// sandbox answering every request after 50 ms (--latency 50):
//   - orders/s against the ideal 8 connections x 25 orders / 0.05 s = 4,000/s (target >= 50%);
//   - listing requests against the minimum 10,000 / 25 = 400 (target <= 1.2x).
// The scan reads a full window by overlapping offset pages (one order of overlap per page, so 10,000 orders take
// about 10,000 / 24 requests) and proves from the shared orders that none was skipped (src/domain/orders-window.ts);
// churn costs a few extra pages, which the request count shows.
// Usage: npm run bench:orders [-- --quick]   (--quick: 2,000 orders)
import { benchEnv, login, runCli, startSandbox, verdict } from './lib/harness.mjs';
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
  cleanup();
}
process.exitCode = allOk ? 0 : 1;
