/**
 * A process that takes locks when told (bundled and run by test/unit/config/lock-contention.test.ts): each stdin line
 * `<path> <start time in ms>` makes it wait for that instant, then take the lock at `path` and print `held <path>` or
 * `refused <path> <exit code>`. Locks it holds stay held until it exits, so two `held` lines for one path mean two
 * holders at once.
 */
import { createInterface } from 'node:readline';
import { acquireLock } from '../../src/config/lock.js';
import { B2bctlError } from '../../src/base/errors.js';

for await (const line of createInterface({ input: process.stdin })) {
  const [path = '', start = '0'] = line.split(' ');
  // Both contenders spin to the same instant, so their takeovers overlap as two cron runs started together do.
  while (Date.now() < Number(start)) {
    // Waiting for the start.
  }
  try {
    acquireLock(path, 'contender', () => {});
    process.stdout.write(`held ${path}\n`);
  } catch (error) {
    process.stdout.write(`refused ${path} ${error instanceof B2bctlError ? error.exitCode : String(error)}\n`);
  }
}
