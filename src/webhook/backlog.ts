import { targetShownSafely } from '../lib/shown-target.js';
import type { EventStore, HandOffBacklog } from './store/types.js';

export interface HandOffHealth {
  name: string;
  target: string;
  pending: number;
  /** Seconds; 0 when nothing is pending. */
  oldestPendingSeconds: number;
  dead: number;
}

export interface BacklogHealth {
  /** `stuck` when a hand-off's oldest pending event is older than the threshold. */
  status: 'ok' | 'stuck';
  handOffs: HandOffHealth[];
}

/** The backlog of each hand-off, as /healthz and `webhook status` show it. */
export async function backlogHealth(store: EventStore, now: number, stuckAfterMs: number): Promise<BacklogHealth> {
  const handOffs = (await store.backlog()).map((row) => healthOf(row, now));
  const stuck = handOffs.some((handOff) => handOff.oldestPendingSeconds * 1000 > stuckAfterMs);
  return { status: stuck ? 'stuck' : 'ok', handOffs };
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
