import type { WebhookKind } from '../../domain/webhook-events.js';
import type { EventSelection, StoredEvent } from './types.js';

/** A row of the events table as both databases return it. */
export interface EventRow {
  id: number | string;
  received_at: number | string;
  kind: string;
  delivery_id: string;
  key: string;
  flags: string;
  client_address: string;
  event: string;
}

export const eventColumns = 'id, received_at, kind, delivery_id, key, flags, client_address, event';

export function storedEventOf(row: EventRow): StoredEvent {
  return {
    id: Number(row.id),
    receivedAt: new Date(Number(row.received_at)).toISOString(),
    kind: row.kind as WebhookKind,
    deliveryId: row.delivery_id,
    key: row.key,
    flags: JSON.parse(row.flags) as string[],
    clientAddress: row.client_address,
    event: JSON.parse(row.event) as unknown,
    eventJson: row.event,
  };
}

/** Where a page of a selection resumes: after this event. */
export interface PageCursor {
  id: number;
  receivedAt: number;
}

/**
 * One page of a selection, as SQL with `?` placeholders. Time selections walk the (kind,) received_at index in
 * its own order, so `--kind orders --since T` never reads the rest of the table; pending and dead ones walk ids.
 */
export function selectionPage(
  selection: EventSelection,
  after: PageCursor | undefined,
  pageSize: number,
): { sql: string; values: unknown[] } {
  const where: string[] = [];
  const values: unknown[] = [];
  const byTime = !selection.pending && !selection.dead && !selection.ids;
  const add = (clause: string, ...parameters: unknown[]) => {
    where.push(clause);
    values.push(...parameters);
  };
  if (selection.kind) add('kind = ?', selection.kind);
  if (selection.since !== undefined) add('received_at >= ?', selection.since);
  if (selection.until !== undefined) add('received_at < ?', selection.until);
  if (selection.ids) add(`id IN (${selection.ids.map(() => '?').join(', ')})`, ...selection.ids);
  if (selection.pending) add('id > (SELECT coalesce(min(position), 0) FROM handoffs)');
  if (selection.dead) add('id IN (SELECT event_id FROM dead)');
  if (after && byTime) add('(received_at, id) > (?, ?)', after.receivedAt, after.id);
  if (after && !byTime) add('id > ?', after.id);
  const order = byTime ? 'received_at, id' : 'id';
  const sql = `SELECT ${eventColumns} FROM events${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${pageSize}`;
  return { sql, values };
}

/** Reads a selection page by page through `page`, so memory stays flat at any size. */
export async function* pagedSelection(
  selection: EventSelection,
  page: (sql: string, values: unknown[]) => Promise<EventRow[]>,
  pageSize = 500,
): AsyncGenerator<StoredEvent> {
  let after: PageCursor | undefined;
  for (;;) {
    const query = selectionPage(selection, after, pageSize);
    const rows = await page(query.sql, query.values);
    for (const row of rows) yield storedEventOf(row);
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return;
    after = { id: Number(last.id), receivedAt: Number(last.received_at) };
  }
}

/** The next event a hand-off retries (an event of its dead letters marked for retry), oldest first. */
export const retriedEventQuery = `SELECT ${eventColumns} FROM events WHERE id IN (SELECT event_id FROM dead WHERE handoff = ? AND retry = 1) ORDER BY id LIMIT 1`;

/** Dead letters of a hand-off marked for retry, oldest first: hand-off, limit. */
export const retriedEventsQuery = `SELECT ${eventColumns} FROM events WHERE id IN (SELECT event_id FROM dead WHERE handoff = ? AND retry = 1) ORDER BY id LIMIT ?`;

/** Events after an id: after, limit. */
export const eventsAfterQuery = `SELECT ${eventColumns} FROM events WHERE id > ? ORDER BY id LIMIT ?`;

/** Events after a hand-off's stored position: hand-off, limit. */
export const eventsAfterPositionQuery = `SELECT ${eventColumns} FROM events WHERE id > (SELECT position FROM handoffs WHERE name = ?) ORDER BY id LIMIT ?`;

/** The next event past a hand-off's position. */
export const nextEventQuery = `SELECT ${eventColumns} FROM events WHERE id > (SELECT position FROM handoffs WHERE name = ?) ORDER BY id LIMIT 1`;

/** Records (or records again) a dead letter: handoff, event_id, error, attempts, died_at. */
export const deadLetterUpsert = `INSERT INTO dead (handoff, event_id, error, attempts, died_at, retry) VALUES (?, ?, ?, ?, ?, 0)
  ON CONFLICT (handoff, event_id) DO UPDATE SET error = excluded.error, attempts = excluded.attempts,
  died_at = excluded.died_at, retry = 0`;

export const deadLettersQuery = `SELECT d.handoff, d.event_id, e.kind, e.received_at, d.error, d.attempts, d.died_at, d.retry
  FROM dead d JOIN events e ON e.id = d.event_id`;

export interface DeadRow {
  handoff: string;
  event_id: number | string;
  kind: string;
  received_at: number | string;
  error: string;
  attempts: number;
  died_at: number | string;
  retry: number | boolean;
}

export const recordRunInsert = `INSERT INTO command_runs (handoff, host, process_group, event_id, started_at,
  process_start) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (handoff, host, process_group) DO UPDATE SET
  event_id = excluded.event_id, started_at = excluded.started_at, process_start = excluded.process_start`;

export const forgetRunDelete = 'DELETE FROM command_runs WHERE handoff = ? AND host = ? AND process_group = ?';

export const recordedRunsQuery = `SELECT handoff, host, process_group, event_id, started_at, process_start FROM command_runs
  WHERE handoff = ? AND host = ? ORDER BY started_at`;

export interface CommandRunRow {
  handoff: string;
  host: string;
  process_group: number | string;
  event_id: number | string;
  started_at: number | string;
  process_start: string | null;
}

/** A hand-off's dead letters, then the hand-off itself (`webhook inbox --drop-handoff`): name. */
export const handOffDeadDelete = 'DELETE FROM dead WHERE handoff = ?';
export const handOffDelete = 'DELETE FROM handoffs WHERE name = ?';
/** Whether a hand-off exists, and whether a command it ran is recorded: name. */
export const handOffExistsQuery = 'SELECT name FROM handoffs WHERE name = ?';
export const handOffRunQuery = 'SELECT handoff FROM command_runs WHERE handoff = ? LIMIT 1';

/**
 * The event a hand-off fails on, since when and after how many tries (a restart goes on with its --give-up-after and
 * --stuck-after clocks and its attempt count): event_id, since, attempts, hand-off. Delivered or dead, the event's
 * record goes (failingClear).
 */
export const failingRecord =
  'UPDATE handoffs SET failing_event = ?, failing_since = ?, failing_attempts = ? WHERE name = ?';
export const failingQuery =
  'SELECT failing_event, failing_since, failing_attempts FROM handoffs WHERE name = ? AND failing_event IS NOT NULL';
/** Hand-off; each store ends it with its own test of the ids delivered or dead. */
export const failingClear =
  'UPDATE handoffs SET failing_event = NULL, failing_since = NULL, failing_attempts = NULL WHERE name = ? AND failing_event';

export interface FailingRow {
  failing_event: number | string;
  failing_since: number | string;
  failing_attempts: number | string;
}
