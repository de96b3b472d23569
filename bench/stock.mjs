// Stock benchmarks, each figure beside an honest baseline measured in the same run:
//   1. end to end, as an operator sees it: `stock push` of 1,000,000 rows through the queue route (validation pass
//      included), requests/s over the limit a user would name: the file's own distinct 200-item bodies, serialised
//      beforehand, sent with undici at the same concurrency to the same sandbox (target >= 0.35); autocannon replaying
//      one ready body is printed as the wire's ceiling;
//   2. `stock validate` of the same file over csv-parse run with b2bctl's own options (target <= 1.2x), and beside it
//      `customer validate` of 100,000 rows over its own same-options csv-parse (target <= 1.8x);
//   3. how cost grows: push at 10k, 100k and 1M rows, microseconds and bytes of peak RSS per row (flat is the target);
//      peak RSS of the 1M push (target <= 150 MB and <= 1.5x of the 100k push);
//   4. pacing: against --rate-limit 20, the accepted requests/s over a 30-second push (target >= 95% of 20), and the
//      share of requests answered 429 after the first 5 seconds (target <= 1%).
// Usage: npm run bench:stock [-- --quick] [-- --only throughput|pacing]   (--quick: 200,000 rows and a 12-second pacing run)
import autocannon from 'autocannon';
import { join } from 'node:path';
import {
  benchEnv,
  cachedToken,
  generated,
  login,
  megabytes,
  root,
  runCli,
  sameOptionsParse,
  startSandbox,
  timeProcess,
  verdict,
} from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick');
const large = quick ? 200_000 : 1_000_000;
const small = quick ? 20_000 : 100_000;
const tiny = quick ? 2_000 : 10_000;
const customerRows = quick ? 20_000 : 100_000;
const pacingSeconds = quick ? 12 : 30;
const connections = 8;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
let allOk = true;

/** The figures of a push from its summary line: "...; 5000 requests, 0 retries, 3 throttled (429); 21.3 s, 46948 items/s". */
function summaryOf(stderr) {
  const match = /(\d+) requests?, (\d+) retr(?:y|ies), (\d+) throttled \(429\); ([\d.]+) s, (\d+) items\/s/.exec(
    stderr,
  );
  if (!match) throw new Error(`no summary line in:\n${stderr}`);
  return {
    requests: Number(match[1]),
    retries: Number(match[2]),
    throttled: Number(match[3]),
    seconds: Number(match[4]),
    itemsPerSecond: Number(match[5]),
  };
}

async function push(url, env, file, extra = [], nodeFlags = []) {
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
    { env, nodeFlags },
  );
  if (result.code !== 0) throw new Error(`stock push exited ${result.code}: ${result.stderr}`);
  return { ...summaryOf(result.stderr), maxRss: result.maxRss, wallMs: result.ms };
}

/** autocannon against the queue route with the 200-item body our push sends, same connections, in the same run. */
async function autocannonBaseline(url, env, file) {
  const token = cachedToken(env);
  const { readFileSync } = await import('node:fs');
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

/** The time a further row costs between two runs of different sizes. */
const marginal = (from, fromRows, to, toRows) =>
  `${(((to.wallMs - from.wallMs) * 1000) / (toRows - fromRows)).toFixed(1)} us`;

/** Time and peak memory a row costs in one push: flat across sizes when nothing grows with the file. */
const perRow = (run, rows) => `${((run.wallMs * 1000) / rows).toFixed(1)} us, ${(run.maxRss / rows).toFixed(0)} B RSS`;

console.log(`stock benchmarks (Node ${process.version}${quick ? ', quick' : ''})`);
const { env, cleanup } = benchEnv();
try {
  let sandbox;
  if (only === undefined || only === 'throughput') {
    const largeFile = await generated('generate-stock.mjs', large);
    const smallFile = await generated('generate-stock.mjs', small);
    const tinyFile = await generated('generate-stock.mjs', tiny);
    const floor = await sameOptionsParse(largeFile, ',');
    const validate = await runCli(['stock', 'validate', largeFile, '-o', 'ndjson'], { env });
    if (validate.code !== 0) throw new Error(`stock validate failed: ${validate.stderr}`);
    allOk =
      verdict(
        `validate ${large} rows vs same-options csv-parse`,
        `${(validate.ms / 1000).toFixed(2)} s vs ${(floor.ms / 1000).toFixed(2)} s: ${(validate.ms / floor.ms).toFixed(2)}x (target <= 1.2x)`,
        validate.ms / floor.ms <= 1.2,
      ) && allOk;
    // customer validate beside it, against its own same-options csv-parse measured now (bench:customers has it too).
    const customersFile = await generated('generate-customers.mjs', customerRows);
    const customersFloor = await sameOptionsParse(customersFile, ',');
    const customers = await runCli(['customer', 'validate', customersFile, '-o', 'ndjson'], { env });
    if (customers.code !== 0) throw new Error(`customer validate failed: ${customers.stderr}`);
    allOk =
      verdict(
        `customer validate ${customerRows} rows vs csv-parse`,
        `${(customers.ms / 1000).toFixed(2)} s vs ${(customersFloor.ms / 1000).toFixed(2)} s: ${(customers.ms / customersFloor.ms).toFixed(2)}x (target <= 1.8x)`,
        customers.ms / customersFloor.ms <= 1.8,
      ) && allOk;

    sandbox = await startSandbox([], env);
    try {
      await login(sandbox.url, env);
      const ceilingRps = await autocannonBaseline(sandbox.url, env, largeFile);
      const distinct = JSON.parse(
        (
          await timeProcess([
            join(root, 'bench', 'lib', 'distinct-bodies.mjs'),
            sandbox.url,
            cachedToken(env),
            largeFile,
            String(connections),
            '200',
          ])
        ).stdout,
      );
      if (distinct.failures > 0) throw new Error(`the distinct-body baseline got ${distinct.failures} failed answers`);
      const limitRps = distinct.requests / (distinct.ms / 1000);
      const big = await push(sandbox.url, env, largeFile, ['--route', 'queue']);
      const endToEndRps = big.requests / (big.wallMs / 1000);
      allOk =
        verdict(
          `push ${large} rows end to end, queue route`,
          `${(big.wallMs / 1000).toFixed(1)} s, ${endToEndRps.toFixed(0)} requests/s vs distinct-body undici ${limitRps.toFixed(0)}/s: ${(endToEndRps / limitRps).toFixed(2)} (target >= 0.35); vs autocannon single body ${ceilingRps.toFixed(0)}/s: ${(endToEndRps / ceilingRps).toFixed(2)}`,
          endToEndRps / limitRps >= 0.35,
        ) && allOk;
      const little = await push(sandbox.url, env, smallFile, ['--route', 'queue']);
      const least = await push(sandbox.url, env, tinyFile, ['--route', 'queue']);
      // Fixed costs (start-up, login, the first connections) weigh on small files, so the growth shows in the
      // marginal cost of each further row between sizes, which is flat when nothing grows with the file.
      console.log(
        `${`cost per row ${tiny}/${small}/${large}`.padEnd(44)} ${perRow(least, tiny)} / ${perRow(little, small)} / ${perRow(big, large)}; marginal ${marginal(least, tiny, little, small)} then ${marginal(little, small, big, large)}`,
      );
      const memoryRatio = big.maxRss / little.maxRss;
      allOk =
        verdict(
          `peak RSS push ${large} vs ${small} rows`,
          `${megabytes(big.maxRss)} vs ${megabytes(little.maxRss)}: ${memoryRatio.toFixed(2)}x (target <= 1.5x, <= 150 MB)`,
          memoryRatio <= 1.5 && big.maxRss <= 150 * 1024 * 1024,
        ) && allOk;
      // The launcher's one V8 flag (docs/decisions/0011), shown beside the same push without it.
      const tiered = await push(sandbox.url, env, largeFile, ['--route', 'queue'], ['--no-liftoff-only']);
      console.log(
        `${`peak RSS push ${large}, WebAssembly tier-up on`.padEnd(44)} ${megabytes(tiered.maxRss)} vs ${megabytes(big.maxRss)} with the launcher's --liftoff-only (${(tiered.wallMs / 1000).toFixed(1)} s vs ${(big.wallMs / 1000).toFixed(1)} s)`,
      );
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
      // The sandbox counts the login in its one-second window. A push right after it found 19 free places in the
      // window the first 429 ended, learned 19 and kept 93% of the limit until it probed 30 s later; a cron run
      // uses its cached token, so its first requests have the window to themselves (bench/README.md).
      await new Promise((resolve) => setTimeout(resolve, 1100));
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
