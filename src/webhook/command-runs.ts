import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../base/clock.js';
import { spokenDuration } from '../domain/duration.js';
import { killProcessGroup } from '../lib/process-alive.js';
import type { CommandRun, EventStore, StoredEvent } from './store/types.js';

/** Where an `--exec` hand-off keeps its running commands' process groups: the store, under its name and host. */
export interface CommandRuns {
  started(processGroup: number, event: StoredEvent): Promise<void>;
  ended(processGroup: number): Promise<void>;
  /**
   * Before the first delivery: waits for each group a killed predecessor left running, up to its `--exec-timeout`
   * counted from its start, then kills it, so that the event it ran is never run twice at once.
   */
  settle(signal: AbortSignal): Promise<void>;
}

export function commandRuns(
  store: EventStore,
  handOff: string,
  options: { timeoutMs: number; clock: Clock; log: (line: string) => void },
): CommandRuns {
  const host = hostname();
  return {
    started: (processGroup, event) =>
      store.recordRun({ handOff, host, processGroup, eventId: event.id, startedAt: options.clock.now() }),
    ended: (processGroup) => store.forgetRun(handOff, host, processGroup),
    async settle(signal) {
      for (const run of await store.recordedRuns(handOff, host)) {
        if (groupRunning(run.processGroup)) await waitOrKill(run, options, signal);
        if (signal.aborted) return;
        await store.forgetRun(handOff, host, run.processGroup);
      }
    },
  };
}

async function waitOrKill(
  run: CommandRun,
  options: { timeoutMs: number; clock: Clock; log: (line: string) => void },
  signal: AbortSignal,
): Promise<void> {
  const { clock, log, timeoutMs } = options;
  const deadline = run.startedAt + timeoutMs;
  const what = `The command a stopped receiver started for event ${run.eventId} (process group ${run.processGroup})`;
  log(
    `${what} still runs; hand-off "${run.handOff}" waits for it up to its --exec-timeout (${spokenDuration(Math.max(0, deadline - clock.now()))} left) before running the event again.`,
  );
  while (groupRunning(run.processGroup) && clock.now() < deadline && !signal.aborted) {
    await clock.sleep(200, signal).catch(() => undefined);
  }
  if (signal.aborted) return;
  if (groupRunning(run.processGroup)) {
    killProcessGroup(run.processGroup);
    // A killed process lingers a moment: the event runs again only once its group is gone.
    for (let waited = 0; groupRunning(run.processGroup) && waited < 5000; waited += 20) await delay(20);
    log(`${what} passed its --exec-timeout: its process group was killed.`);
  } else {
    log(`${what} has ended.`);
  }
}

/**
 * Whether any process of the group still runs. On Linux, /proc tells a zombie (which a container's PID 1 may
 * never reap, and which runs nothing) from a live process; elsewhere a signal 0 asks.
 */
export function groupRunning(group: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    try {
      process.kill(-group, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // After the name in parentheses: state, parent, process group.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , processGroup] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(processGroup) === group && state !== 'Z') return true;
    } catch {
      // Ended while we looked.
    }
  }
  return false;
}
