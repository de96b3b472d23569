import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../src/clock.js';
import { run as listInbox } from '../../../src/commands/webhook/inbox.js';
import { run as replay } from '../../../src/commands/webhook/replay.js';
import { ExitCode, type B2bctlError } from '../../../src/errors.js';
import { Inbox, type InboxRecord } from '../../../src/webhook/inbox.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';
import { testContext } from '../../support/test-context.js';

afterAll(removeReceiverFolders);

/** Sleeps take no time and are counted, so back-off is checked without waiting. */
function instantClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return { sleeps, now: () => Date.parse('2026-11-23T07:00:00Z'), sleep: async (ms) => void sleeps.push(ms) };
}

async function inboxWith(records: InboxRecord[]): Promise<string> {
  const directory = temporaryFolder();
  const inbox = await Inbox.open(directory);
  for (const record of records) await inbox.append(record);
  await inbox.close();
  return directory;
}

const record = (kind: 'customers' | 'orders', id: number, receivedAt: string): InboxRecord => ({
  receivedAt,
  kind,
  deliveryId: `delivery-${id}`,
  key: `${kind}:${id}`,
  flags: id === 2 ? ['email missing'] : [],
  event: { id },
});

const records = [
  record('customers', 1, '2026-11-23T06:00:00.000Z'),
  record('customers', 2, '2026-11-23T06:10:00.000Z'),
  record('orders', 3, '2026-11-23T06:20:00.000Z'),
];

describe('webhook inbox', () => {
  it('lists the stored events with --kind and --since, as a table on a terminal and the inbox lines when piped', async () => {
    const inbox = await inboxWith(records);
    const onTerminal = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() }, tty: { stdout: true } });
    await listInbox({ inbox, kind: 'customers' }, onTerminal.context);
    expect(
      onTerminal
        .stdout()
        .split('\n')
        .map((line) => line.trimEnd()),
    ).toEqual([
      'RECEIVED                  KIND       ID  DELIVERY    FLAGS',
      '2026-11-23T06:00:00.000Z  customers  1   delivery-1  -',
      '2026-11-23T06:10:00.000Z  customers  2   delivery-2  email missing',
      '',
    ]);
    const piped = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    await listInbox({ inbox, since: '2026-11-23T06:10:00Z' }, piped.context);
    expect(
      piped
        .stdout()
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as InboxRecord).deliveryId),
    ).toEqual(['delivery-2', 'delivery-3']);
    expect(piped.stderr()).toContain(`2 events in ${inbox}.`);
  });

  it('exits 66 naming the folder when there is no inbox', async () => {
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() } });
    const missing = temporaryFolder();
    const failure = (await listInbox({ inbox: missing }, memory.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    expect(failure.exitCode).toBe(ExitCode.inputMissing);
    expect(failure.message).toBe(
      `No webhook inbox in ${missing} (no events.ndjson); pass the folder of webhook listen's --inbox.`,
    );
  });
});

describe('webhook replay', () => {
  it('re-delivers in order, retrying a failed attempt; exit 1 naming what could not be delivered', async () => {
    const inbox = await inboxWith(records);
    const taken: string[] = [];
    let requests = 0;
    const erp = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        requests++;
        const deliveryId = (JSON.parse(body) as InboxRecord).deliveryId;
        // The first attempt at every event fails, and event 3 always does.
        if (requests % 2 === 1 || deliveryId === 'delivery-3') return void response.writeHead(503).end();
        taken.push(deliveryId);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
    const clock = instantClock();
    const memory = testContext({ env: { B2BCTL_CONFIG_DIR: temporaryFolder() }, clock });
    const to = `http://127.0.0.1:${(erp.address() as { port: number }).port}/hook`;
    const failure = (await replay({ inbox, to, attempts: 3 }, memory.context).catch(
      (error: unknown) => error,
    )) as B2bctlError;
    await new Promise((resolve) => erp.close(resolve));
    expect(taken).toEqual(['delivery-1', 'delivery-2']);
    expect(clock.sleeps).toEqual([500, 500, 500, 1000]);
    expect(failure.exitCode).toBe(ExitCode.someRecordsFailed);
    expect(failure.message).toBe('1 event could not be re-delivered; run the replay again with --since.');
    expect(memory.stderr()).toContain(
      `orders event delivery-3 (received 2026-11-23T06:20:00.000Z): forward to ${to} failed: HTTP 503.`,
    );
  });
});
