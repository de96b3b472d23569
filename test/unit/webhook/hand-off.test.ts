import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/clock.js';
import { execCommand, forwardTo, HandOff } from '../../../src/webhook/hand-off.js';
import { Inbox, type InboxRecord } from '../../../src/webhook/inbox.js';
import { removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).toReversed()) await close();
});
afterAll(removeReceiverFolders);

function record(id: number): InboxRecord {
  return {
    receivedAt: new Date(Date.UTC(2026, 10, 23, 6, 0, id)).toISOString(),
    kind: 'orders',
    deliveryId: `delivery-${id}`,
    key: `orders:${id}:x`,
    flags: [],
    event: { id },
  };
}

/** An ERP endpoint that answers 503 to its first `failures` requests, then 200, recording what it took. */
async function flakyErp(
  failures: number,
): Promise<{ url: string; taken: number[]; requests: () => number; server: Server }> {
  const taken: number[] = [];
  let requests = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      requests++;
      if (requests <= failures) {
        response.writeHead(503).end('down');
        return;
      }
      taken.push(((JSON.parse(body) as InboxRecord).event as { id: number }).id);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/hook`, taken, requests: () => requests, server };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('HandOff', () => {
  it('forwards to a target that is down for a while: later, in order, each once', async () => {
    const directory = temporaryFolder();
    const inbox = await Inbox.open(directory);
    closers.push(() => inbox.close());
    const erp = await flakyErp(5);
    const log: string[] = [];
    const handOff = new HandOff(inbox, forwardTo(erp.url), {
      clock: systemClock,
      log: (line) => log.push(line),
      initialBackoffMs: 5,
      maxBackoffMs: 20,
    });
    handOff.start();
    for (const id of [1, 2, 3]) await inbox.append(record(id));
    await until(() => erp.taken.length === 3);
    await handOff.stop();
    expect(erp.taken).toEqual([1, 2, 3]);
    expect(erp.requests()).toBe(8);
    expect(log[0]).toMatch(/forward to .*: orders event delivery-1 failed \(attempt 1: HTTP 503: down\)/);
  });

  it('resumes after a restart where it stopped, without handing on anything twice', async () => {
    const directory = temporaryFolder();
    const erp = await flakyErp(0);
    const first = await Inbox.open(directory);
    const handOff = new HandOff(first, forwardTo(erp.url), { clock: systemClock, log: () => undefined });
    handOff.start();
    for (const id of [1, 2]) await first.append(record(id));
    await until(() => erp.taken.length === 2);
    await handOff.stop();
    // Stored while no hand-off ran (the receiver restarted without --forward-to, or the ERP was down at exit).
    await first.append(record(3));
    await first.close();

    const second = await Inbox.open(directory);
    closers.push(() => second.close());
    const resumed = new HandOff(second, forwardTo(erp.url), { clock: systemClock, log: () => undefined });
    resumed.start();
    await second.append(record(4));
    await until(() => erp.taken.length === 4);
    await resumed.stop();
    expect(erp.taken).toEqual([1, 2, 3, 4]);
  });

  it('runs a command per event with the event on stdin, retrying a failing command', async () => {
    const directory = temporaryFolder();
    const inbox = await Inbox.open(directory);
    closers.push(() => inbox.close());
    const marker = join(directory, 'second-try');
    const output = join(directory, 'taken.ndjson');
    // Fails the first time (exit 3), then appends the event it reads to a file.
    const command = `if [ -f ${marker} ]; then cat >> ${output}; else touch ${marker}; echo failing >&2; exit 3; fi`;
    const stderr = new PassThrough();
    let errorText = '';
    stderr.on('data', (chunk) => (errorText += chunk));
    const log: string[] = [];
    const handOff = new HandOff(inbox, execCommand(command, stderr), {
      clock: systemClock,
      log: (line) => log.push(line),
      initialBackoffMs: 5,
    });
    handOff.start();
    await inbox.append(record(7));
    await inbox.append(record(8));
    await until(() => {
      try {
        return readFileSync(output, 'utf8').split('\n').filter(Boolean).length === 2;
      } catch {
        return false;
      }
    });
    await handOff.stop();
    const taken = readFileSync(output, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as InboxRecord);
    expect(taken.map((item) => item.deliveryId)).toEqual(['delivery-7', 'delivery-8']);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/exec .*: orders event delivery-7 failed \(attempt 1: exit code 3\)/);
    expect(errorText).toContain('failing');
  });
});
