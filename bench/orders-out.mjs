// Orders out (`orders update`), each figure beside a baseline measured in the same run:
//   1. pacing: a file of moves (ready, invoice by key, ship for each order; 10,000 moves, --quick 600) against a
//      sandbox with --rate-limit 20: the platform requests accepted per second (the moves and the one status read per
//      order; target >= 95% of 20) and the share of requests answered 429 after the first 5 seconds (target <= 1%);
//   2. validation: `orders update --dry-run` of 10,000 invoice rows (--quick 2,000), each with its own NF-e file,
//      per file, beside fast-xml-parser alone reading, validating and parsing the same files in one process
//      (reported; target <= 4x: the rest is the CSV reader, the key, emitter and protocol checks, and the spool).
// Usage: npm run bench:orders-out [-- --quick] [-- --only pacing|validation]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { benchEnv, login, outDir, runCli, startSandbox, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const quick = process.argv.includes('--quick');
const moves = quick ? 600 : 10_000;
const files = quick ? 2_000 : 10_000;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
let allOk = true;

/** The access key check digit: modulus 11, weights 2 to 9 from the right. */
function checkDigit(first43) {
  let sum = 0;
  let weight = 2;
  for (let index = first43.length - 1; index >= 0; index--) {
    sum += (first43.charCodeAt(index) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  return sum % 11 < 2 ? 0 : 11 - (sum % 11);
}

/** The n-th key of a series of an emitter (11.222.333/0001-81, São Paulo, October 2026). */
function keyNumber(n) {
  const first43 = `352610112223330001815500${String(1 + Math.floor(n / 1e9)).padStart(1, '0')}${String(n % 1e9).padStart(9, '0')}1${String(10_000_000 + n).slice(-8)}`;
  return first43 + checkDigit(first43);
}

/** Writes `count` distinct authorised NF-e files from the sample's shape into `folder`; returns their names. */
function writeNfeFiles(folder, count) {
  const template = readFileSync(
    join(import.meta.dirname, '..', 'samples', 'nfe', '35261011222333000181550010000012341123456787.xml'),
    'utf8',
  );
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: count }, (_, n) => {
    const key = keyNumber(n);
    const name = `${key}.xml`;
    writeFileSync(join(folder, name), template.replaceAll('35261011222333000181550010000012341123456787', key));
    return name;
  });
}

async function pacing(env) {
  const sandbox = await startSandbox(['--rate-limit', '20', '--orders', '0', '--verbose'], env);
  try {
    await login(sandbox.url, env);
    const orders = Math.ceil(moves / 3);
    const ids = [];
    for (let n = 0; n < orders; n++) {
      const response = await fetch(`${sandbox.url}/_sandbox/orders`, { method: 'POST' });
      ids.push((await response.json()).id);
    }
    const rows = ['order,action,erpNumber,invoiceKey,carrier,trackingCode'];
    for (let step = 0; step < 3; step++)
      for (const [n, id] of ids.entries()) {
        if (rows.length > moves) break;
        rows.push(
          [`${id},ready,PV-${id},,,`, `${id},invoice,,${keyNumber(n)},,`, `${id},ship,,,Correios,SS123456785BR`][step],
        );
      }
    const file = join(outDir, `orders-out-${moves}.csv`);
    writeFileSync(file, `${rows.join('\n')}\n`);
    // A cron run uses its cached token: the login's request leaves the rate window first.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const started = performance.now();
    const result = await runCli(
      [
        'orders',
        'update',
        file,
        '--concurrency',
        '8',
        '--rate',
        '50',
        '--retries',
        '10',
        '--report',
        `${file}.report-${Date.now()}.csv`,
      ],
      { env },
    );
    if (result.code !== 0) throw new Error(`orders update exited ${result.code}: ${result.stderr}`);
    const answers = sandbox.logLines
      .filter(({ at }) => at >= started)
      .map(({ at, line }) => ({ at, match: /^(GET|PUT|POST) \/v1\/orders\/\d+\S* (\d{3}) /.exec(line) }))
      .filter((entry) => entry.match)
      .map((entry) => ({ at: entry.at, status: Number(entry.match[2]) }));
    const first = answers[0].at;
    const accepted = answers.filter((answer) => answer.status < 300);
    const span = (accepted.at(-1).at - first) / 1000;
    const rate = accepted.length / span;
    const later = answers.filter((answer) => answer.at - first > 5000);
    const throttled = later.filter((answer) => answer.status === 429).length;
    return verdict(
      `orders update: ${moves} moves vs --rate-limit 20 (${span.toFixed(0)} s)`,
      `${rate.toFixed(2)} accepted requests/s (${((rate / 20) * 100).toFixed(1)}% of 20; target >= 95%; ${accepted.length} requests: ${moves} moves and ${orders} status reads); 429s after 5 s: ${throttled} of ${later.length} (${((throttled / later.length) * 100).toFixed(2)}%, target <= 1%)`,
      rate >= 19 && throttled / later.length <= 0.01,
    );
  } finally {
    await sandbox.stop();
  }
}

async function validation(env) {
  const folder = join(outDir, `nfe-${files}`);
  rmSync(folder, { recursive: true, force: true });
  const names = writeNfeFiles(join(folder, 'nfe'), files);
  const file = join(folder, 'invoices.csv');
  writeFileSync(
    file,
    `order,action,invoiceXml\n${names.map((name, n) => `${n + 1},invoice,nfe/${name}`).join('\n')}\n`,
  );
  // A dry run needs a base URL (nothing is sent); an empty one for the file of 1 row gives the fixed cost.
  const dryEnv = { ...env, B2BCTL_BASE_URL: 'http://127.0.0.1:9' };
  writeFileSync(join(folder, 'one.csv'), `order,action,invoiceXml\n1,invoice,nfe/${names[0]}\n`);
  const fixed = await runCli(['orders', 'update', join(folder, 'one.csv'), '--dry-run'], { env: dryEnv });
  const whole = await runCli(['orders', 'update', file, '--dry-run'], { env: dryEnv });
  if (whole.code !== 0) throw new Error(`orders update --dry-run exited ${whole.code}: ${whole.stderr}`);
  const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, removeNSPrefix: true });
  const started = performance.now();
  for (const name of names) {
    const text = readFileSync(join(folder, 'nfe', name), 'utf8');
    if (XMLValidator.validate(text) !== true) throw new Error(`${name} is not well-formed`);
    parser.parse(text);
  }
  const alone = (performance.now() - started) / files;
  const ours = (whole.ms - fixed.ms) / files;
  rmSync(folder, { recursive: true, force: true });
  return verdict(
    `orders update --dry-run, ${files} NF-e files`,
    `${(ours * 1000).toFixed(0)} µs per row and file vs ${(alone * 1000).toFixed(0)} µs for fast-xml-parser alone (${(ours / alone).toFixed(2)}x; target <= 4x; ${(whole.ms / 1000).toFixed(1)} s whole, ${(fixed.ms / 1000).toFixed(2)} s of it start-up)`,
    ours / alone <= 4,
  );
}

const { env, cleanup } = benchEnv();
try {
  if (only === undefined || only === 'validation') allOk = (await validation(env)) && allOk;
  if (only === undefined || only === 'pacing') allOk = (await pacing(env)) && allOk;
} finally {
  cleanup();
}
process.exitCode = allOk ? 0 : 1;
