import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { Clock } from '../base/clock.js';
import { spokenDuration } from '../domain/duration.js';
import { killProcessGroup, processStartTime } from '../lib/process-alive.js';
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
    started: (processGroup, event) => {
      // The command was started as its group's leader: its start time names this group across a reuse of the number.
      const processStart = processStartTime(processGroup);
      const startedAt = options.clock.now();
      const run = { handOff, host, processGroup, eventId: event.id, startedAt };
      return store.recordRun(processStart === undefined ? run : { ...run, processStart });
    },
    ended: (processGroup) => store.forgetRun(handOff, host, processGroup),
    async settle(signal) {
      for (const run of await store.recordedRuns(handOff, host)) {
        if (groupRunning(run.processGroup)) {
          if (leaderIsAnother(run))
            options.log(
              `The command a stopped receiver started for event ${run.eventId} (process group ${run.processGroup}) has ended: that number now belongs to another process, started since, which is left alone.`,
            );
          else await waitOrKill(run, options, signal);
        }
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
  while (stillRuns(run) && clock.now() < deadline && !signal.aborted) {
    await clock.sleep(200, signal).catch(() => undefined);
  }
  if (signal.aborted) return;
  if (stillRuns(run)) {
    killProcessGroup(run.processGroup);
    // A killed process lingers a moment: the event runs again only once its group is gone.
    for (let waited = 0; groupRunning(run.processGroup) && waited < 5000; waited += 20) await delay(20);
    log(`${what} passed its --exec-timeout: its process group was killed.`);
  } else {
    log(`${what} has ended.`);
  }
}

/**
 * Whether the process with the group's number is another than the leader the run recorded: it started at another
 * time (after a reboot, or in a restarted container's PID namespace, numbers are handed out again, and a database
 * or the ERP's own importer may hold this one; a user test). Only a leader that runs and whose start differs is
 * another: a run recorded without a start (an earlier build, a system without /proc) is trusted by its number, as
 * the inbox lock trusts a lock without one; and a group whose leader has exited while others of it run is still
 * the command's, since the kernel hands out no number that a live group still has.
 */
function leaderIsAnother(run: CommandRun): boolean {
  if (run.processStart === undefined) return false;
  const current = processStartTime(run.processGroup);
  return current !== undefined && current !== run.processStart;
}

/** Whether the group the run recorded still runs: its number has live processes, and they are the command's. */
function stillRuns(run: CommandRun): boolean {
  return groupRunning(run.processGroup) && !leaderIsAnother(run);
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
