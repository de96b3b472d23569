/**
 * An ERP's answer quoted in the receiver's log, in a dead letter and in `webhook replay`'s error is one line: an
 * HTML error page or a text over several lines quoted as it came left a dozen orphan lines in a journal, each taken
 * for an event of its own and found by no grep for the event (docs/webhooks.md, "How an event goes through").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { inboxWithOneEvent } from '../../support/one-event-inbox.js';
import { standInErp } from '../../support/stand-in-erp.js';
import { until } from '../../support/until.js';
import {
  listenInProcess,
  postWithToken,
  removeReceiverFolders,
  sampleOrder,
  temporaryFolder,
} from '../../support/webhook-receiver.js';

afterAll(removeReceiverFolders);

/** The error page Python's http.server answers a POST with, as the tester's stand-in ERP did. */
const errorPage = `<!DOCTYPE HTML>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Error response</title>
    </head>
    <body>
        <h1>Error response</h1>
        <p>Error code: 501</p>
        <p>Message: Unsupported method (&#x27;POST&#x27;).</p>
    </body>
</html>
`;
const pageInWords = `an HTML page ("Error response"): Error response Error code: 501 Message: Unsupported method ('POST').`;

/** An ERP answering every POST with this status and body. */
const erpAnswering = (status: number, body: string, type: string) => standInErp(() => ({ status, body, type }));

describe("an ERP's answer quoted on one line", () => {
  it('webhook replay: an HTML error page is one error line, its title and words, sent once', async () => {
    const erp = await erpAnswering(501, errorPage, 'text/html');
    const inbox = await inboxWithOneEvent();
    const result = await runCommandLine(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', erp.url, '--attempts', '1'],
      { configDir: freshConfigDir() },
    );
    await erp.close();
    expect(erp.received).toHaveLength(1);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      `orders event 1 (received 2026-11-23T06:00:00.000Z): ${erp.url} failed: HTTP 501: ${pageInWords}.`,
      `Replayed 0 events (${erp.url}), 1 failed.`,
      'error: 1 event could not be re-delivered; replay them again with --id (ids above).',
      '',
    ]);
  });

  it('webhook listen --forward-to: a refusal over several lines is one log line and a one-line dead letter', async () => {
    const erp = await erpAnswering(422, 'Evento recusado:\r\n  pedido 1\n\tja existe\n', 'text/plain');
    const inbox = temporaryFolder();
    const { memory, url, stop } = await listenInProcess(inbox, { forwardTo: erp.url });
    expect((await postWithToken(url, 'orders', sampleOrder)).status).toBe(200);
    await until(() => memory.stderr().includes('is dead after'));
    await stop();
    await erp.close();
    expect(erp.received).toHaveLength(1);
    const log = memory.stderr().split('\n');
    const quoting = log.filter((line) => line.includes('HTTP 422'));
    expect(quoting.length).toBeGreaterThan(0);
    for (const line of quoting) expect(line).toContain('HTTP 422: Evento recusado: pedido 1 ja existe');
    // No orphan line: none of the answer's later lines stands alone in the log.
    expect(log.filter((line) => /pedido 1|ja existe/.test(line) && !line.includes('HTTP 422'))).toEqual([]);
    const dead = await runCommandLine(['webhook', 'dead', 'list', '--inbox', inbox, '-o', 'json'], {
      configDir: freshConfigDir(),
    });
    expect((JSON.parse(dead.stdout) as { error: string }[]).map((letter) => letter.error)).toEqual([
      'HTTP 422: Evento recusado: pedido 1 ja existe',
    ]);
  });
});
