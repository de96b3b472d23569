/**
 * A `webhook listen` whose hand-off cannot start (--fetch-orders with no base URL for the profile, a user test) stops
 * with the error's exit code before its port opens: it left a receiver listening on a closed inbox, answering every
 * platform call 503, with its folder's lock given up and deaf to SIGTERM.
 */
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { run as listen } from '../../../src/commands/webhook/listen.js';
import { closedPort, collect, freshConfigDir, spawnCli } from '../../support/cli.js';
import { testContext } from '../../support/test-context.js';
import {
  clientId,
  clientSecret,
  listenInProcess,
  listenOptions,
  receiverEnv,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** Whether a connection to the loopback port is refused (nothing listens there). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('webhook listen: a start-up failure stops the receiver', () => {
  it('--fetch-orders with no base URL: exit 2 with its line, no URL printed, the port never left open', async () => {
    const inbox = temporaryFolder();
    const port = await closedPort();
    const memory = testContext({ env: receiverEnv() });
    const code = await memory.run(listen, listenOptions(inbox, { port, fetchOrders: true }));
    expect(code).toBe(2);
    expect(memory.stderr()).toMatch(/No base URL for profile "default"\. Pass --base-url URL/);
    expect(memory.stdout()).toBe('');
    expect(memory.stderr()).not.toMatch(/Webhook receiver on/);
    expect(await refused(port)).toBe(true);
  });

  it('the built CLI ends with exit 2 on its own, as a service manager must see it (it kept running)', async () => {
    const inbox = temporaryFolder();
    const child = spawnCli(
      ['webhook', 'listen', '--port', '0', '--client-id', clientId, '--inbox', inbox, '--fetch-orders'],
      freshConfigDir(),
      { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret },
    );
    try {
      const result = await collect(child);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/No base URL for profile "default"/);
      // The folder is free once the run has ended: the next receiver starts on it.
      const next = await listenInProcess(inbox);
      await next.stop();
      expect(next.memory.stderr()).toMatch(/Webhook receiver stopped\./);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
