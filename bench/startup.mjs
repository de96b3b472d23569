// Start-up cost of b2bctl against bare Node, measured in one run so the ratio survives a noisy machine.
// Usage: npm run bench:startup [-- RUNS | --quick] [--against OTHER/bin/b2bctl.js] [--binary [FILE]] [--cpu]
//   RUNS     runs of each command, interleaved, after 3 warm-ups (default 30; --quick: 10)
//   --against another build's launcher (a checkout of main, built), measured in the same run: before and after
//   --binary the single executable too (`npm run build:binary`'s, or FILE), run as itself: no node in front
//   --cpu    compare CPU time (user + system) instead of wall time: steadier on a machine busy with other work
// The machine is noisy: the median decides, and the fastest run is shown beside it as a floor.
// Targets (public APIs only, see bench/README.md): --version <= 1.15x, a command's --help <= 1.35x of `node -e 0`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const argv = process.argv.slice(2);
const cpuAt = argv.indexOf('--cpu');
const cpu = cpuAt >= 0;
if (cpu) argv.splice(cpuAt, 1);
const cpuFolder = cpu ? mkdtempSync(join(tmpdir(), 'b2bctl-bench-cpu-')) : undefined;
const cpuFile = cpuFolder && join(cpuFolder, 'cpu');
const againstAt = argv.indexOf('--against');
const against = againstAt < 0 ? undefined : resolve(argv.splice(againstAt, 2)[1] ?? '');
const binaryAt = argv.indexOf('--binary');
const binaryDefault = join(import.meta.dirname, '..', 'dist', 'bin', `b2bctl-${process.platform}-${process.arch}`);
const binary =
  binaryAt < 0
    ? undefined
    : argv[binaryAt + 1] !== undefined && !/^\d+$/.test(argv[binaryAt + 1]) && !argv[binaryAt + 1].startsWith('-')
      ? resolve(argv.splice(binaryAt, 2)[1])
      : (argv.splice(binaryAt, 1), binaryDefault);
if (binary && !existsSync(binary)) throw new Error(`--binary: no ${binary}; run npm run build:binary first`);
// --quick, as the other benchmarks take it: 10 runs.
const quickAt = argv.indexOf('--quick');
if (quickAt >= 0) argv.splice(quickAt, 1);
const runs = Number(argv[0] ?? (quickAt >= 0 ? 10 : 30));
if (!Number.isInteger(runs) || runs < 1) throw new Error(`RUNS must be a whole number, not ${argv[0]}`);
const cli = join(import.meta.dirname, '..', 'bin', 'b2bctl.js');
const launchers = against
  ? [
      { label: 'b2bctl', path: cli },
      { label: 'before:', path: against },
    ]
  : [{ label: 'b2bctl', path: cli }];
const commands = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
  ...launchers.flatMap(({ label, path }) => [
    { name: `${label} --version`, args: [path, '--version'], target: 1.15 },
    { name: `${label} sellers list --help`, args: [path, 'sellers', 'list', '--help'], target: 1.35 },
  ]),
  ...(binary
    ? [
        { name: 'single file --version', program: binary, args: ['--version'] },
        { name: 'single file sellers list --help', program: binary, args: ['sellers', 'list', '--help'] },
      ]
    : []),
];

/** Milliseconds of one run: wall time, or with --cpu the CPU time the process reports on exit. */
function timeOnce(args, program = process.execPath) {
  const env = cpu
    ? {
        ...process.env,
        NODE_OPTIONS: `--require ${join(import.meta.dirname, 'lib', 'cpu-time.cjs')}`,
        B2BCTL_BENCH_CPU_FILE: cpuFile,
      }
    : process.env;
  const started = process.hrtime.bigint();
  const result = spawnSync(program, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  if (cpu) return Number(readFileSync(cpuFile, 'utf8')) / 1000;
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values) => {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

for (let warmUp = 0; warmUp < 3; warmUp++) for (const command of commands) timeOnce(command.args, command.program);
const samples = commands.map(() => []);
// Interleaved, so a burst of load elsewhere on the machine hits every command alike.
for (let run = 0; run < runs; run++)
  commands.forEach((command, index) => samples[index].push(timeOnce(command.args, command.program)));

if (cpuFolder) rmSync(cpuFolder, { recursive: true, force: true });
const baseline = median(samples[0]);
console.log(
  `start-up ${cpu ? 'CPU time' : 'wall time'}, median of ${runs} runs (Node ${process.version}, ${process.platform}/${process.arch})`,
);
let missed = false;
commands.forEach((command, index) => {
  const value = median(samples[index]);
  const ratio = value / baseline;
  const fastest = Math.min(...samples[index]) / Math.min(...samples[0]);
  const { target } = command;
  const before = command.args[0] === against;
  const verdict =
    command.program !== undefined
      ? 'single file, no node in front'
      : target === undefined
        ? 'baseline'
        : before
          ? `(the other build; target <= ${target}x)`
          : ratio <= target
            ? `ok (target <= ${target}x)`
            : `MISSES target ${target}x`;
  if (target !== undefined && !before && ratio > target) missed = true;
  console.log(
    `${command.name.padEnd(34)} ${value.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x (fastest runs: ${fastest.toFixed(2)}x)  ${verdict}`,
  );
});
process.exitCode = missed ? 1 : 0;
