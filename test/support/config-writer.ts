/**
 * A process that saves profiles in config.json when told (bundled and run by test/unit/config/lock-contention.test.ts),
 * as a cron job renewing its profile's token does. Each stdin line is one order, answered on stdout:
 * - `renew <config folder> <profile> <count> <start time in ms> <lock wait in ms>`: waits for that instant, then saves
 *   the profile's token `count` times (`<profile>-token-1` …), each a read-modify-write of its own; answers
 *   `renewed <profile> <count>`, or `refused <profile> <exit code> <message>` at the first save that failed.
 * - `hold <config folder> <profile> <token> <go file>`: saves the token, but stops inside the write (the file read,
 *   the lock held, nothing written yet) after answering `holding <profile>`, until the go file exists: a holder that
 *   is alive but slow (stopped, a laptop lid closed). Then writes and answers `held <profile>` (or `refused …`).
 */
import { existsSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { B2bctlError } from '../../src/base/errors.js';
import { ProfileStore } from '../../src/config/profile-store.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

function answer(line: string): void {
  // Written at once, also from inside a write the process is stopped in.
  writeSync(1, `${line}\n`);
}

function refusal(profile: string, error: unknown): string {
  const code = error instanceof B2bctlError ? error.exitCode : 'none';
  return `refused ${profile} ${code} ${error instanceof Error ? error.message : String(error)}`.replaceAll('\n', ' ');
}

function renew(folder: string, profile: string, count: number, start: number, lockWaitMs: number): void {
  // Every writer spins to the same instant, so their writes overlap as cron jobs started together do.
  while (Date.now() < start) {
    // Waiting for the start.
  }
  try {
    for (let renewal = 1; renewal <= count; renewal++)
      new ProfileStore(folder, undefined, lockWaitMs).update(profile, { token: `${profile}-token-${renewal}` });
    answer(`renewed ${profile} ${count}`);
  } catch (error) {
    answer(refusal(profile, error));
  }
}

function hold(folder: string, profile: string, token: string, goFile: string): void {
  try {
    new ProfileStore(folder).updateIf(
      profile,
      () => {
        answer(`holding ${profile}`);
        while (!existsSync(goFile)) Atomics.wait(pause, 0, 0, 5);
        return true;
      },
      { token },
    );
    answer(`held ${profile}`);
  } catch (error) {
    answer(refusal(profile, error));
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const [order, folder = '', profile = '', ...rest] = line.split(' ');
  if (order === 'renew') renew(folder, profile, Number(rest[0]), Number(rest[1]), Number(rest[2]));
  else if (order === 'hold') hold(folder, profile, rest[0] ?? '', rest[1] ?? '');
}
