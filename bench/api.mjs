// `b2bctl api --paginate` benchmark: the cashback history listing of the sandbox, paged to its end at its cap of 50,
// with 100,000, 300,000 and 1,000,000 items. Every item written once, and the CLI's peak RSS for the largest listing
// <= 1.2x that for 300,000: items are written as pages arrive, so the live heap holds a page, never the listing.
// The first size is printed, not judged: over its few seconds V8 is still growing its young generation (the live
// heap stays ~8 MB, measured with forced collections), which a longer run reaches and keeps.
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
  const ratio = runs[2].maxRss / runs[1].maxRss;
  allOk = verdict(`peak RSS ${sizes[2]} vs ${sizes[1]} items (<= 1.2x)`, `${ratio.toFixed(2)}x`, ratio <= 1.2) && allOk;
  console.log(`(peak RSS ${sizes[2]} vs ${sizes[0]} items: ${(runs[2].maxRss / runs[0].maxRss).toFixed(2)}x)`);
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
