import type { NewEvent } from '../../src/webhook/store/types.js';

/**
 * An event as intake hands it to a store: its JSON `{ id }` (with `padding` characters more, to make it `padding`
 * bytes larger), delivery id `d<id>` and de-duplication key `k<id>`, an orders event unless told.
 */
export function inboxEvent(
  id: number,
  options: { receivedAt: number; kind?: NewEvent['kind']; padding?: number },
): NewEvent {
  const { receivedAt, kind = 'orders', padding = 0 } = options;
  return {
    receivedAt,
    kind,
    deliveryId: `d${id}`,
    key: `k${id}`,
    flags: [],
    clientAddress: '',
    raw: padding > 0 ? JSON.stringify({ id, padding: 'x'.repeat(padding) }) : `{"id":${id}}`,
  };
}
