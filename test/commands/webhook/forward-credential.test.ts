/**
 * The ERP's credential for a hand-off (`webhook listen --forward-to`, `webhook replay --to`): written in the URL, every
 * local user sees it in `ps`, so it is warned about as `--token` is; B2BCTL_WEBHOOK_FORWARD_TOKEN (sent as Bearer)
 * or B2BCTL_WEBHOOK_FORWARD_BASIC (user:password, sent as Basic) keep it out of argv, as `tax serve` takes
 * B2BCTL_TAX_FORWARD_TOKEN and _BASIC.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { type StandInErp, standInErp } from '../../support/stand-in-erp.js';
import { until } from '../../support/until.js';
import {
  clientSecret,
  listenInProcess,
  postWithToken,
  removeReceiverFolders,
  sampleOrder,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

const erpToken = 'erp-token-5d1c9a';

/** The Authorization header each request to the ERP came with. */
const authorizationsTo = (erp: StandInErp) => erp.received.map((request) => request.authorization);

/** Runs the receiver with `forwardTo`, posts one order event, and waits until the ERP took it. */
async function forwardOneEvent(forwardTo: (port: number) => string, env: Record<string, string> = {}) {
  const erp = await standInErp();
  const inbox = temporaryFolder();
  const { memory, url, stop } = await listenInProcess(inbox, { forwardTo: forwardTo(erp.port) }, { env });
  expect((await postWithToken(url, 'orders', sampleOrder)).status).toBe(200);
  await until(() => erp.received.length > 0);
  await stop();
  await erp.close();
  return { inbox, authorizations: authorizationsTo(erp), stderr: memory.stderr() };
}

describe('the ERP credential of a hand-off', () => {
  it('B2BCTL_WEBHOOK_FORWARD_TOKEN goes to the ERP as Bearer, with no warning and never in the log', async () => {
    const { authorizations, stderr } = await forwardOneEvent((port) => `http://127.0.0.1:${port}/hook`, {
      B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken,
    });
    expect(authorizations).toEqual([`Bearer ${erpToken}`]);
    expect(stderr).not.toContain('warning:');
    expect(stderr).not.toContain(erpToken);
  });

  it('B2BCTL_WEBHOOK_FORWARD_BASIC goes to the ERP as Basic, for an ERP that takes no token', async () => {
    const { authorizations, stderr } = await forwardOneEvent((port) => `http://127.0.0.1:${port}/hook`, {
      B2BCTL_WEBHOOK_FORWARD_BASIC: 'erp:Senha#1',
    });
    expect(authorizations).toEqual([`Basic ${Buffer.from('erp:Senha#1').toString('base64')}`]);
    expect(stderr).not.toContain('warning:');
    expect(stderr).not.toContain('Senha#1');
  });

  it('a user or a key written in --forward-to is warned about first, and still sent', async () => {
    const { authorizations, stderr } = await forwardOneEvent(
      (port) => `http://erp:pw-77@127.0.0.1:${port}/hook?api_key=k-77`,
    );
    expect(stderr.split('\n')[0]).toBe(
      "warning: --forward-to puts the ERP's credential (the URL's user or key) in the process list and shell history; leave it out of the URL and set B2BCTL_WEBHOOK_FORWARD_TOKEN (sent as Bearer) or B2BCTL_WEBHOOK_FORWARD_BASIC (user:password, sent as Basic).",
    );
    expect(authorizations).toEqual([`Basic ${Buffer.from('erp:pw-77').toString('base64')}`]);
  });

  it('webhook replay --to takes the token too, and warns of a key in its URL', async () => {
    const { inbox } = await forwardOneEvent((port) => `http://127.0.0.1:${port}/hook`);
    const erp = await standInErp();
    const replayed = await runCommandLine(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', `http://127.0.0.1:${erp.port}/hook?token=t-77`],
      { configDir: freshConfigDir(), env: { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken } },
    );
    await erp.close();
    expect(replayed.code).toBe(0);
    expect(authorizationsTo(erp)).toEqual([`Bearer ${erpToken}`]);
    expect(replayed.stderr.split('\n')[0]).toBe(
      "warning: --to puts the ERP's credential (the URL's user or key) in the process list and shell history; leave it out of the URL and set B2BCTL_WEBHOOK_FORWARD_TOKEN (sent as Bearer) or B2BCTL_WEBHOOK_FORWARD_BASIC (user:password, sent as Basic).",
    );
  });

  it('refuses the token beside a user in the URL (exit 2), before listening', async () => {
    const result = await runCommandLine(
      [
        'webhook',
        'listen',
        '--port',
        '0',
        '--client-id',
        'erp',
        '--inbox',
        temporaryFolder(),
        '--forward-to',
        'http://erp:pw-77@127.0.0.1:9/hook',
      ],
      {
        configDir: freshConfigDir(),
        env: { B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret, B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken },
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "error: Give the ERP's credential once: B2BCTL_WEBHOOK_FORWARD_TOKEN or the user in the --forward-to URL, not both.\n",
    );
    expect(result.stdout).toBe('');
  });
});
