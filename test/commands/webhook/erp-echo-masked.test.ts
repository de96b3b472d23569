/**
 * An ERP's refusal may quote the credential it was sent (an auth layer's "token X not valid", a Basic pair decoded
 * into its error page). The receiver quotes the refusal in its log and keeps it as the dead letter's error, which
 * `webhook dead list` and its CSV print long after: the credential is masked in both, as b2bctl masks the
 * platform's echo of its own token (docs/security.md, "What is never printed"). The ERP itself still gets it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ListenOptions } from '../../../src/commands/webhook/listen.js';
import { freshConfigDir } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
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

const erpToken = 'FWDTOK-SECRET-abcdef0123456789';
const basicPair = 'usr:FWDPW-SECRET';
const basicEncoded = Buffer.from(basicPair).toString('base64');

/** An ERP answering every POST 422 with `echo` (given the request's URL and Authorization), keeping what it got. */
function echoingErp(echo: (url: string, authorization: string) => string) {
  return standInErp((request) => ({
    status: 422,
    type: 'application/json',
    body: JSON.stringify({ message: echo(request.url, request.authorization ?? '') }),
  }));
}

/** Runs the receiver with `extra`, posts one order event, and stops it once the event is a dead letter. */
async function oneDeadLetter(extra: Partial<ListenOptions>, env: Record<string, string> = {}) {
  const inbox = temporaryFolder();
  const { memory, url, stop } = await listenInProcess(inbox, extra, { env });
  expect((await postWithToken(url, 'orders', sampleOrder)).status).toBe(200);
  await until(() => memory.stderr().includes('is dead after'));
  await stop();
  const listed = (format: string) =>
    runCommandLine(['webhook', 'dead', 'list', '--inbox', inbox, '-o', format], { configDir: freshConfigDir() });
  const json = await listed('json');
  const csv = await listed('csv');
  expect(json.code).toBe(0);
  return {
    inbox,
    log: memory.stderr(),
    errors: (JSON.parse(json.stdout) as { error: string }[]).map((letter) => letter.error),
    csv: csv.stdout,
  };
}

describe("the ERP's echo of its forward credential", () => {
  it('B2BCTL_WEBHOOK_FORWARD_TOKEN quoted back: masked in the log and the dead letter; the ERP got it', async () => {
    const erp = await echoingErp((_url, authorization) => `${authorization} not valid for this ERP`);
    const dead = await oneDeadLetter(
      { forwardTo: `http://127.0.0.1:${erp.port}/hooks` },
      { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken },
    );
    await erp.close();
    expect(erp.received.map((request) => request.authorization)).toEqual([`Bearer ${erpToken}`]);
    expect(dead.errors).toEqual(['HTTP 422: {"message":"Bearer [redacted] not valid for this ERP"}']);
    expect(dead.log).toContain('(HTTP 422: {"message":"Bearer [redacted] not valid for this ERP"}); delivery goes on.');
    for (const text of [dead.log, dead.csv]) expect(text).not.toContain('FWDTOK-SECRET');
    expect(dead.csv).toContain('Bearer [redacted] not valid for this ERP');
  });

  it('B2BCTL_WEBHOOK_FORWARD_TOKEN quoted as PHP writes it, `/` as `\\/` (a user test): masked in the log and the dead letter', async () => {
    const token = 'fwd/Tok/Secret1234567890';
    const escaped = token.replaceAll('/', '\\/');
    // PHP's json_encode of the bearer it got: the body as written, not as JSON.stringify would write it.
    const erp = await standInErp(() => ({
      status: 422,
      type: 'application/json',
      body: `{"message":"token ${escaped} is not valid for this ERP"}`,
    }));
    const dead = await oneDeadLetter(
      { forwardTo: `http://127.0.0.1:${erp.port}/hooks` },
      { B2BCTL_WEBHOOK_FORWARD_TOKEN: token },
    );
    await erp.close();
    expect(erp.received.map((request) => request.authorization)).toEqual([`Bearer ${token}`]);
    const said = 'HTTP 422: {"message":"token [redacted] is not valid for this ERP"}';
    expect(dead.errors).toEqual([said]);
    expect(dead.log).toContain(`(${said}); delivery goes on.`);
    for (const spelling of [token, escaped, 'Secret1234567890'])
      expect(`${dead.log}${dead.csv}`).not.toContain(spelling);
  });

  it("half of B2BCTL_WEBHOOK_FORWARD_TOKEN quoted back, or the token cut at the ERP's line limit (a user test): masked in the log and the dead letter", async () => {
    // The ERP quotes the first 14 characters of the token, and its own log line of the header, cut at 40.
    const erp = await echoingErp(
      (_url, authorization) =>
        `token ${erpToken.slice(0, 14)}... not valid; ${`header Authorization: ${authorization}`.slice(0, 40)}`,
    );
    const dead = await oneDeadLetter(
      { forwardTo: `http://127.0.0.1:${erp.port}/hooks` },
      { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken },
    );
    await erp.close();
    expect(erp.received.map((request) => request.authorization)).toEqual([`Bearer ${erpToken}`]);
    const said = 'HTTP 422: {"message":"token [redacted]... not valid; header Authorization: Bearer [redacted]"}';
    expect(dead.errors).toEqual([said]);
    expect(dead.log).toContain(`(${said}); delivery goes on.`);
    for (const text of [dead.log, dead.csv]) expect(text).not.toContain('FWDTOK-S');
  });

  it('B2BCTL_WEBHOOK_FORWARD_BASIC quoted back as sent, decoded, or its password alone: each masked, the user kept', async () => {
    const erp = await echoingErp(() => `basic ${basicEncoded} = ${basicPair}; user usr pass FWDPW-SECRET`);
    const dead = await oneDeadLetter(
      { forwardTo: `http://127.0.0.1:${erp.port}/hooks` },
      { B2BCTL_WEBHOOK_FORWARD_BASIC: basicPair },
    );
    await erp.close();
    expect(erp.received.map((request) => request.authorization)).toEqual([`Basic ${basicEncoded}`]);
    expect(dead.errors).toEqual([
      'HTTP 422: {"message":"basic [redacted] = usr:[redacted]; user usr pass [redacted]"}',
    ]);
    for (const text of [dead.log, dead.csv]) {
      expect(text).not.toContain('FWDPW-SECRET');
      expect(text).not.toContain(basicEncoded);
    }
  });

  // A 3-character password is still a password: masked wherever the ERP quotes it alone, `HTTP 401` left readable.
  it('a B2BCTL_WEBHOOK_FORWARD_BASIC password of 3 characters quoted back: masked, the user and the words kept', async () => {
    const erp = await echoingErp(() => 'user erp pass "pw9" (erp:pw9) is not pw9x: 401');
    const dead = await oneDeadLetter(
      { forwardTo: `http://127.0.0.1:${erp.port}/hooks` },
      { B2BCTL_WEBHOOK_FORWARD_BASIC: 'erp:pw9' },
    );
    await erp.close();
    expect(erp.received.map((request) => request.authorization)).toEqual([
      `Basic ${Buffer.from('erp:pw9').toString('base64')}`,
    ]);
    const said = 'HTTP 422: {"message":"user erp pass \\"[redacted]\\" (erp:[redacted]) is not pw9x: 401"}';
    expect(dead.errors).toEqual([said]);
    expect(dead.log).toContain(`(${said}); delivery goes on.`);
    expect(dead.csv).not.toMatch(/\bpw9\b/);
  });

  it("the --forward-to URL's password and key quoted back, as written or decoded: masked", async () => {
    const erp = await echoingErp((url, authorization) => {
      const pair = Buffer.from(authorization.replace(/^Basic /, ''), 'base64').toString();
      return `key ${new URL(url, 'http://x').searchParams.get('api_key')} in ${url} for ${pair}`;
    });
    const dead = await oneDeadLetter({
      forwardTo: `http://usr:FWDPW%2FSECRET@127.0.0.1:${erp.port}/hooks?api_key=FWDKEY%2BSECRET`,
    });
    await erp.close();
    expect(erp.received.map((request) => request.url)).toEqual(['/hooks?api_key=FWDKEY%2BSECRET']);
    expect(dead.errors).toEqual([
      'HTTP 422: {"message":"key [redacted] in /hooks?api_key=[redacted] for usr:[redacted]"}',
    ]);
    for (const secret of ['FWDKEY', 'FWDPW']) expect(`${dead.log}${dead.csv}`).not.toContain(secret);
  });

  it('--forward-batch: a batch refused for good is masked as one event is', async () => {
    const erp = await echoingErp((_url, authorization) => `${authorization} refused`);
    const dead = await oneDeadLetter(
      { forwardTo: `http://127.0.0.1:${erp.port}/hooks`, forwardBatch: 5 },
      { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken },
    );
    await erp.close();
    expect(dead.errors).toEqual(['HTTP 422: {"message":"Bearer [redacted] refused"}']);
    expect(dead.log).not.toContain('FWDTOK-SECRET');
  });

  it('webhook replay --to: the echo is masked in its failure line too', async () => {
    const stored = await echoingErp(() => 'refused');
    const { inbox } = await oneDeadLetter({ forwardTo: `http://127.0.0.1:${stored.port}/hooks` });
    await stored.close();
    const erp = await echoingErp((_url, authorization) => `${authorization} not valid`);
    const replayed = await runCommandLine(
      ['webhook', 'replay', '--id', '1', '--inbox', inbox, '--to', `http://127.0.0.1:${erp.port}/hooks`],
      { configDir: freshConfigDir(), env: { B2BCTL_WEBHOOK_FORWARD_TOKEN: erpToken } },
    );
    await erp.close();
    expect(replayed.code).toBe(1);
    expect(erp.received.map((request) => request.authorization)).toEqual([`Bearer ${erpToken}`]);
    expect(replayed.stderr).toContain(
      `http://127.0.0.1:${erp.port}/hooks failed: HTTP 422: {"message":"Bearer [redacted] not valid"}.`,
    );
    expect(replayed.stderr).not.toContain('FWDTOK-SECRET');
  });
});

describe("an --exec command's output quoting the secrets it was given", () => {
  const command = `OWN_PASSWORD=own-pw-5150 sh -c 'echo "login failed for $ERP_TOKEN at $ERP_DB (dir $ERP_DIR, own $OWN_PASSWORD)" >&2; exit 65'`;

  it('--exec-env secrets and those the command line sets are masked; other values are kept', async () => {
    const dead = await oneDeadLetter(
      { exec: command, execEnv: ['ERP_TOKEN', 'ERP_DB', 'ERP_DIR'] },
      {
        ERP_TOKEN: 'exec-token-8a7b6c',
        ERP_DB: 'postgres://erp:db-pw-4242@db.example/erp',
        ERP_DIR: '/srv/erp/inbox',
      },
    );
    const said =
      'exit code 65: login failed for [redacted] at postgres://erp:[redacted]@db.example/erp (dir /srv/erp/inbox, own [redacted])';
    expect(dead.errors).toEqual([said]);
    expect(dead.log).toContain(`(${said}); delivery goes on.`);
    for (const secret of ['exec-token-8a7b6c', 'db-pw-4242', 'own-pw-5150'])
      expect(`${dead.log}${dead.csv}`).not.toContain(secret);
  });

  // A user test: the secret broken over two lines (LF, CRLF), and curl's Basic header in base64url, were kept.
  it.each([
    [
      'over two lines',
      `printf 'x %s\\n%s y\\n' "$(echo $ERP_TOKEN | cut -c1-10)" "$(echo $ERP_TOKEN | cut -c11-)"`,
      'x [redacted] y',
    ],
    [
      'over two CRLF lines',
      `printf 'x %s\\r\\n%s y\\n' "$(echo $ERP_TOKEN | cut -c1-10)" "$(echo $ERP_TOKEN | cut -c11-)"`,
      'x [redacted] y',
    ],
    [
      'as Basic in base64url',
      `echo "> Authorization: Basic $(printf 'erp:%s' "$ERP_TOKEN" | base64 | tr '+/' '-_')"`,
      '> Authorization: Basic [redacted]',
    ],
  ])('a secret printed %s is masked in the log and the dead letter', async (_how, print, said) => {
    const token = 'Tok/En?>>Secret%2=abc';
    const dead = await oneDeadLetter({ exec: `${print} >&2; exit 65`, execEnv: ['ERP_TOKEN'] }, { ERP_TOKEN: token });
    expect(dead.errors).toEqual([`exit code 65: ${said}`]);
    expect(dead.log).toContain(`(exit code 65: ${said}); delivery goes on.`);
    expect(`${dead.log}${dead.csv}`).not.toMatch(/ecret%2|Pj4|PlNl/);
  });

  it('what a command prints after a success is masked in its log lines too', async () => {
    const { memory, url, stop } = await listenInProcess(
      temporaryFolder(),
      { exec: 'echo "imported with $ERP_TOKEN"', execEnv: ['ERP_TOKEN'] },
      { env: { ERP_TOKEN: 'exec-token-8a7b6c' } },
    );
    await postWithToken(url, 'orders', sampleOrder);
    await until(() => memory.stderr().includes('printed'));
    await stop();
    expect(memory.stderr()).toContain('exec echo …: orders event 1 printed: imported with [redacted]');
    expect(memory.stderr()).not.toContain('exec-token-8a7b6c');
  });
});
