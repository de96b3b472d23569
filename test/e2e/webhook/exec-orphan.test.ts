import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import {
  postEvent,
  receiverToken,
  removeReceiverFolders,
  spawnReceiver,
  temporaryFolder,
} from '../../support/webhook-receiver.js';
import { untilWith } from '../../support/until.js';

const until = untilWith({ everyMs: 20, deadlineMs: 60_000 });

afterAll(() => {
  removeTemporaryFolders();
  removeReceiverFolders();
});

const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));

/**
 * A command that holds a directory as its lock while it works (mkdir is atomic): a second copy that finds the
 * lock taken writes a line in `overlaps`; each copy writes `start` and `end` lines in `runs`. It works until the
 * test calls `release()` (an event the test controls, not a time a loaded machine may miss), or its folder is
 * removed (the test is over).
 */
function lockingCommand(folder: string): {
  command: string;
  runs: () => string[];
  overlaps: string;
  release: () => void;
} {
  const script = join(folder, 'import.sh');
  const runsFile = join(folder, 'runs');
  const overlaps = join(folder, 'overlaps');
  const released = join(folder, 'released');
  writeFileSync(
    script,
    `#!/bin/sh
cat > /dev/null
if ! mkdir "${folder}/lock" 2>/dev/null; then echo overlap >> "${overlaps}"; fi
echo start >> "${runsFile}"
while [ -d "${folder}" ] && [ ! -e "${released}" ]; do sleep 0.05; done
rmdir "${folder}/lock" 2>/dev/null
echo end >> "${runsFile}"
`,
  );
  chmodSync(script, 0o700);
  const runs = () => (existsSync(runsFile) ? readFileSync(runsFile, 'utf8').trim().split('\n') : []);
  return { command: script, runs, overlaps, release: () => writeFileSync(released, '') };
}

describe('webhook listen --exec across a SIGKILL', () => {
  it('the restarted receiver waits for the command its killed predecessor left, then runs the event once more; never two at once', async () => {
    const inbox = temporaryFolder();
    const work = temporaryFolder();
    const locking = lockingCommand(work);
    // The orphan runs until the test releases it: the restarted receiver must not kill it at its --exec-timeout.
    const receiverArgs = ['--inbox', inbox, '--exec', locking.command, '--exec-timeout', '10m'];
    const first = await spawnReceiver(receiverArgs);
    await postEvent(first.url, 'orders', order, await receiverToken(first.url));
    await until(() => locking.runs().includes('start'), 'the command to start');
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    // The orphaned command still runs: the event was not recorded as delivered.
    expect(locking.runs()).toEqual(['start']);

    const second = await spawnReceiver(receiverArgs);
    onTestFinished(() => {
      if (second.child.exitCode === null && second.child.signalCode === null) second.child.kill('SIGKILL');
    });
    await until(() => second.stderrSoFar().includes('still runs; hand-off'), 'the receiver to see the orphan');
    // Only now may the orphan end: the restarted receiver has found it running and waits for it.
    expect(locking.runs()).toEqual(['start']);
    locking.release();
    await until(() => locking.runs().length >= 4, 'the orphan to end and the event to run again');
    second.child.kill('SIGTERM');
    const result = await second.done;
    expect(result.code).toBe(0);
    expect(locking.runs()).toEqual(['start', 'end', 'start', 'end']);
    expect(existsSync(locking.overlaps)).toBe(false);
    expect(result.stderr).toMatch(
      /The command a stopped receiver started for event 1 \(process group \d+\) still runs; hand-off "exec" waits for it up to its --exec-timeout/,
    );
    expect(result.stderr).toMatch(
      /The command a stopped receiver started for event 1 \(process group \d+\) has ended\./,
    );
  });
});
