// Customer benchmarks of issue 3, each figure beside a baseline measured in the same run:
//   1. `customer validate` of 100,000 rows: rows/s, and its time over csv-parse run with b2bctl's own options over
//      the decoded stream, whole process against whole process (target <= 1.8x);
//   2. peak RSS of `customer validate` on 100,000 and 1,000,000 rows (target: the larger within 1.5x of the smaller);
//   3. `customer create` of 5,000 customers against the sandbox with 50 ms latency at --concurrency 16:
//      achieved rate against the ideal 16 / 0.05 s = 320/s (target >= 93%).
// Usage: npm run bench:customers [-- --quick]   (--quick: 20,000 and 200,000 rows, 1,000 customers)
import {
  benchEnv,
  generated,
  login,
  megabytes,
  runCli,
  sameOptionsParse,
  startSandbox,
  verdict,
} from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick');
const small = quick ? 20_000 : 100_000;
const large = quick ? 200_000 : 1_000_000;
const toCreate = quick ? 1_000 : 5_000;
let allOk = true;

console.log(`customer benchmarks (Node ${process.version}${quick ? ', quick' : ''})`);
const { env, cleanup } = benchEnv();
try {
  const smallFile = await generated('generate-customers.mjs', small);
  const largeFile = await generated('generate-customers.mjs', large);

  const floor = await sameOptionsParse(smallFile, ',');
  const validate = await runCli(['customer', 'validate', smallFile, '-o', 'ndjson'], { env });
  if (validate.code !== 0) throw new Error(`customer validate failed: ${validate.stderr}`);
  const ratio = validate.ms / floor.ms;
  allOk =
    verdict(
      `validate ${small} rows vs same-options csv-parse`,
      `${Math.round((small / validate.ms) * 1000)} rows/s (${(validate.ms / 1000).toFixed(2)} s) vs ${Math.round((floor.rows / floor.ms) * 1000)} rows/s (${(floor.ms / 1000).toFixed(2)} s): ${ratio.toFixed(2)}x (target <= 1.8x)`,
      ratio <= 1.8,
    ) && allOk;

  const validateLarge = await runCli(['customer', 'validate', largeFile, '-o', 'ndjson'], { env });
  if (validateLarge.code !== 0) throw new Error(`customer validate failed: ${validateLarge.stderr}`);
  const memoryRatio = validateLarge.maxRss / validate.maxRss;
  allOk =
    verdict(
      `peak RSS validate ${large} vs ${small} rows`,
      `${megabytes(validateLarge.maxRss)} vs ${megabytes(validate.maxRss)}: ${memoryRatio.toFixed(2)}x (target <= 1.5x)`,
      memoryRatio <= 1.5,
    ) && allOk;

  const sandbox = await startSandbox(['--latency', '50'], env);
  try {
    await login(sandbox.url, env);
    const createFile = await generated('generate-customers.mjs', toCreate, ['--start', '5000000']);
    const create = await runCli(
      ['customer', 'create', createFile, '--concurrency', '16', '--report', `${createFile}.report-${Date.now()}.csv`],
      { env },
    );
    if (create.code !== 0) throw new Error(`customer create failed (${create.code}): ${create.stderr}`);
    // The summary line's rate covers the sending pass only: "...; 15.9 s, 314 customers/s".
    const rate = Number(/(\d+) customers\/s/.exec(create.stderr)?.[1]);
    const ideal = 16 / 0.05;
    allOk =
      verdict(
        `create ${toCreate} at 50 ms latency, concurrency 16`,
        `${rate}/s vs ideal ${ideal}/s: ${((rate / ideal) * 100).toFixed(1)}% (target >= 93%)`,
        rate / ideal >= 0.93,
      ) && allOk;
  } finally {
    await sandbox.stop();
  }
} finally {
  cleanup();
}
process.exitCode = allOk ? 0 : 1;
