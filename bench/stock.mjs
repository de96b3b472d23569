// Stock benchmarks of issue 4, each beside a baseline measured in the same run:
//   1. throughput: push 1,000,000 rows through the queue route to a sandbox with no latency; items/s, and our
//      requests/s over autocannon's against the same route, body (200 items) and connection count (target >= 0.8);
//   2. memory: peak RSS of that push for 100,000 and 1,000,000 rows (target: within 1.3x, and under 150 MB);
//   3. pacing: against --rate-limit 20, the accepted requests/s over a 30-second push (target >= 95% of 20), and the
//      share of requests answered 429 after the first 5 seconds (target <= 1%).
// Usage: npm run bench:stock [-- --quick] [-- --only throughput|pacing]   (--quick: 200,000 rows and a 12-second pacing run)
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { benchEnv, generated, login, megabytes, runCli, startSandbox, verdict } from './lib/harness.mjs';

const quick = process.argv.includes('--quick');
const large = quick ? 200_000 : 1_000_000;
const small = quick ? 20_000 : 100_000;
const pacingSeconds = quick ? 12 : 30;
const connections = 8;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
let allOk = true;

/** The figures of a push from its summary line: "...; 5000 requests, 0 retries, 3 throttled (429); 21.3 s, 46948 items/s". */
function summaryOf(stderr) {
  const match = /(\d+) requests, (\d+) retries, (\d+) throttled \(429\); ([\d.]+) s, (\d+) items\/s/.exec(stderr);
  if (!match) throw new Error(`no summary line in:\n${stderr}`);
  return {
    requests: Number(match[1]),
    retries: Number(match[2]),
    throttled: Number(match[3]),
    seconds: Number(match[4]),
    itemsPerSecond: Number(match[5]),
  };
}

async function push(url, env, file, extra = []) {
  const result = await runCli(
    [
      'stock',
      'push',
      file,
      '--concurrency',
      String(connections),
      '--report',
      `${file}.report-${Date.now()}.csv`,
      ...extra,
    ],
    { env },
  );
  if (result.code !== 0) throw new Error(`stock push exited ${result.code}: ${result.stderr}`);
  return { ...summaryOf(result.stderr), maxRss: result.maxRss };
}

/** autocannon against the queue route with the 200-item body our push sends, same connections, in the same run. */
async function autocannonBaseline(url, env, file) {
  const token = JSON.parse(readFileSync(`${env.B2BCTL_CONFIG_DIR}/config.json`, 'utf8')).profiles.default.token;
  const lines = readFileSync(file, 'utf8').split('\n').slice(1, 201);
  const items = lines.map((line) => {
    const [sku, quantity, price, salePrice] = line.split(',');
    return {
      sku,
      quantity: Number(quantity),
      price: Number(price),
      ...(salePrice ? { salePrice: Number(salePrice) } : {}),
    };
  });
  const result = await autocannon({
    url: `${url}/api/v1/stocks/batch`,
    method: 'POST',
    connections,
    duration: quick ? 5 : 10,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items }),
  });
  if (result.non2xx > 0) throw new Error(`autocannon got ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

console.log(`stock benchmarks (Node ${process.version}${quick ? ', quick' : ''})`);
const { env, cleanup } = benchEnv();
try {
  let sandbox;
  if (only === undefined || only === 'throughput') {
    const largeFile = await generated('generate-stock.mjs', large);
    const smallFile = await generated('generate-stock.mjs', small);
    sandbox = await startSandbox([], env);
    try {
      await login(sandbox.url, env);
      const baselineRps = await autocannonBaseline(sandbox.url, env, largeFile);
      const big = await push(sandbox.url, env, largeFile, ['--route', 'queue']);
      const ourRps = big.requests / big.seconds;
      allOk =
        verdict(
          `push ${large} rows, queue route, ${connections} connections`,
          `${big.itemsPerSecond} items/s; ${ourRps.toFixed(0)} requests/s vs autocannon ${baselineRps.toFixed(0)}: ${(ourRps / baselineRps).toFixed(2)} (target >= 0.8)`,
          ourRps / baselineRps >= 0.8,
        ) && allOk;
      const little = await push(sandbox.url, env, smallFile, ['--route', 'queue']);
      const memoryRatio = big.maxRss / little.maxRss;
      allOk =
        verdict(
          `peak RSS push ${large} vs ${small} rows`,
          `${megabytes(big.maxRss)} vs ${megabytes(little.maxRss)}: ${memoryRatio.toFixed(2)}x (target <= 1.3x, < 150 MB)`,
          memoryRatio <= 1.3 && big.maxRss < 150 * 1024 * 1024,
        ) && allOk;
    } finally {
      await sandbox.stop();
    }
  }

  // Pacing: enough 50-item requests to last the period at 20 per second.
  if (only === undefined || only === 'pacing') {
    const pacingFile = await generated('generate-stock.mjs', pacingSeconds * 20 * 50);
    sandbox = await startSandbox(['--rate-limit', '20', '--verbose'], env);
    try {
      await login(sandbox.url, env);
      const paced = await push(sandbox.url, env, pacingFile, ['--route', 'batch', '--rate', '50', '--retries', '10']);
      const answers = sandbox.logLines
        .map(({ at, line }) => ({ at, match: /^PUT \/v1\/stock\/batch (\d{3}) /.exec(line) }))
        .filter((entry) => entry.match)
        .map((entry) => ({ at: entry.at, status: Number(entry.match[1]) }));
      const first = answers[0].at;
      const accepted = answers.filter((answer) => answer.status === 200);
      const span = (accepted.at(-1).at - first) / 1000;
      const acceptedRate = accepted.length / span;
      const later = answers.filter((answer) => answer.at - first > 5000);
      const laterThrottled = later.filter((answer) => answer.status === 429).length;
      allOk =
        verdict(
          `pacing against --rate-limit 20 (${span.toFixed(0)} s)`,
          `${acceptedRate.toFixed(2)} accepted requests/s (${((acceptedRate / 20) * 100).toFixed(1)}% of 20; target >= 95%); 429s after 5 s: ${laterThrottled} of ${later.length} (${((laterThrottled / later.length) * 100).toFixed(2)}%, target <= 1%); ${paced.throttled} in all`,
          acceptedRate >= 19 && laterThrottled / later.length <= 0.01,
        ) && allOk;
    } finally {
      await sandbox.stop();
    }
  }
} finally {
  cleanup();
}
process.exitCode = allOk ? 0 : 1;
