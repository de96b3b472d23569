/**
 * `webhook replay` ends its tries at a refusal for good, as `webhook listen` does: an ERP answering 422 (or 400, 404,
 * 409, 410) to an event will answer it again, and each try sent the event once more (three POSTs by default).
 */
import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '../../../src/webhook/sender.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { postEvent, receiverToken, removeReceiverFolders, startTestReceiver } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** An inbox holding one order event, stored by a receiver with no hand-off and closed. */
async function inboxWithOneEvent(): Promise<string> {
  const receiver = await startTestReceiver({ now: () => Date.parse('2026-11-23T12:00:00Z') });
  try {
    const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));
    expect((await postEvent(receiver.url, 'orders', order, await receiverToken(receiver.url))).status).toBe(200);
  } finally {
    await receiver.close();
  }
  return receiver.directory;
}

/** An ERP answering every event with this status, counting them. */
async function erpAnswering(status: number) {
  let received = 0;
  const erp = createServer((request, response) => {
    received++;
    request.resume().on('end', () => response.writeHead(status, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
  const port = (erp.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    close: () => new Promise((resolve) => erp.close(resolve)),
  };
}

describe('webhook replay and a refusal', () => {
  it('a 422 is final: sent once, exit 1, the event named as failed', async () => {
    const inbox = await inboxWithOneEvent();
    const erp = await erpAnswering(422);
    const result = await runCommandLine(['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', erp.url], {
      configDir: freshConfigDir(),
    });
    await erp.close();
    expect(erp.received()).toBe(1);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      `orders event 1 (received 2026-11-23T12:00:00.000Z): ${erp.url} failed: HTTP 422: {}.`,
      `Replayed 0 events (${erp.url}), 1 failed.`,
      'error: 1 event could not be re-delivered; replay them again with --id (ids above).',
      '',
    ]);
  });

  it('a 503 passes: tried --attempts times', async () => {
    const inbox = await inboxWithOneEvent();
    const erp = await erpAnswering(503);
    const result = await runCommandLine(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', erp.url, '--attempts', '2'],
      { configDir: freshConfigDir() },
    );
    await erp.close();
    expect(erp.received()).toBe(2);
    expect(result.code).toBe(1);
  });
});
