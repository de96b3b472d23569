import { describe, expect, it } from 'vitest';
import { postEvent, receiverToken, useTestReceivers } from '../../support/webhook-receiver.js';

// An event refused before it is stored leaves a line in the receiver's log: a platform set to send Latin-1,
// text/plain or events past the body limit has every event refused, and the operator must see it and why.

const receiver = useTestReceivers();

describe('events refused before they are stored', () => {
  it('are each logged in one line (status, reason, client, type and length) and told to onRefused', async () => {
    const lines: string[] = [];
    const refused: [string, number][] = [];
    const started = await receiver({
      bodyLimitBytes: 2000,
      log: (line) => lines.push(line),
      onRefused: (kind, status) => refused.push([kind, status]),
    });
    const token = await receiverToken(started.url);
    const latin1 = Buffer.from('{"id":"lat1","name":"S\u00e3o Paulo"}', 'latin1');
    const post = (body: string | Buffer, type: string) =>
      fetch(`${started.url}/webhooks/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type },
        body,
      });
    expect((await post(latin1, 'application/json')).status).toBe(400);
    expect((await post('not json', 'application/json')).status).toBe(400);
    const plain = await post('{"id":"tp"}', 'text/plain');
    expect([plain.status, await plain.json()]).toEqual([
      415,
      { error: 'unsupported_media_type', error_description: 'Send the event as application/json' },
    ]);
    expect((await post('{"id":"f"}', 'application/x-www-form-urlencoded')).status).toBe(415);
    const large = JSON.stringify({ id: 1, padding: 'x'.repeat(3000) });
    const tooLarge = await postEvent(started.url, 'orders', large, token);
    // In b2bctl's words, naming the limit and the flag that sets it, not fastify's "Request body is too large".
    expect([tooLarge.status, await tooLarge.json()]).toEqual([
      413,
      {
        error: 'payload_too_large',
        error_description:
          'The event is larger than 2000 bytes, the most this receiver reads (--body-limit); it was not stored',
      },
    ]);
    expect(lines).toEqual([
      `Refused a customers event from 127.0.0.1 (content-type application/json, ${latin1.length} bytes), not stored: answered HTTP 400 "The body is not UTF-8; it was not stored".`,
      `Refused a customers event from 127.0.0.1 (content-type application/json, 8 bytes), not stored: answered HTTP 400 "Body is not valid JSON: ${jsonFault('not json')}".`,
      'Refused a customers event from 127.0.0.1 (content-type text/plain, 11 bytes), not stored: answered HTTP 415 "Send the event as application/json".',
      'Refused a customers event from 127.0.0.1 (content-type application/x-www-form-urlencoded, 10 bytes), not stored: answered HTTP 415 "Send the event as application/json".',
      `Refused an orders event from 127.0.0.1 (content-type application/json, ${large.length} bytes), not stored: answered HTTP 413 "The event is larger than 2000 bytes, the most this receiver reads (--body-limit); it was not stored".`,
    ]);
    expect(refused).toEqual([
      ['customers', 400],
      ['customers', 400],
      ['customers', 415],
      ['customers', 415],
      ['orders', 413],
    ]);
    expect(started.onDisk()).toEqual([]);
  });

  it('logs ten a minute in a flood, and the next line says how many more were refused meanwhile', async () => {
    let now = Date.parse('2026-11-23T06:00:00Z');
    const lines: string[] = [];
    let told = 0;
    const started = await receiver({ now: () => now, log: (line) => lines.push(line), onRefused: () => told++ });
    const token = await receiverToken(started.url);
    for (let sent = 0; sent < 13; sent++) await postEvent(started.url, 'orders', '{"id":1}', token, 'text/plain');
    expect([lines.length, told]).toEqual([10, 13]);
    now += 60_000;
    await postEvent(started.url, 'orders', '{"id":1}', token, 'text/plain');
    expect(lines.at(-1)).toBe(
      'Refused an orders event from 127.0.0.1 (content-type text/plain, 8 bytes), not stored: answered HTTP 415 "Send the event as application/json". (and 3 more refused since the last such line)',
    );
  });
});

/** JSON.parse's own words for a text, as node of this version says them. */
function jsonFault(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parsed`);
}
