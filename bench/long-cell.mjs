// What one very long cell costs: `stock validate` of a file whose one row holds a quoted cell of N MB (Portuguese
// text with line breaks, the shape of a pasted description, in a column left out), with input.maxRowChars raised to
// read it, against
// csv-parse run with b2bctl's own options over the same file in its own process (bench/lib/same-options-parse.cjs).
// Both are measured in CPU time (user + system, reported by the process on exit), which a loaded machine disturbs
// far less than wall time; the runs are interleaved, three each, and the medians compared. The cell's own cost is
// each side's time less its time for the same file with a short cell (start-up and fixed costs).
// Target: the long cell costs b2bctl no more than csv-parse takes for it (1.0x). A record past a megabyte is split piece
// by piece as the file is read (docs/decisions/0001-csv-splitter.md, second revision); --quick measures a 10 MB cell.
// Usage: node bench/long-cell.mjs [--quick] [--megabytes N]
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, cli, outDir, root, verdict } from './lib/harness.mjs';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

/** Milliseconds as seconds with two decimals. */
const seconds = (ms) => (ms / 1000).toFixed(2);

exitWithUsageOnHelp(import.meta.url);
const quick = process.argv.includes('--quick');
const megabytesFlag = process.argv.indexOf('--megabytes');
const megabytes = megabytesFlag === -1 ? (quick ? 10 : 50) : Number(process.argv[megabytesFlag + 1]);
const cpuFile = join(outDir, `long-cell-cpu-${process.pid}`);
const preload = `--require ${join(root, 'bench', 'lib', 'cpu-time.cjs')}`;

/** CPU milliseconds of one process run to its end. */
function cpuMs(args, env) {
  const result = spawnSync(process.execPath, args, {
    env: { ...env, NODE_OPTIONS: preload, B2BCTL_BENCH_CPU_FILE: cpuFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(readFileSync(cpuFile, 'utf8')) / 1000;
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

const file = join(outDir, `long-cell-${megabytes}mb.csv`);
const line = 'Açúcar refinado São João, fardo com 6; "extra" – linha\n';
const cell = line.repeat(Math.ceil((megabytes * 1024 * 1024) / line.length)).replaceAll('"', '""');
// In a column no stock field reads (left out with --ignore-column): what is measured is the reading of the cell.
writeFileSync(file, `sku;quantity;descrição\nACU-REF-5KG;12;"${cell}"\n`);
const shortFile = join(outDir, 'long-cell-short.csv');
writeFileSync(shortFile, `sku;quantity;descrição\nACU-REF-5KG;12;"${line.replaceAll('"', '""')}"\n`);

console.log(`long-cell benchmark (Node ${process.version}, a cell of ${megabytes} MB)`);
const { env, cleanup } = benchEnv();
try {
  const set = spawnSync(process.execPath, [cli, 'config', 'set', 'input.maxRowChars', String(cell.length * 2)], {
    env,
  });
  if (set.status !== 0) throw new Error(`config set failed: ${set.stderr}`);
  const runs = { ours: [], floor: [], oursShort: [], floorShort: [] };
  const ourRun = (input) => cpuMs([cli, 'stock', 'validate', input, '--ignore-column', 'descrição'], env);
  const floorRun = (input) => cpuMs([join(root, 'bench', 'lib', 'same-options-parse.cjs'), input, ';'], env);
  for (let run = 0; run < 3; run++) {
    runs.ours.push(ourRun(file));
    runs.floor.push(floorRun(file));
    runs.oursShort.push(ourRun(shortFile));
    runs.floorShort.push(floorRun(shortFile));
  }
  const [ours, floor, oursShort, floorShort] = [runs.ours, runs.floor, runs.oursShort, runs.floorShort].map(median);
  console.log(
    `${'whole runs'.padEnd(44)} ${seconds(ours)} vs ${seconds(floor)} CPU-s: ${(ours / floor).toFixed(2)}x (a short cell: ${seconds(oursShort)} vs ${seconds(floorShort)})`,
  );
  const ratio = (ours - oursShort) / (floor - floorShort);
  const ok = verdict(
    `the ${megabytes} MB cell vs same-options csv-parse`,
    `${seconds(ours - oursShort)} vs ${seconds(floor - floorShort)} CPU-s: ${ratio.toFixed(2)}x (target <= 1.0x)`,
    ratio <= 1.0,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  cleanup();
  rmSync(file, { force: true });
  rmSync(shortFile, { force: true });
  rmSync(cpuFile, { force: true });
}
