import { targetShownSafely } from '../lib/shown-target.js';
import type { HandOffState } from './hand-off.js';
import type { EventStore, HandOffBacklog, StoreTiming } from './store/types.js';

export interface HandOffHealth {
  name: string;
  target: string;
  pending: number;
  /** Seconds; 0 when nothing is pending. */
  oldestPendingSeconds: number;
  dead: number;
}

/** One reason a receiver is degraded, named so that a monitor can tell which. */
export type HealthProblem =
  | { problem: 'delivery stuck'; handOff: string; seconds: number }
  | { problem: 'dead letters'; handOff: string; count: number }
  | { problem: 'store cannot write'; seconds: number }
  | {
      problem: 'delivery held';
      handOff: string;
      /** The event every later one waits behind (its subject, an order, is named in the log, not here). */
      eventId: number;
      seconds: number;
      givesUpInSeconds: number;
      /** The other hand-offs waiting with it. */
      waiting: string[];
    };

export interface BacklogHealth {
  /** `degraded` when any problem is listed (/healthz then answers 503 if the store cannot write, else 200). */
  status: 'ok' | 'degraded';
  problems: HealthProblem[];
  handOffs: HandOffHealth[];
}

/** What only the receiver's own process knows: its hand-offs' current tries and its store's last write. */
export interface LiveHealth {
  handOffs: HandOffState[];
  /** Since when appends fail (the last one failed); undefined when the last one succeeded. */
  storeWriteFailingSince?: number;
}

/**
 * The backlog of each hand-off, as /healthz and `webhook status` show it. A hand-off this process runs is stuck
 * when it has been on one event longer than `stuckAfterMs`; one run elsewhere (another process, or another receiver
 * of a shared store while this one stands by), when its oldest pending event is.
 */
export async function backlogHealth(
  store: EventStore,
  now: number,
  stuckAfterMs: number,
  live?: LiveHealth,
  timing?: StoreTiming,
): Promise<BacklogHealth> {
  const handOffs = (await store.backlog(timing)).map((row) => healthOf(row, now));
  const problems: HealthProblem[] = [];
  for (const handOff of handOffs) {
    const running = live?.handOffs.find((state) => state.name === handOff.name && !state.standingBy);
    const stuckMs = running
      ? running.busySince === undefined
        ? 0
        : now - running.busySince
      : handOff.oldestPendingSeconds * 1000;
    if (stuckMs > stuckAfterMs)
      problems.push({ problem: 'delivery stuck', handOff: handOff.name, seconds: Math.round(stuckMs / 1000) });
    const held = running?.holding;
    if (held !== undefined)
      problems.push({
        problem: 'delivery held',
        handOff: handOff.name,
        eventId: held.eventId,
        seconds: Math.round((now - held.since) / 1000),
        givesUpInSeconds: Math.max(0, Math.round((held.givesUpAt - now) / 1000)),
        waiting: [...held.waiting],
      });
    if (handOff.dead > 0) problems.push({ problem: 'dead letters', handOff: handOff.name, count: handOff.dead });
  }
  const failingSince = [
    live?.storeWriteFailingSince,
    ...(live?.handOffs ?? []).map((state) => state.storeFailingSince),
  ].filter((since): since is number => since !== undefined);
  if (failingSince.length > 0)
    problems.push({ problem: 'store cannot write', seconds: Math.round((now - Math.min(...failingSince)) / 1000) });
  return { status: problems.length > 0 ? 'degraded' : 'ok', problems, handOffs };
}

function healthOf(row: HandOffBacklog, now: number): HandOffHealth {
  const age = row.oldestPendingAt === undefined ? 0 : Math.max(0, Math.round((now - row.oldestPendingAt) / 1000));
  // A store written by an earlier version kept the target with its credentials.
  return {
    name: row.name,
    target: targetShownSafely(row.target),
    pending: row.pending,
    oldestPendingSeconds: age,
    dead: row.dead,
  };
}
