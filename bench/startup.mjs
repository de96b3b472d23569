// Start-up cost of b2bctl against bare Node, measured in one run so the ratio survives a noisy machine.
// Usage: npm run bench:startup [-- RUNS] [--against OTHER/bin/b2bctl.js]
//   RUNS     runs of each command, interleaved, after 3 warm-ups (default 30)
//   --against another build's launcher (a checkout of main, built), measured in the same run: before and after
// The machine is noisy: the median decides, and the fastest run is shown beside it as a floor.
// Targets (issue 14): --version <= 1.1x, a command's --help <= 1.2x of `node -e 0`.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const argv = process.argv.slice(2);
const againstAt = argv.indexOf('--against');
const against = againstAt < 0 ? undefined : resolve(argv.splice(againstAt, 2)[1] ?? '');
const runs = Number(argv[0] ?? 30);
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
    { name: `${label} --version`, args: [path, '--version'], target: 1.1 },
    { name: `${label} sellers list --help`, args: [path, 'sellers', 'list', '--help'], target: 1.2 },
  ]),
];

function timeOnce(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values) => {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

for (let warmUp = 0; warmUp < 3; warmUp++) for (const command of commands) timeOnce(command.args);
const samples = commands.map(() => []);
// Interleaved, so a burst of load elsewhere on the machine hits every command alike.
for (let run = 0; run < runs; run++) commands.forEach((command, index) => samples[index].push(timeOnce(command.args)));

const baseline = median(samples[0]);
console.log(`start-up, median of ${runs} runs (Node ${process.version}, ${process.platform}/${process.arch})`);
let missed = false;
commands.forEach((command, index) => {
  const value = median(samples[index]);
  const ratio = value / baseline;
  const fastest = Math.min(...samples[index]) / Math.min(...samples[0]);
  const { target } = command;
  const before = command.args[0] === against;
  const verdict =
    target === undefined
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
