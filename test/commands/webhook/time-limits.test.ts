/**
 * `--forward-timeout` and `--exec-timeout` arm a timer for each try of an event. Node fires a timer past 24.8 days
 * after 1 ms (with a TimeoutOverflowWarning on stderr): `--exec-timeout 30d` failed every run at once, and with
 * `--forward-timeout 30d` each event's answer was cut and the event sent to the ERP again (a user test). Such a
 * limit is refused at start, past a day, before anything is sent or run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { standInErp } from '../../support/stand-in-erp.js';
import type { TestContext } from '../../support/test-context.js';
import { until } from '../../support/until.js';
import { clientSecret, removeReceiverFolders, temporaryFolder } from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const refusal = (flag: string, value: string) =>
  `error: option '${flag} <duration>' argument '${value}' is invalid. expected a time such as 30s or 10m, at most 24h (every later event waits behind one try).`;

/** A receiver of `inbox` handing its stored event off from the start, with `flags`; stopped once `sent()` holds. */
async function listenUntil(inbox: string, flags: string[], sent: () => boolean) {
  let test: TestContext | undefined;
  let ended = false;
  // Were the flag taken, the receiver would run until stopped: it is stopped once it sent the event.
  void until(() => ended || sent()).then(() => test?.interrupt('SIGTERM'));
  const result = await runCommandLine(
    ['webhook', 'listen', '--port', '0', '--client-id', 'erp', '--inbox', inbox, '--from-start', ...flags],
    {
      configDir: freshConfigDir(),
      env: { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret },
      started: (started) => (test = started),
    },
  );
  ended = true;
  return result;
}

describe('a time limit past a day', () => {
  it('webhook listen --forward-timeout 30d: refused at start, exit 2, nothing sent to the ERP', async () => {
    const inbox = await inboxWithOneEvent();
    const erp = await standInErp();
    const result = await listenUntil(
      inbox,
      ['--forward-to', erp.url, '--forward-timeout', '30d'],
      () => erp.received.length > 0,
    );
    await erp.close();
    expect(result.stderr.split('\n')[0]).toBe(refusal('--forward-timeout', '30d'));
    expect(result.stderr).not.toContain('TimeoutOverflowWarning');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(erp.received).toEqual([]);
  });

  it('webhook listen --exec-timeout 30d: refused at start, exit 2, no command run', async () => {
    const inbox = await inboxWithOneEvent();
    const marker = join(temporaryFolder(), 'ran');
    const result = await listenUntil(inbox, ['--exec', `touch '${marker}'`, '--exec-timeout', '30d'], () =>
      existsSync(marker),
    );
    expect(result.stderr.split('\n')[0]).toBe(refusal('--exec-timeout', '30d'));
    expect(result.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('webhook replay --exec-timeout 30d: refused, exit 2, no command run', async () => {
    const inbox = await inboxWithOneEvent();
    const marker = join(temporaryFolder(), 'ran');
    const result = await runCommandLine(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--exec', `touch '${marker}'`, '--exec-timeout', '30d'],
      { configDir: freshConfigDir() },
    );
    expect(result.stderr.split('\n')[0]).toBe(refusal('--exec-timeout', '30d'));
    expect(result.code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('webhook replay --exec-timeout 24h, and a bare 30 (seconds, as it always was): taken, the command runs', async () => {
    for (const limit of ['24h', '30']) {
      const inbox = await inboxWithOneEvent();
      const marker = join(temporaryFolder(), 'ran');
      const result = await runCommandLine(
        ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--exec', `touch '${marker}'`, '--exec-timeout', limit],
        { configDir: freshConfigDir() },
      );
      expect(result.code).toBe(0);
      expect(existsSync(marker)).toBe(true);
    }
  });
});
