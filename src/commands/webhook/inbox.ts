import { type Context, stdoutStyle } from '../../context.js';
import type { WebhookKind } from '../../domain/webhook-events.js';
import { createRecordWriter, type RecordLayout } from '../../io/output/record-writer.js';
import { type InboxRecord, inboxFileName, readInbox } from '../../webhook/inbox.js';
import { InputError } from '../../errors.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defaultInboxDirectory } from './inbox-folder.js';

export interface InboxOptions {
  inbox?: string;
  kind?: WebhookKind;
  /** ISO-8601: only events received at or after it. */
  since?: string;
}

const inboxLayout: RecordLayout<InboxRecord> = {
  table: [
    { header: 'RECEIVED', value: (record) => record.receivedAt },
    { header: 'KIND', value: (record) => record.kind },
    { header: 'ID', value: (record) => String((record.event as { id?: unknown } | null)?.id ?? '-') },
    { header: 'DELIVERY', value: (record) => record.deliveryId },
    { header: 'FLAGS', value: (record) => record.flags.join('; ') || '-' },
  ],
  csv: ['receivedAt', 'kind', 'deliveryId', 'event.id', 'event.document', 'event.status', 'event.lastUpdated', 'flags'],
};

/** Stops with exit 66 when there is no inbox in `directory`, naming the flag that chooses another. */
export function requireInbox(directory: string): void {
  if (!existsSync(join(directory, inboxFileName))) {
    throw new InputError(
      `No webhook inbox in ${directory} (no ${inboxFileName}); pass the folder of webhook listen's --inbox.`,
      {
        file: directory,
        missing: true,
      },
    );
  }
}

/** The stored events that pass the filters, oldest first. */
export async function* storedEvents(
  directory: string,
  kind?: WebhookKind,
  since?: number,
): AsyncGenerator<InboxRecord> {
  for await (const { record } of readInbox(directory)) {
    if (kind !== undefined && record.kind !== kind) continue;
    if (since !== undefined && Date.parse(record.receivedAt) < since) continue;
    yield record;
  }
}

/** `b2bctl webhook inbox`: lists stored events (ndjson when piped: the inbox lines themselves). */
export async function run(options: InboxOptions, context: Context): Promise<void> {
  const directory = options.inbox ?? defaultInboxDirectory(context.env);
  requireInbox(directory);
  const writer = createRecordWriter(context.outputFormat('ndjson'), context.io.stdout, inboxLayout, {
    ...stdoutStyle(context),
  });
  const since = options.since === undefined ? undefined : Date.parse(options.since);
  for await (const record of storedEvents(directory, options.kind, since)) await writer.write(record);
  const count = await writer.end();
  context.log.info(`${count} event${count === 1 ? '' : 's'} in ${directory}.`);
}
