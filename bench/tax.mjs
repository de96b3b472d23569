// Tax callback benchmarks (`b2bctl tax serve`), each figure beside its baseline in the same run:
//   1. answers/s and p99 at concurrency 32, 50 items a request, from a table: against a bare node http server
//      answering a constant body of the same size (target: p99 <= 5 ms and >= 80% of its rate);
//   2. a 100,000-row table replaced while under load: every request answered 200, p99 during the swap reported;
//   3. --forward-to with an ERP answering in 200 ms, 2 s and never, budget 300 ms: every answer within the budget
//      plus 10 ms.
// Usage: npm run bench:tax [-- --quick]
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { benchEnv, cli, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';
import { startServer } from './lib/server-process.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick');
const requests = quick ? 2_000 : 10_000;
const concurrency = 32;
const token = 'bench-tax-token-0123456789abcdef01234';
const folder = mkdtempSync(join(tmpdir(), 'b2bctl-bench-tax-'));
const { env, cleanup } = benchEnv({ B2BCTL_TAX_TOKEN: token });
let allOk = true;

const header = 'ncm;from;to;buyer;icmsRate;icmsBaseReduction;ipiRate;mva;destinationRate;fcpRate\n';
/** A table of `rows` NCMs (84000000 + n) for SP → RJ and SP → MG, taxpayer and not; `icmsRate` marks the version. */
function writeTable(path, rows, icmsRate) {
  const lines = [header];
  for (let n = 0; n < rows / 4; n++) {
    const ncm = String(84_000_000 + n);
    lines.push(
      `${ncm};SP;RJ;taxpayer;${icmsRate};;5;40;20;\n${ncm};SP;RJ;non-taxpayer;${icmsRate};;5;;20;2\n`,
      `${ncm};SP;MG;taxpayer;${icmsRate};;5;;18;\n${ncm};SP;MG;non-taxpayer;${icmsRate};;5;;18;2\n`,
    );
  }
  writeFileSync(`${path}.new`, lines.join(''));
  renameSync(`${path}.new`, path);
}

/** A cart of 50 items in the callback's default shape. */
const cart = JSON.stringify({
  origin: { state: 'SP' },
  destination: { state: 'RJ' },
  customer: { document: '11.222.333/0001-81', paysIcms: true },
  items: Array.from({ length: 50 }, (_, n) => ({
    sku: `SKU-${n}`,
    ncm: String(84_000_000 + n * 7),
    quantity: 1 + (n % 9),
    unitPrice: 10 + n * 1.37,
    discount: 0,
    freight: 1.5,
  })),
});

/** Sends `count` carts with `concurrency` in flight; answers/s, p99, the largest latency and the statuses. */
async function drive(url, count, { during } = {}) {
  const pool = new Pool(url, { connections: concurrency, pipelining: 1 });
  const latencies = [];
  const statuses = new Map();
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const sent = performance.now();
      const answer = await pool.request({
        method: 'POST',
        path: '/tax',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: cart,
      });
      await answer.body.text();
      latencies.push(performance.now() - sent);
      statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
    }
  };
  const work = Promise.all(Array.from({ length: concurrency }, worker));
  await during?.();
  await work;
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    rate: count / seconds,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    max: latencies.at(-1) ?? 0,
    statuses,
  };
}

const serveArgs = (rules, extra = []) => [
  cli,
  'tax',
  'serve',
  '--rules',
  rules,
  '--auth',
  'bearer',
  '--port',
  '0',
  ...extra,
];

try {
  console.log(
    `tax serve benchmarks (Node ${process.version}${quick ? ', quick' : ''}; concurrency ${concurrency}, 50 items a request)`,
  );

  // 1. Answers from the table against a bare server answering a body of the same size.
  const small = join(folder, 'impostos.csv');
  writeTable(small, 4_000, 12);
  const tax = await startServer(serveArgs(small), env);
  const sample = await fetch(`${tax.url}/tax`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: cart,
  });
  const answerBody = await sample.text();
  if (sample.status !== 200) throw new Error(`tax serve answered ${sample.status}: ${answerBody}`);
  const bare = await startServer(
    [
      '-e',
      `const body = ${JSON.stringify(answerBody)};
       const server = require('node:http').createServer((request, response) => {
         request.resume();
         request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
       });
       server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`,
    ],
    env,
  );
  await drive(tax.url, 500);
  await drive(bare.url, 500);
  const ours = await drive(tax.url, requests);
  const baseline = await drive(bare.url, requests);
  await bare.stop();
  await tax.stop();
  const share = ours.rate / baseline.rate;
  allOk =
    verdict(
      'tax serve, 50 items, from the table',
      `${Math.round(ours.rate)} answers/s, p99 ${ours.p99.toFixed(1)} ms; bare http ${Math.round(baseline.rate)}/s, p99 ${baseline.p99.toFixed(1)} ms: ${(share * 100).toFixed(0)}% (target p99 <= 5 ms, >= 80%)`,
      ours.p99 <= 5 && share >= 0.8,
    ) && allOk;

  // 2. A 100,000-row table replaced under load.
  const large = join(folder, 'grande.csv');
  writeTable(large, 100_000, 12);
  const reloading = await startServer(serveArgs(large), env);
  const swapped = await drive(reloading.url, requests, {
    during: async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      writeTable(large, 100_000, 7);
      while (!/reloaded: 100000 rows/.test(reloading.stderr())) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  });
  await reloading.stop();
  const failed = requests - (swapped.statuses.get(200) ?? 0);
  allOk =
    verdict(
      '100,000-row table replaced under load',
      `${failed} of ${requests} requests not 200; p99 ${swapped.p99.toFixed(1)} ms, largest ${swapped.max.toFixed(0)} ms over the run (target: none failed)`,
      failed === 0,
    ) && allOk;

  // 3. --forward-to an ERP that answers in 200 ms, 2 s, never; the budget is 300 ms.
  for (const [name, delayMs] of [
    ['200 ms', 200],
    ['2 s', 2_000],
    ['never', undefined],
  ]) {
    const erp = createServer((request, response) => {
      request.resume();
      if (delayMs === undefined) return;
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'), delayMs);
    });
    await new Promise((resolve) => erp.listen(0, '127.0.0.1', resolve));
    const forwarding = await startServer(
      serveArgs(small, ['--forward-to', `http://127.0.0.1:${erp.address().port}/impostos`, '--budget', '300ms']),
      env,
    );
    const figures = await drive(forwarding.url, 200);
    await forwarding.stop();
    erp.closeAllConnections();
    erp.close();
    allOk =
      verdict(
        `--forward-to, ERP answering in ${name}`,
        `largest answer ${figures.max.toFixed(0)} ms, p99 ${figures.p99.toFixed(0)} ms for a 300 ms budget (target: <= 310 ms)`,
        figures.max <= 310 && (figures.statuses.get(200) ?? 0) === 200,
      ) && allOk;
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
  cleanup();
}
process.exitCode = allOk ? 0 : 1;
