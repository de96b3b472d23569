// Start-up cost of b2bctl against bare Node, measured in one run so the ratio survives a noisy machine.
// Usage: npm run bench:startup [-- RUNS]   (default 30 runs of each command, interleaved, after 3 warm-ups)
// The machine is noisy: the median decides, and the fastest run is shown beside it as a floor.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { exitWithUsageOnHelp } from './lib/usage.mjs';

exitWithUsageOnHelp(import.meta.url);

const runs = Number(process.argv[2] ?? 30);
const cli = join(import.meta.dirname, '..', 'bin', 'b2bctl.js');
const target = 1.3;
const commands = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
  { name: 'b2bctl --version', args: [cli, '--version'] },
  { name: 'b2bctl sellers list --help', args: [cli, 'sellers', 'list', '--help'] },
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
  const verdict = index === 0 ? 'baseline' : ratio <= target ? `ok (target <= ${target}x)` : `MISSES target ${target}x`;
  if (index > 0 && ratio > target) missed = true;
  console.log(
    `${command.name.padEnd(30)} ${value.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x (fastest runs: ${fastest.toFixed(2)}x)  ${verdict}`,
  );
});
process.exitCode = missed ? 1 : 0;
