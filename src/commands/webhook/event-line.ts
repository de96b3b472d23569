import type { ReceivedEvent } from '../../webhook/receiver.js';

/** The readable line of one stored event on a terminal: time, kind, what it is about, and its flags. */
export function eventSummary(record: ReceivedEvent): string {
  const event = (record.event ?? {}) as Record<string, unknown>;
  const about =
    record.kind === 'orders'
      ? [`order ${String(event.id ?? '?')}`, event.status, event.partnerCompanyName]
      : [`customer ${String(event.id ?? '?')}`, event.document, event.name];
  const flags = record.flags.length > 0 ? ` [off-spec: ${record.flags.join('; ')}]` : '';
  const time = record.receivedAt.slice(11, 19);
  return `${time} ${record.kind.padEnd(9)} ${about.filter((part) => typeof part === 'string' && part !== '').join('  ')}${flags}`;
}
