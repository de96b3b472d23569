import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { processStartTime } from '../../../src/lib/process-alive.js';
import { commandRuns, groupRunning } from '../../../src/webhook/command-runs.js';
import type { StoredEvent } from '../../../src/webhook/store/types.js';
import { SqliteStore } from '../../../src/webhook/store/sqlite-store.js';
import { FakeClock } from '../../support/fake-clock.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { requireTools } from '../../support/external-tools.js';
import { until } from '../../support/until.js';

afterAll(removeReceiverFolders);

const start = Date.UTC(2026, 10, 23, 6);

const shell = requireTools('sh', 'sleep', 'true');

describe.skipIf(shell.missing)(`command runs left by a killed receiver${shell.note}`, () => {
  it('kills a group still running past its --exec-timeout, and forgets it', async () => {
    const store = await SqliteStore.open(temporaryFolder());
    const orphan = spawn('sleep 300 & wait', { shell: true, detached: true, stdio: 'ignore' });
    const group = orphan.pid as number;
    await until(() => groupRunning(group), 'the group', { deadlineMs: 20_000 });
    await store.recordRun({ handOff: 'exec', host: hostname(), processGroup: group, eventId: 7, startedAt: start });
    const log: string[] = [];
    const clock = new FakeClock(start + 50_000);
    await commandRuns(store, 'exec', { timeoutMs: 60_000, clock, log: (line) => log.push(line) }).settle(
      new AbortController().signal,
    );
    expect(groupRunning(group)).toBe(false);
    expect(clock.now()).toBeGreaterThanOrEqual(start + 60_000);
    expect(log).toEqual([
      `The command a stopped receiver started for event 7 (process group ${group}) still runs; hand-off "exec" waits for it up to its --exec-timeout (10 s left) before running the event again.`,
      `The command a stopped receiver started for event 7 (process group ${group}) passed its --exec-timeout: its process group was killed.`,
    ]);
    expect(await store.recordedRuns('exec', hostname())).toEqual([]);
    await store.close();
  });

  it("forgets, saying nothing, a group that has already ended; another host's runs are not its own", async () => {
    const store = await SqliteStore.open(temporaryFolder());
    const ended = spawn('true', { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => ended.on('close', resolve));
    const group = ended.pid as number;
    await store.recordRun({ handOff: 'exec', host: hostname(), processGroup: group, eventId: 1, startedAt: start });
    await store.recordRun({ handOff: 'exec', host: 'other-host', processGroup: group, eventId: 2, startedAt: start });
    const log: string[] = [];
    await commandRuns(store, 'exec', {
      timeoutMs: 60_000,
      clock: new FakeClock(start),
      log: (line) => log.push(line),
    }).settle(new AbortController().signal);
    expect(log).toEqual([]);
    expect(await store.recordedRuns('exec', hostname())).toEqual([]);
    expect(await store.recordedRuns('exec', 'other-host')).toHaveLength(1);
    await store.close();
  });

  it('records the start time of the group leader, and kills the group it names past its --exec-timeout', async () => {
    const store = await SqliteStore.open(temporaryFolder());
    const command = spawn('sleep 300 & wait', { shell: true, detached: true, stdio: 'ignore' });
    const group = command.pid as number;
    await until(() => groupRunning(group), 'the group', { deadlineMs: 20_000 });
    const runs = commandRuns(store, 'exec', { timeoutMs: 60_000, clock: new FakeClock(start), log: () => undefined });
    await runs.started(group, { id: 4 } as StoredEvent);
    const [recorded] = await store.recordedRuns('exec', hostname());
    expect(recorded).toMatchObject({
      handOff: 'exec',
      host: hostname(),
      processGroup: group,
      eventId: 4,
      startedAt: start,
    });
    // Read as the inbox lock reads a PID's start (lib/process-alive.ts): the leader's, from /proc.
    expect(recorded?.processStart).toBe(processStartTime(group));
    expect(recorded?.processStart).toMatch(/^\d+$/);
    const log: string[] = [];
    await commandRuns(store, 'exec', {
      timeoutMs: 60_000,
      clock: new FakeClock(start + 60_000),
      log: (line) => log.push(line),
    }).settle(new AbortController().signal);
    expect(groupRunning(group)).toBe(false);
    expect(log[1]).toBe(
      `The command a stopped receiver started for event 4 (process group ${group}) passed its --exec-timeout: its process group was killed.`,
    );
    await store.close();
  });

  it('leaves alone, and forgets, a group whose leader started at another time than the one recorded', async () => {
    // After a reboot or in a restarted container, the number is another process's (a user test): never killed.
    const store = await SqliteStore.open(temporaryFolder());
    const other = spawn('sleep 300 & wait', { shell: true, detached: true, stdio: 'ignore' });
    const group = other.pid as number;
    await until(() => groupRunning(group), 'the group', { deadlineMs: 20_000 });
    const processStart = String(Number(processStartTime(group)) - 1);
    await store.recordRun({
      handOff: 'exec',
      host: hostname(),
      processGroup: group,
      eventId: 5,
      startedAt: start,
      processStart,
    });
    const log: string[] = [];
    const clock = new FakeClock(start + 3_600_000);
    await commandRuns(store, 'exec', { timeoutMs: 10_000, clock, log: (line) => log.push(line) }).settle(
      new AbortController().signal,
    );
    expect(groupRunning(group)).toBe(true);
    expect(log).toEqual([
      `The command a stopped receiver started for event 5 (process group ${group}) has ended: that number now belongs to another process, started since, which is left alone.`,
    ]);
    expect(clock.now()).toBe(start + 3_600_000);
    expect(await store.recordedRuns('exec', hostname())).toEqual([]);
    process.kill(-group, 'SIGKILL');
    await store.close();
  });
});
