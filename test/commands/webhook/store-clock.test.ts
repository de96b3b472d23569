import { createServer } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/base/errors.js';
import { run as dead } from '../../../src/commands/webhook/dead.js';
import { run as listen } from '../../../src/commands/webhook/listen.js';
import { FakeClock } from '../../support/fake-clock.js';
import { testContext } from '../../support/test-context.js';
import { until } from '../../support/until.js';
import {
  listenOptions,
  postWithToken,
  receiverEnv,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

// The store records time by the command's clock, as the receiver does: a clock far from the machine's shows it.

afterAll(removeReceiverFolders);

async function deadLetterCounted(url: string): Promise<boolean> {
  const health = (await (await fetch(`${url}/healthz`)).json()) as { handOffs: { dead: number }[] };
  return health.handOffs.some((handOff) => handOff.dead === 1);
}

describe('webhook listen gives its clock to the store', () => {
  it('dates a dead letter by the command clock, not the machine', async () => {
    const clock = new FakeClock(Date.parse('2031-02-03T04:05:06Z'));
    const erp = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(422).end('{"error":"unknown customer"}');
      });
    });
    await new Promise<void>((listening) => erp.listen(0, '127.0.0.1', listening));
    const { port } = erp.address() as { port: number };
    const inbox = temporaryFolder();
    const env = receiverEnv();
    try {
      const memory = testContext({ env, clock });
      const forwardTo = `http://127.0.0.1:${port}/hooks`;
      const running = memory.run(listen, listenOptions(inbox, { forwardTo, handoff: 'erp' }));
      const url = await memory.firstLine();
      expect((await postWithToken(url, 'customers', { id: 41 })).status).toBe(200);
      // Recorded once /healthz counts it (the ERP's answer alone comes before the store's commit).
      await until(() => deadLetterCounted(url), 'the dead letter', { deadlineMs: 30_000 });
      memory.interrupt();
      expect(await running).toBe(ExitCode.ok);
    } finally {
      erp.close();
    }
    const listing = testContext({ env });
    expect(await listing.run(dead, { action: 'list', ids: [], inbox })).toBe(ExitCode.ok);
    // Piped, one JSON array.
    expect(JSON.parse(listing.stdout())).toEqual([
      expect.objectContaining({
        handOff: 'erp',
        receivedAt: '2031-02-03T04:05:06.000Z',
        diedAt: '2031-02-03T04:05:06.000Z',
      }),
    ]);
  });
});
