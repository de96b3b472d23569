#!/usr/bin/env node
// The suite on a busy machine: two CPU-bound processes run beside `vitest run` for its whole length, as other work
// on a laptop or a shared CI runner would (docs in CONTRIBUTING.md, "Tests on a busy machine"). Arguments go to
// vitest (`npm run test:busy -- --project unit`). Exit code: vitest's.
// Usage: npm run test:busy [-- VITEST-ARGS]
import { spawn } from 'node:child_process';

const hogs = [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
const stopHogs = () => {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGKILL');
};
process.on('exit', stopHogs);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const started = Date.now();
console.log(`test:busy: two CPU-bound processes (${hogs.map((hog) => hog.pid).join(', ')}) beside vitest`);
const vitest = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
vitest.on('close', (code, signal) => {
  stopHogs();
  console.log(
    `test:busy: vitest ended (${signal ?? `exit ${code}`}) after ${Math.round((Date.now() - started) / 1000)} s`,
  );
  process.exitCode = code ?? 1;
});
