/**
 * `webhook replay` ends its tries at a refusal for good, as `webhook listen` does: an ERP answering 422 (or 400, 404,
 * 409, 410) to an event will answer it again, and each try sent the event once more (three POSTs by default).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { standInErp } from '../../support/stand-in-erp.js';
import type { TestContext } from '../../support/test-context.js';
import {
  postEvent,
  receiverToken,
  removeReceiverFolders,
  sampleOrder,
  startTestReceiver,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** An inbox holding one order event, stored by a receiver with no hand-off and closed. */
async function inboxWithOneEvent(): Promise<string> {
  const receiver = await startTestReceiver({ now: () => Date.parse('2026-11-23T12:00:00Z') });
  try {
    expect((await postEvent(receiver.url, 'orders', sampleOrder, await receiverToken(receiver.url))).status).toBe(200);
  } finally {
    await receiver.close();
  }
  return receiver.directory;
}

/** An ERP answering every event with this status and `{}`. */
const erpAnswering = (status: number) => standInErp(() => ({ status, body: '{}', type: 'application/json' }));

describe('webhook replay and a refusal', () => {
  it('a 422 is final: sent once, exit 1, the event named as failed', async () => {
    const inbox = await inboxWithOneEvent();
    const erp = await erpAnswering(422);
    const result = await runCommandLine(['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', erp.url], {
      configDir: freshConfigDir(),
    });
    await erp.close();
    expect(erp.received).toHaveLength(1);
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
    expect(erp.received).toHaveLength(2);
    expect(result.code).toBe(1);
  });
});

describe('webhook replay and Ctrl-C', () => {
  // A user test: Ctrl-C between two tries went on to the next try with the stop swallowed, and ended in
  // "failed: undefined" and exit 1.
  it('stops between two tries with exit 75, saying what was re-delivered and the event it was on', async () => {
    const inbox = await inboxWithOneEvent();
    let run: TestContext | undefined;
    const erp = await standInErp(() => {
      run?.interrupt('SIGINT');
      return { status: 503, body: '{}', type: 'application/json' };
    });
    const result = await runCommandLine(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', erp.url, '--attempts', '6'],
      { configDir: freshConfigDir(), started: (test) => (run = test) },
    );
    await erp.close();
    expect(erp.received).toHaveLength(1);
    expect(result.code).toBe(75);
    expect(result.stderr).toBe(
      'error: Interrupted (SIGINT) during webhook replay: 0 events re-delivered; event 1 was being re-delivered: the ERP may or may not have it (replay it with --id 1 if not).\n',
    );
  });
});
