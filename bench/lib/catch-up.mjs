// The orders catch-up memory benchmark's run: `orders poll` over a synthetic store, its output counted as it
// streams (the ids kept to prove none is missed or emitted twice), the CLI's peak RSS, and the cursor it saved.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cli, outDir, root } from './harness.mjs';
import { startSyntheticOrders } from './synthetic-orders.mjs';

/** One catch-up of `count` orders: emitted lines, distinct ids, missing ids, peak RSS, wall time, the cursor saved. */
export async function catchUp(count, env) {
  const store = await startSyntheticOrders(count);
  const cursorFile = join(outDir, `cursor-${count}-${process.pid}.json`);
  const rssFile = join(outDir, `rss-catch-up-${count}-${process.pid}`);
  rmSync(cursorFile, { force: true });
  try {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [cli, 'orders', 'poll', '--since', store.firstInstant, '--cursor', cursorFile, '--concurrency', '4'],
      {
        env: {
          ...env,
          B2BCTL_BASE_URL: store.url,
          B2BCTL_TOKEN: 'synthetic-store-token',
          NODE_OPTIONS: `--require ${join(root, 'bench', 'lib', 'max-rss.cjs')}`,
          B2BCTL_BENCH_RSS_FILE: rssFile,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const seen = new Uint8Array(count + 1);
    let lines = 0;
    let twice = 0;
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines++;
      const id = JSON.parse(line).id;
      if (seen[id]) twice++;
      seen[id] = 1;
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    const ms = performance.now() - started;
    if (code !== 0) throw new Error(`orders poll exited ${code}: ${stderr}`);
    const missing = seen.slice(1).reduce((sum, flag) => sum + (flag ? 0 : 1), 0);
    const maxRss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
    const cursor = JSON.parse(readFileSync(cursorFile, 'utf8'));
    return { lines, twice, missing, maxRss, ms, cursor, lastInstant: store.lastInstant };
  } finally {
    rmSync(cursorFile, { force: true });
    rmSync(rssFile, { force: true });
    await store.stop();
  }
}
