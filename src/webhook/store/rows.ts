import type { WebhookKind } from '../../domain/webhook-events.js';
import type { CommandRunRow, DeadRow, FailingRow } from './queries.js';
import type { CommandRun, DeadLetter, FailingEvent } from './types.js';

export function deadLetterOf(row: DeadRow): DeadLetter {
  return {
    handOff: row.handoff,
    eventId: Number(row.event_id),
    kind: row.kind as WebhookKind,
    receivedAt: new Date(Number(row.received_at)).toISOString(),
    error: row.error,
    attempts: Number(row.attempts),
    diedAt: new Date(Number(row.died_at)).toISOString(),
    retry: row.retry === 1 || row.retry === true,
  };
}

/** `?, ?, ?` for a list of ids (never empty: the commands require at least one). */
export function idList(ids: readonly number[]): string {
  return ids.map(() => '?').join(', ');
}

export function commandRunOf(row: CommandRunRow): CommandRun {
  return {
    handOff: row.handoff,
    host: row.host,
    processGroup: Number(row.process_group),
    eventId: Number(row.event_id),
    startedAt: Number(row.started_at),
    ...(row.process_start === null ? {} : { processStart: row.process_start }),
  };
}

export function failingEventOf(row: FailingRow | undefined): FailingEvent | undefined {
  if (row === undefined) return undefined;
  return {
    eventId: Number(row.failing_event),
    since: Number(row.failing_since),
    attempts: Number(row.failing_attempts),
  };
}
