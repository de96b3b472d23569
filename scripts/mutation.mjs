#!/usr/bin/env node
// Mutation testing of the modules that keep data (docs/testing.md): StrykerJS mutates one module at a time and runs
// only the tests related to it (vitest's import graph), one test process, then a table of the scores is printed.
// Usage: npm run test:mutation [-- --only NAME-PART] [-- --summary]   (--summary: the table of the last reports only)
// Each module's report is reports/mutation/<name>.json. Exit code 1 when a module measured scores under 80%.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const webhookUnitTests = 'test/unit/webhook/**/*.test.ts';

/** The modules whose failure loses or duplicates data, by name (then extra Stryker flags, the tests to run, variables). */
const modules = [
  ['webhook-tokens', 'src/http-server/tokens.ts'],
  ['cursor-file', 'src/orders/cursor-file.ts'],
  ['stock-answers', 'src/platform/answers/stock.ts'],
  // The word lists and signs of refusal stock.ts reads with, moved out beside it (customers.ts reads them too): the
  // answers' unit tables kill their mutants, as they did when the lists were in stock.ts.
  [
    'status-words',
    'src/platform/answers/status-words.ts',
    [],
    'test/unit/platform/answers/stock.test.ts,test/unit/platform/answers/stock-words.test.ts,test/unit/platform/answers/refusal-signs.test.ts',
  ],
  [
    'refusal-signs',
    'src/platform/answers/refusal-signs.ts',
    [],
    'test/unit/platform/answers/stock.test.ts,test/unit/platform/answers/stock-words.test.ts,test/unit/platform/answers/refusal-signs.test.ts',
  ],
  ['customer-create', 'src/commands/customer/create.ts'],
  ['run-meta', 'src/bulk/run-meta.ts'],
  ['resume', 'src/bulk/resume.ts'],
  ['run-ledger', 'src/bulk/run-ledger.ts'],
  ['verdict-spool', 'src/bulk/verdict-spool.ts'],
  ['lock', 'src/config/lock.ts'],
  ['pacer', 'src/platform/pacer.ts'],
  // Its seeded proof (orders-scan.test.ts) covers nearly every mutant: 100 seeds per mutant instead of 1,000. It
  // runs the tests of the scan itself: with every related test (orders poll's), about 45 minutes here.
  [
    'window-scan',
    'src/orders/window-scan.ts',
    [],
    'test/unit/orders/window-scan.test.ts,test/unit/orders/window-scan-churn.test.ts,test/unit/domain/orders-scan.test.ts',
    { ORDERS_SCAN_SEEDS: '100' },
  ],
  ['orders-window', 'src/domain/orders-window.ts'],
  // A mistyped tracking code sent, or a valid one refused: the check digit's vectors (remainders 0, 1 and 10).
  ['tracking', 'src/domain/tracking.ts', [], 'test/unit/domain/tracking.test.ts'],
  // A move sent twice by a resumed run: the resumed --no-status-check runs after a kill, the answers lost on the way
  // back, and the dialect tests (the other orders tests change folder and are left out).
  [
    'move-sender',
    'src/orders/moves/sender.ts',
    [],
    'test/commands/orders/update-unanswered.test.ts,test/commands/orders/update-lost-answers.test.ts,test/commands/orders/dialects.test.ts',
  ],
  // A proxy's password printed by doctor: describeNetworkProblem, where a proxy's refusals are worded and redacted
  // (lines 59-85; the rest of the file, certificate and timeout wording, is the e2e layer's to prove). Every related
  // test did not finish Stryker's first run in 5 minutes here; the proxy and net tests kill these.
  [
    'proxy-refusals',
    'src/net/network-error.ts:59-85',
    [],
    'test/commands/doctor/proxy-refusal.test.ts,test/unit/net/**/*.test.ts',
  ],
  ['webhook-group-commit', 'src/webhook/store/group-commit.ts'],
  // The webhook modules below are reached by some 600 tests (every command that starts a receiver); under Stryker
  // that was about an hour a module here. They run the webhook unit tests only (MUTATION_TESTS), which test them
  // directly. The SQL texts and the receiver's tables (content type, paths, error codes) are module-level: each
  // of their mutants reruns every test; left out (--ignoreStatic), killed by the store contract and the
  // receiver's answer tests instead (docs/testing.md).
  ['webhook-queries', 'src/webhook/store/queries.ts', ['--ignoreStatic'], webhookUnitTests],
  ['webhook-sqlite', 'src/webhook/store/sqlite-store.ts'],
  [
    'webhook-receiver',
    'src/webhook/receiver.ts',
    ['--ignoreStatic'],
    `${webhookUnitTests},test/commands/webhook/trust-proxy.test.ts`,
  ],
  ['webhook-hand-off', 'src/webhook/hand-off.ts', [], webhookUnitTests],
  ['webhook-postgres', 'src/webhook/store/postgres-store.ts', [], webhookUnitTests],
  // Retention: a slice of old events removed only up to the slowest hand-off's position (two hand-offs at different
  // positions, store-contract.test.ts), and the pass that runs it every hour.
  [
    'webhook-prune',
    'src/webhook/store/prune-slices.ts',
    [],
    'test/unit/webhook/store-contract.test.ts,test/unit/webhook/store.test.ts,test/unit/webhook/prune-slices.test.ts',
  ],
  [
    'webhook-retention',
    'src/webhook/retention.ts',
    [],
    'test/unit/webhook/retention.test.ts,test/unit/webhook/space.test.ts',
  ],
];
const target = 80;

const argument = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const only = argument('--only');
const chosen = modules.filter(([name]) => !only || name.includes(only));
const reportOf = (name) => `reports/mutation/${name}.json`;

if (!process.argv.includes('--summary')) {
  for (const [name, file, extra = [], tests, environment = {}] of chosen) {
    console.log(`\n=== ${name}: ${file}${tests ? ` (tests: ${tests})` : ''}`);
    const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs', '--mutate', file, ...extra], {
      stdio: 'inherit',
      env: {
        ...process.env,
        ...environment,
        STRYKER_JSON_REPORT: reportOf(name),
        ...(tests ? { MUTATION_TESTS: tests } : {}),
      },
    });
    if (run.status !== 0) console.log(`stryker ended with ${run.status ?? run.signal} for ${name}`);
  }
}

/** Stryker's score: killed and timed-out mutants over all valid ones (survivors and those no test covers count against). */
function scoreOf(report) {
  const counts = {};
  for (const file of Object.values(report.files))
    for (const mutant of file.mutants) counts[mutant.status] = (counts[mutant.status] ?? 0) + 1;
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const valid = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  return { counts, score: valid === 0 ? 100 : (100 * detected) / valid };
}

let under = 0;
console.log('\nmodule           file                                  score   killed  timeout  survived  no-cov');
for (const [name, file] of chosen) {
  if (!existsSync(reportOf(name))) {
    console.log(`${name.padEnd(16)} ${file.padEnd(37)} not measured`);
    continue;
  }
  const { counts, score } = scoreOf(JSON.parse(readFileSync(reportOf(name), 'utf8')));
  if (score < target) under++;
  console.log(
    `${name.padEnd(16)} ${file.padEnd(37)} ${score.toFixed(1).padStart(5)}%  ${String(counts.Killed ?? 0).padStart(6)}  ${String(counts.Timeout ?? 0).padStart(7)}  ${String(counts.Survived ?? 0).padStart(8)}  ${String(counts.NoCoverage ?? 0).padStart(6)}`,
  );
}
process.exitCode = under > 0 ? 1 : 0;
