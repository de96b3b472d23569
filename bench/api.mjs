// `b2bctl api --paginate` benchmark: the cashback history listing of the sandbox, paged to its end at its cap of 50,
// with 100,000, 300,000 and 1,000,000 items. Every item written once, and the CLI's peak RSS for the largest listing
// under 128 MB: items are written as pages arrive, so the live heap holds a page, never the listing (~8 MB after a
// forced collection at any point of a 1,000,000-item run). The ratios between sizes are printed, not judged: RSS
// rises over the first seconds while V8 grows its heap for the allocation rate (to ~45 MB of heap at 1,000,000
// items), then stays, so a short run reads lower than a long one.
// Usage: npm run bench:api [-- --quick]   (--quick: 10,000, 30,000 and 100,000 items)
import { createInterface } from 'node:readline';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, cli, login, megabytes, outDir, root, startSandbox, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const sizes = process.argv.includes('--quick') ? [10_000, 30_000, 100_000] : [100_000, 300_000, 1_000_000];
const { env, cleanup } = benchEnv();
let allOk = true;
const runs = [];
try {
  for (const size of sizes) {
    const sandbox = await startSandbox(['--orders', '10'], env);
    try {
      await login(sandbox.url, env);
      // The seed holds 130 entries; the rest are generated.
      const generate = await fetch(`${sandbox.url}/_sandbox/listings/cashbackHistory/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count: size - 130 }),
      });
      if (!generate.ok) throw new Error(`generate: HTTP ${generate.status}`);
      const run = await paginate(env);
      runs.push(run);
      console.log(
        `api --paginate of ${size} items: ${(run.ms / 1000).toFixed(1)} s, peak RSS ${megabytes(run.maxRss)}`,
      );
      allOk =
        verdict(`${size}: every item once`, `${run.lines} lines, ${run.distinct} ids`, run.distinct === size) && allOk;
    } finally {
      await sandbox.stop();
    }
  }
  const ceiling = 128 * 1024 * 1024;
  allOk =
    verdict(`peak RSS of ${sizes[2]} items (< 128 MB)`, megabytes(runs[2].maxRss), runs[2].maxRss < ceiling) && allOk;
  const ratio = (index) => (runs[2].maxRss / runs[index].maxRss).toFixed(2);
  console.log(`(peak RSS ${sizes[2]} items vs ${sizes[1]}: ${ratio(1)}x, vs ${sizes[0]}: ${ratio(0)}x)`);
} finally {
  cleanup();
}
process.exitCode = allOk ? 0 : 1;

/** Runs the paging, counting the lines and distinct ids as they stream out. */
async function paginate(runEnv) {
  const rssFile = join(outDir, `rss-api-${process.pid}`);
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'api', '/v1/cashback/history', '--paginate'], {
    env: {
      ...runEnv,
      NODE_OPTIONS: `--require ${join(root, 'bench', 'lib', 'max-rss.cjs')}`,
      B2BCTL_BENCH_RSS_FILE: rssFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ids = new Set();
  let lines = 0;
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines++;
    ids.add(JSON.parse(line).id);
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`api --paginate exited ${code}: ${stderr}`);
  const maxRss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
  rmSync(rssFile, { force: true });
  return { lines, distinct: ids.size, maxRss, ms: performance.now() - started };
}
