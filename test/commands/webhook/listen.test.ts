import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/webhook/listen.js';
import { sampleEvent } from '../../../src/webhook/sender.js';
import {
  clientId,
  clientSecret,
  inboxOnDisk,
  listenInProcess,
  listenOptions,
  postEvent,
  postWithToken,
  receiverEnv,
  receiverToken,
  removeReceiverFolders,
  temporaryFolder,
} from '../../support/webhook-receiver.js';
import { makeSelfSignedCertificate } from '../../support/certificates.js';
import { requireThat, requireTools } from '../../support/external-tools.js';
import { testContext } from '../../support/test-context.js';
import { until } from '../../support/until.js';

afterAll(removeReceiverFolders);

const openssl = requireTools('openssl');
const root = requireThat(process.getuid?.() === 0, 'giving a folder to another user needs root');

/** A context whose profile could reach a platform (which nothing here should need) and holds the client secret. */
function receiverContext() {
  return testContext({ env: receiverEnv({ B2BCTL_BASE_URL: 'http://127.0.0.1:9', B2BCTL_TOKEN: 'platform-token' }) });
}
const order = sampleEvent('orders', new Date('2026-11-23T06:00:00Z'));

/**
 * A receiver with --fetch-orders whose platform answers every detail with `detail` (a list: each in turn, the last
 * from then on): posts `event` (an object, or text as written), waits for the order's file, and returns the requests
 * the platform saw, the file's JSON and the event's delivery id.
 */
async function fetchedOrder(event: unknown, detail: string | string[], fileName: string) {
  const requests: string[] = [];
  const answers = [detail].flat();
  const platform = createServer((request, response) => {
    requests.push(`${request.method} ${request.url} ${request.headers.authorization}`);
    const answer = answers[Math.min(requests.length, answers.length) - 1];
    response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
  });
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  const inbox = temporaryFolder();
  const env = {
    B2BCTL_BASE_URL: `http://127.0.0.1:${(platform.address() as { port: number }).port}`,
    B2BCTL_TOKEN: 'platform-token',
  };
  const { url, stop } = await listenInProcess(inbox, { fetchOrders: true }, { env });
  const answer = await postWithToken(url, 'orders', event);
  const { deliveryId } = (await answer.json()) as { deliveryId: string };
  const file = join(inbox, 'orders', fileName);
  await until(() => existsSync(file));
  await stop();
  await new Promise((resolve) => platform.close(resolve));
  return { requests, kept: JSON.parse(readFileSync(file, 'utf8')) as unknown, deliveryId };
}

describe('webhook listen (in process)', () => {
  it.each([
    [
      false,
      /^\{"receivedAt":"[^"]+","kind":"orders","deliveryId":"[^"]+","key":"orders:48213:[^"]+","flags":\[\],"clientAddress":"127\.0\.0\.1","event":\{"id":48213/,
    ],
    [true, /^\d\d:\d\d:\d\d orders {4}order 48213 {2}AWAITING_PAYMENT {2}Comercial Exemplo Ltda$/],
  ])(
    'prints its URL first, then with --log-events one line per stored event (stdout a terminal: %s)',
    async (tty, line) => {
      const inbox = temporaryFolder();
      const { memory, url, stop } = await listenInProcess(inbox, { logEvents: true }, { tty: { stdout: tty } });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const token = await receiverToken(url);
      expect((await postEvent(url, 'orders', order, token)).status).toBe(200);
      expect((await postEvent(url, 'orders', order, token)).status).toBe(200); // a duplicate: no second line
      await stop();
      const lines = memory.stdout().trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(line);
      // The summary on stderr counts the stored event beside the redelivery, as without --log-events.
      expect(memory.stderr()).toContain(
        'Stored 1 event since the last summary (customers 0, orders 1); 1 redelivery recognised.',
      );
      expect(memory.stderr()).toContain('Webhook receiver stopped.');
      expect(memory.stderr()).not.toContain(clientSecret);
    },
  );

  it('prints no line per event by default: a summary line on stderr instead', async () => {
    const { memory, url, stop } = await listenInProcess(temporaryFolder(), { summaryEveryMs: 50 });
    const token = await receiverToken(url);
    expect((await postEvent(url, 'orders', order, token)).status).toBe(200);
    expect((await postEvent(url, 'orders', order, token)).status).toBe(200);
    await until(() => memory.stderr().includes('Stored 1 event in the last 0 s'));
    expect((await postEvent(url, 'customers', sampleEvent('customers', new Date()), token)).status).toBe(200);
    await stop();
    expect(memory.stdout().trim().split('\n')).toEqual([url]);
    // However the events fell into the 50 ms periods, the lines add up to what was stored and recognised.
    const summaries = [
      ...memory
        .stderr()
        .matchAll(
          /Stored (\d+) events? (?:in the last 0 s|since the last summary) \(customers (\d+), orders (\d+)\); (\d+) redeliver(?:y|ies) recognised\./g,
        ),
    ];
    const total = (group: number) => summaries.reduce((sum, match) => sum + Number(match[group]), 0);
    expect([total(1), total(2), total(3), total(4)]).toEqual([2, 1, 1, 1]);
  });

  it('starts with the replaced --max-attempts, saying it is ignored for --give-up-after', async () => {
    const forwardTo = 'http://127.0.0.1:1/down';
    const { memory, stop } = await listenInProcess(temporaryFolder(), { forwardTo, maxAttempts: 20 });
    await stop();
    expect(memory.stderr()).toContain(
      '--max-attempts is ignored: a failing event is retried for --give-up-after (now 72 h), whatever the count.',
    );
  });

  it('refuses --forward-batch without --forward-to (exit 2), storing nothing', async () => {
    const inbox = temporaryFolder();
    const memory = testContext({
      env: receiverEnv(),
    });
    const failure = await run(listenOptions(inbox, { exec: 'cat', forwardBatch: 8 }), memory.context).catch(
      (error: unknown) => error,
    );
    expect((failure as Error).message).toBe(
      '--forward-batch says how --forward-to POSTs events: give it with --forward-to URL.',
    );
    expect((failure as { exitCode?: number }).exitCode).toBe(2);
    expect(memory.stdout()).toBe('');
    expect(existsSync(join(inbox, 'inbox.sqlite'))).toBe(false);
  });

  it.each([[{}], [{ fetchOrders: true }]])(
    'refuses --handoff without --forward-to or --exec (%j): a receiver that hands nothing off (exit 2)',
    async (flags) => {
      const inbox = temporaryFolder();
      const memory = testContext({
        env: receiverEnv(),
      });
      const failure = await run(listenOptions(inbox, { handoff: 'erp', ...flags }), memory.context).catch(
        (error: unknown) => error,
      );
      expect((failure as Error).message).toBe(
        '--handoff names the hand-off of --forward-to URL or --exec COMMAND: give it with one of them (--fetch-orders keeps its own name).',
      );
      expect((failure as { exitCode?: number }).exitCode).toBe(2);
      expect(existsSync(join(inbox, 'inbox.sqlite'))).toBe(false);
    },
  );

  it.each(['inbox.sqlite-shm', 'inbox.sqlite-wal', 'inbox.sqlite'])(
    'a link planted at %s is refused by name (exit 77), and nothing is written where it points',
    async (name) => {
      const inbox = temporaryFolder();
      const victim = join(temporaryFolder(), 'precious.txt');
      writeFileSync(victim, 'precious\n');
      symlinkSync(victim, join(inbox, name));
      const memory = testContext({
        env: receiverEnv(),
      });
      const failure = (await run(listenOptions(inbox), memory.context).catch((error: unknown) => error)) as Error & {
        exitCode: number;
      };
      const path = join(inbox, name);
      expect(failure.message).toBe(
        `${path} is a symbolic link; b2bctl keeps its inbox only in files of its own. Remove it (rm ${path}), or pass another --inbox.`,
      );
      expect(failure.exitCode).toBe(77);
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      expect(memory.stdout()).toBe('');
    },
  );

  it('a FIFO at inbox.sqlite-wal is refused by name (exit 2), not opened', async () => {
    const inbox = temporaryFolder();
    const path = join(inbox, 'inbox.sqlite-wal');
    execFileSync('mkfifo', ['-m', '600', path]);
    const memory = testContext({
      env: receiverEnv(),
    });
    const failure = (await run(listenOptions(inbox), memory.context).catch((error: unknown) => error)) as Error;
    expect(failure.message).toBe(
      `${path} is a named pipe (FIFO), not a file; b2bctl keeps its inbox only in files of its own. Remove it (rm ${path}), or pass another --inbox.`,
    );
  });

  it('refuses to start without a client id, naming the flag and the setting', async () => {
    const memory = testContext({
      env: receiverEnv(),
    });
    const failure = await run(listenOptions(temporaryFolder(), { clientId: undefined }), memory.context).catch(
      (error: unknown) => error,
    );
    expect((failure as Error).message).toBe(
      'Give the client id the platform will use: --client-id ID (or the webhook.clientId setting).',
    );
    expect(memory.stdout()).toBe('');
  });

  it('refuses a client secret shorter than 32 characters at start (exit 2), saying how to make one', async () => {
    const memory = testContext({
      env: { B2BCTL_CONFIG_DIR: temporaryFolder(), B2BCTL_WEBHOOK_CLIENT_SECRET: 'x'.repeat(31) },
    });
    const failure = (await run(listenOptions(temporaryFolder()), memory.context).catch(
      (error: unknown) => error,
    )) as Error & { exitCode: number };
    expect(failure.exitCode).toBe(2);
    expect(failure.message).toBe(
      'The webhook client secret has 31 characters; the receiver needs at least 32, so it cannot be guessed. Make one with: (umask 077; openssl rand -hex 32 > webhook-secret) (then --client-secret-file webhook-secret, and give the same secret to the platform).',
    );
    expect(memory.stdout()).toBe('');
  });

  it.skipIf(root.missing)(
    `--fetch-orders refuses an orders folder another user made first in the inbox (exit 77), listening on nothing${root.note}`,
    async () => {
      const inbox = temporaryFolder();
      const orders = join(inbox, 'orders');
      mkdirSync(orders, { mode: 0o700 });
      chownSync(orders, 65534, 65534);
      const memory = receiverContext();
      const failure = await run(listenOptions(inbox, { fetchOrders: true }), memory.context).catch(
        (error: unknown) => error,
      );
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^The orders folder ${orders} belongs to \\S+ \\(uid 65534\\), not to root: they could swap the orders the ERP reads from it for forged ones\\. Make it yours \\(sudo chown root ${orders} && chmod 700 ${orders}\\), or give --inbox a folder of your own\\.$`,
        ),
      );
      expect((failure as { exitCode?: number }).exitCode).toBe(77);
      expect(memory.stdout()).toBe('');
      expect(existsSync(join(inbox, 'inbox.sqlite'))).toBe(false);
    },
  );

  // Another user's link, named as the inbox or planted as its orders folder, leads to a folder of this user's (another
  // receiver's inbox, another job's orders): its owner chooses, and changes at will, where the events and orders go.
  it.skipIf(root.missing)(
    `refuses an inbox folder, or an orders folder, that is a link another user owns (exit 77), making nothing${root.note}`,
    async () => {
      const mine = temporaryFolder();
      const shared = join(temporaryFolder(), 'shared');
      mkdirSync(shared, { mode: 0o1777 });
      const inboxLink = join(shared, 'inbox');
      symlinkSync(mine, inboxLink);
      lchownSync(inboxLink, 65534, 65534);
      const memory = receiverContext();
      const failure = await run(listenOptions(inboxLink, { fetchOrders: true }), memory.context).catch(
        (error: unknown) => error,
      );
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^The inbox folder ${inboxLink} is a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: that user can point it at another inbox \\(its events, its token key\\) or a folder of theirs whenever they like\\. Give --inbox the folder itself, one of your own, or remove the link \\(rm ${inboxLink}\\)\\.$`,
        ),
      );
      expect((failure as { exitCode?: number }).exitCode).toBe(77);
      expect(memory.stdout()).toBe('');
      expect(readdirSync(mine)).toEqual([]);

      const inbox = temporaryFolder();
      const ordersLink = join(inbox, 'orders');
      symlinkSync(mine, ordersLink);
      lchownSync(ordersLink, 65534, 65534);
      const second = receiverContext();
      const refused = await run(listenOptions(inbox, { fetchOrders: true }), second.context).catch(
        (error: unknown) => error,
      );
      expect((refused as Error).message).toMatch(
        new RegExp(`^The orders folder ${ordersLink} is a symbolic link that belongs to \\S+ \\(uid 65534\\)`),
      );
      expect((refused as { exitCode?: number }).exitCode).toBe(77);
      expect(existsSync(join(inbox, 'inbox.sqlite'))).toBe(false);
      expect(readdirSync(mine)).toEqual([]);
    },
  );

  it('--fetch-orders refuses an orders folder others may write (exit 77), naming the chmod', async () => {
    const inbox = temporaryFolder();
    const orders = join(inbox, 'orders');
    mkdirSync(orders);
    chmodSync(orders, 0o777);
    const memory = receiverContext();
    const failure = await run(listenOptions(inbox, { fetchOrders: true }), memory.context).catch(
      (error: unknown) => error,
    );
    expect((failure as Error).message).toBe(
      `The orders folder ${orders} is writable by its group and others (mode 0777): they could swap the orders the ERP reads from it for forged ones. Run chmod 700 ${orders}.`,
    );
    expect((failure as { exitCode?: number }).exitCode).toBe(77);
    expect(memory.stdout()).toBe('');
  });

  it('warns about an inbox folder others may write, and starts', async () => {
    const inbox = temporaryFolder();
    chmodSync(inbox, 0o1777);
    const memory = receiverContext();
    const running = run(listenOptions(inbox), memory.context);
    await memory.firstLine();
    memory.interrupt();
    await running;
    expect(memory.stderr().split('\n')).toContain(
      `warning: the inbox folder ${inbox} is writable by its group and others (mode 1777): other users may put files in it, beside the events it keeps. Give --inbox a folder of your own (chmod 700 ${inbox}).`,
    );
  });

  it('--fetch-orders stores the full order fetched with the profile beside the event', async () => {
    const detail = { id: 48213, items: [{ sku: 'A', quantity: 2 }] };
    const { requests, kept, deliveryId } = await fetchedOrder(order, JSON.stringify(detail), '48213.json');
    expect(kept).toEqual({ deliveryId, order: detail });
    expect(requests).toEqual(['GET /v1/orders/48213 Bearer platform-token']);
  });

  it('--fetch-orders: a detail answered 200 with an empty body is no order to write: tried again, then kept whole', async () => {
    const detail = { id: 48213, items: [{ sku: 'A', quantity: 2 }] };
    const { requests, kept, deliveryId } = await fetchedOrder(order, ['', JSON.stringify(detail)], '48213.json');
    expect(kept).toEqual({ deliveryId, order: detail });
    expect(requests).toEqual([
      'GET /v1/orders/48213 Bearer platform-token',
      'GET /v1/orders/48213 Bearer platform-token',
    ]);
  });

  it.each([
    ['null', 'null'],
    ['[]', 'an array'],
    ['{"id":48214,"status":"CANCELED"}', "another order's record"],
    ['{"id":48213,"orderId":100999,"status":"CANCELED"}', "another order's number than the event's 100482"],
    ['{"data":null}', 'an envelope holding no order'],
    ['{"result":"OK"}', 'an envelope holding no order'],
    ['{"success":false,"message":"Internal error"}', 'an answer that says it failed'],
  ])(
    '--fetch-orders: a detail answered 200 with %s (%s) is no order to write: tried again, then kept whole',
    async (first) => {
      const detail = { id: 48213, items: [{ sku: 'A', quantity: 2 }] };
      const { requests, kept, deliveryId } = await fetchedOrder(order, [first, JSON.stringify(detail)], '48213.json');
      expect(kept).toEqual({ deliveryId, order: detail });
      expect(requests).toEqual([
        'GET /v1/orders/48213 Bearer platform-token',
        'GET /v1/orders/48213 Bearer platform-token',
      ]);
    },
  );

  it('--fetch-orders asks for an order id past 2^53 by its digits as the event wrote them', async () => {
    const raw = '{"id":9007199254740993,"orderId":1,"status":"NEW","lastUpdated":"2026-11-29T12:00:00Z"}';
    const { requests } = await fetchedOrder(raw, '{"id":9007199254740993,"items":[]}', '9007199254740993.json');
    expect(requests).toEqual(['GET /v1/orders/9007199254740993 Bearer platform-token']);
  });

  it.skipIf(openssl.missing)(`serves HTTPS with --tls-cert and --tls-key${openssl.note}`, async () => {
    const folder = temporaryFolder();
    const cert = join(folder, 'cert.pem');
    const key = join(folder, 'key.pem');
    makeSelfSignedCertificate({ certFile: cert, keyFile: key, subject: '/CN=127.0.0.1', days: 1 });
    const { url, stop } = await listenInProcess(join(folder, 'inbox'), { tlsCert: cert, tlsKey: key });
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const dispatcher = new Agent({ connect: { rejectUnauthorized: false } });
    const token = await fetch(`${url}/oauth/token?grant_type=password`, {
      method: 'POST',
      headers: { username: clientId, password: clientSecret },
      dispatcher,
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const event = await fetch(`${url}/webhooks/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify(order),
      dispatcher,
    });
    expect(event.status).toBe(200);
    await stop();
    await dispatcher.close();
    expect(inboxOnDisk(join(folder, 'inbox'))).toHaveLength(1);
  });
});

/** The receiver started with `extra` and stopped at once: what it wrote on stderr. */
async function startedAndStopped(extra: Parameters<typeof listenOptions>[1]): Promise<string> {
  const { memory, stop } = await listenInProcess(join(temporaryFolder(), 'inbox'), extra);
  await stop();
  return memory.stderr();
}

/** The warning of a receiver on 0.0.0.0 that trusts `whom` as its proxy. */
const trustWarning = (whom: string) =>
  `warning: the webhook receiver trusts ${whom} on 0.0.0.0, which other machines reach: a client that connects directly names itself in X-Forwarded-For and escapes the per-address limits. Give the proxy's own address instead: --trust-proxy 127.0.0.1 for a proxy on this machine, or its address on the network.`;

describe('webhook listen: what it says of its own exposure', () => {
  it('over plain HTTP on an address other machines reach, warns as the sandbox does; on 127.0.0.1, not', async () => {
    expect(await startedAndStopped({ host: '0.0.0.0' })).toContain(
      "warning: the webhook receiver listens on 0.0.0.0, reachable from other machines: over plain HTTP, the platform's client secret and tokens and the customers' data in its events cross the network in clear. Give --tls-cert and --tls-key, or --host 127.0.0.1 behind a TLS proxy on this machine.",
    );
    expect(await startedAndStopped({})).not.toContain('warning:');
  });

  // The passwords sat in the receiver's argv (/proc/PID/cmdline) its whole life, without a word (a user test).
  it('an --exec that sets secrets on its command line: warned at start, naming the variables and --exec-env, never a value', async () => {
    const stderr = await startedAndStopped({
      exec: 'ERP_SENHA=SenhaSecreta99 ERP_PASS=PassSecret77 LANG=C ./import.sh',
    });
    expect(stderr).toContain(
      "warning: --exec sets ERP_SENHA and ERP_PASS on its command line, which puts their values in the process list and shell history; set them in the receiver's environment instead and pass each on with --exec-env NAME.",
    );
    expect(stderr).not.toContain('SenhaSecreta99');
    expect(stderr).not.toContain('PassSecret77');
    expect(await startedAndStopped({ exec: 'LANG=C ./import.sh --mode full' })).not.toContain('warning:');
  });

  // The shell's other forms put the value in argv alike; a command substitution puts only its text there (a user test).
  it('an --exec with env, export, --password= or curl -u user:pass: warned, naming each; $(cat file): not', async () => {
    const stderr = await startedAndStopped({
      exec: 'export ERP_SENHA=SenhaSecreta99; env ERP_PASS=PassSecret77 ./import.sh --password=Outra99 | curl -s -u erp:Quarta99 http://127.0.0.1:9/ --data-binary @-',
    });
    expect(stderr).toContain(
      "warning: --exec sets ERP_SENHA, ERP_PASS, --password=… and -u user:… on its command line, which puts their values in the process list and shell history; set them in the receiver's environment instead and pass each on with --exec-env NAME.",
    );
    for (const secret of ['SenhaSecreta99', 'PassSecret77', 'Outra99', 'Quarta99'])
      expect(stderr).not.toContain(secret);
    expect(await startedAndStopped({ exec: 'ERP_TOKEN=$(cat /etc/erp/token) ./import.sh' })).not.toContain('warning:');
  });

  // y/Y4: any client there could name itself in X-Forwarded-For and escape the guessing limit, without a word.
  it('trusting any peer (a hop count) or a range beyond loopback on such an address, warns; the proxy by its address, not', async () => {
    expect((await startedAndStopped({ host: '0.0.0.0', trustProxy: 1 })).split('\n')).toContain(
      trustWarning('any peer as a proxy (--trust-proxy 1)'),
    );
    expect((await startedAndStopped({ host: '0.0.0.0', trustProxy: ['192.0.2.0/24'] })).split('\n')).toContain(
      trustWarning('every peer in 192.0.2.0/24 as a proxy'),
    );
    expect(await startedAndStopped({ host: '0.0.0.0', trustProxy: ['10.0.0.5'] })).not.toContain('trusts');
    expect(await startedAndStopped({ trustProxy: 1 })).not.toContain('warning:');
  });

  it.skipIf(openssl.missing)(
    `with TLS, warns of a private key others may read (as of the secret file), not of the address${openssl.note}`,
    async () => {
      const folder = temporaryFolder();
      const cert = join(folder, 'cert.pem');
      const key = join(folder, 'key.pem');
      makeSelfSignedCertificate({ certFile: cert, keyFile: key, subject: '/CN=127.0.0.1', days: 1 });
      chmodSync(key, 0o644);
      const readable = await startedAndStopped({ host: '0.0.0.0', tlsCert: cert, tlsKey: key });
      expect(readable).toContain(
        `warning: the TLS private key ${key} may be read by other users (mode 0644); run chmod 600 ${key}.`,
      );
      expect(readable).not.toContain('reachable from other machines');
      chmodSync(key, 0o600);
      expect(await startedAndStopped({ tlsCert: cert, tlsKey: key })).not.toContain('warning:');
    },
  );

  it.skipIf(openssl.missing || root.missing)(
    `refuses (exit 77) a TLS private key another user owns: they hold the receiver's key${openssl.note}${root.note}`,
    async () => {
      const folder = temporaryFolder();
      const cert = join(folder, 'cert.pem');
      const key = join(folder, 'key.pem');
      makeSelfSignedCertificate({ certFile: cert, keyFile: key, subject: '/CN=127.0.0.1', days: 1 });
      chmodSync(key, 0o600);
      chownSync(key, 65534, 65534);
      const memory = receiverContext();
      const failure = await run(listenOptions(temporaryFolder(), { tlsCert: cert, tlsKey: key }), memory.context).catch(
        (error: unknown) => error,
      );
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^The TLS private key ${key} belongs to \\S+ \\(uid 65534\\), not to root: that user knows it and can change it\\. Use a key and certificate of your own \\(the key made under umask 077, and the certificate issued for it\\), or sudo chown root ${key} && chmod 600 ${key} if you trust it\\.$`,
        ),
      );
      expect((failure as { exitCode?: number }).exitCode).toBe(77);
      expect(memory.stdout()).toBe('');
    },
  );
  it.skipIf(openssl.missing || root.missing)(
    `refuses (exit 77) a TLS private key reached through another user's link: they choose the key${openssl.note}${root.note}`,
    async () => {
      const folder = temporaryFolder();
      const cert = join(folder, 'cert.pem');
      const key = join(folder, 'key.pem');
      makeSelfSignedCertificate({ certFile: cert, keyFile: key, subject: '/CN=127.0.0.1', days: 1 });
      chmodSync(key, 0o600);
      const shared = join(temporaryFolder(), 'shared');
      mkdirSync(shared, { mode: 0o1777 });
      const link = join(shared, 'keylink.pem');
      symlinkSync(key, link);
      lchownSync(link, 65534, 65534);
      const memory = receiverContext();
      const failure = await run(
        listenOptions(temporaryFolder(), { tlsCert: cert, tlsKey: link }),
        memory.context,
      ).catch((error: unknown) => error);
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^The TLS private key ${link} is a symbolic link that belongs to \\S+ \\(uid 65534\\), not to root: that user can point it at any file they can read, and so know the secret\\. .*, or remove the link \\(rm ${link}\\)\\.$`,
        ),
      );
      expect((failure as { exitCode?: number }).exitCode).toBe(77);
      expect(memory.stdout()).toBe('');
    },
  );
});

describe('webhook listen: backlog and hand-offs', () => {
  it('--forward-batch posts the events stored while the ERP was down as JSON arrays, in order', async () => {
    let down = true;
    const posts: { events: string | undefined; ids: unknown[] }[] = [];
    const erp = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (down) return void response.writeHead(503).end();
        const header = request.headers['x-b2bctl-events'];
        posts.push({
          events: Array.isArray(header) ? header[0] : header,
          ids: (JSON.parse(body) as { event: { id: unknown } }[]).map((stored) => stored.event.id),
        });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => erp.listen(0, '127.0.0.1', resolve));
    const clock = {
      now: () => Date.now(),
      sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20))),
    };
    const erpUrl = `http://127.0.0.1:${(erp.address() as { port: number }).port}/hook`;
    const extra = { forwardTo: erpUrl, forwardBatch: 4 };
    const { url, stop } = await listenInProcess(temporaryFolder(), extra, { clock });
    const token = await receiverToken(url);
    for (let id = 1; id <= 9; id++) await postEvent(url, 'orders', { ...order, id }, token);
    down = false;
    await until(() => posts.flatMap((post) => post.ids).length === 9);
    await stop();
    erp.closeAllConnections();
    erp.close();
    // The first event, retried alone after the outage, is an array of one; the rest go four at a time.
    expect(posts).toEqual([
      { events: '1', ids: [1] },
      { events: '4', ids: [2, 3, 4, 5] },
      { events: '4', ids: [6, 7, 8, 9] },
    ]);
  });

  it('/healthz says degraded (200: it still takes events) with the backlog of a stuck hand-off, and webhook status exits 69', async () => {
    const inbox = temporaryFolder();
    let now = Date.parse('2026-11-23T06:00:00Z');
    const memory = testContext({
      env: receiverEnv(),
      clock: { now: () => now, sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, Math.min(ms, 20))) },
    });
    // An ERP that is down: every delivery fails and is retried, so the first event stays pending.
    const running = run(
      listenOptions(inbox, { forwardTo: 'http://127.0.0.1:1/down', stuckAfter: 600_000 }),
      memory.context,
    );
    const url = await memory.firstLine();
    expect(memory.stderr()).toContain('Hand-off "forward" to http://127.0.0.1:1/down (new, from the next event).');
    const healthy = await fetch(`${url}/healthz`);
    expect([healthy.status, await healthy.json()]).toEqual([
      200,
      {
        status: 'ok',
        problems: [],
        handOffs: [{ name: 'forward', pending: 0, oldestPendingSeconds: 0, dead: 0 }],
      },
    ]);
    await postEvent(url, 'orders', order, await receiverToken(url));
    await until(() => memory.stderr().includes('failed (attempt 1'));
    now += 11 * 60_000;
    const stuck = await fetch(`${url}/healthz`);
    expect([stuck.status, await stuck.json()]).toEqual([
      200,
      {
        status: 'degraded',
        problems: [{ problem: 'delivery stuck', handOff: 'forward', seconds: 660 }],
        handOffs: [{ name: 'forward', pending: 1, oldestPendingSeconds: 660, dead: 0 }],
      },
    ]);
    const { run: status } = await import('../../../src/commands/webhook/status.js');
    const statusMemory = testContext({
      env: { B2BCTL_CONFIG_DIR: temporaryFolder() },
      clock: { now: () => now, sleep: async () => undefined },
    });
    const failure = (await status({ inbox, stuckAfter: 600_000 }, statusMemory.context).catch(
      (error: unknown) => error,
    )) as Error & { exitCode: number };
    expect(failure.exitCode).toBe(69);
    expect(failure.message).toBe(
      'Delivery is degraded: hand-off "forward" has an event waiting 660 s (over --stuck-after 600 s). See the receiver\'s log.',
    );
    // Piped, one JSON array, as the global -o says (NDJSON is -o ndjson).
    expect(JSON.parse(statusMemory.stdout())).toMatchObject([
      { name: 'forward', pending: 1, oldestPendingSeconds: 660 },
    ]);
    memory.interrupt();
    await running;
  });
});

describe('a hand-off left by an earlier configuration', () => {
  it('is named at the start, and webhook inbox --drop-handoff removes it so /healthz stops counting it', async () => {
    const inbox = temporaryFolder();
    const env = receiverEnv();
    // Run once with an --exec hand-off, then with a --forward-to one instead: "exec" stays in the inbox.
    const first = testContext({ env });
    const firstRun = run(listenOptions(inbox, { exec: 'true' }), first.context);
    await first.firstLine();
    first.interrupt();
    await firstRun;
    const second = testContext({ env });
    const secondRun = run(listenOptions(inbox, { forwardTo: 'http://127.0.0.1:9/hook' }), second.context);
    const url = await second.firstLine();
    expect(second.stderr()).toContain(
      `warning: hand-off "exec" (exec true) is in SQLite ${join(inbox, 'inbox.sqlite')} but this receiver does not run it`,
    );
    expect(second.stderr()).toContain(
      "Run it again (--exec 'true'), or stop the receiver and remove it with b2bctl webhook inbox --drop-handoff exec.",
    );
    const health = (await (await fetch(`${url}/healthz`)).json()) as { handOffs: { name: string }[] };
    expect(health.handOffs.map((handOff) => handOff.name).toSorted()).toEqual(['exec', 'forward']);
    second.interrupt();
    await secondRun;
    const { run: inboxRun } = await import('../../../src/commands/webhook/inbox.js');
    const dropping = testContext({ env });
    await inboxRun({ inbox, dropHandoff: 'exec' }, dropping.context);
    expect(dropping.stderr()).toContain('Dropped hand-off "exec"');
    const third = testContext({ env });
    const thirdRun = run(listenOptions(inbox, { forwardTo: 'http://127.0.0.1:9/hook' }), third.context);
    const again = await third.firstLine();
    expect(third.stderr()).not.toContain('does not run it');
    const healthAfter = (await (await fetch(`${again}/healthz`)).json()) as { handOffs: { name: string }[] };
    expect(healthAfter.handOffs.map((handOff) => handOff.name)).toEqual(['forward']);
    third.interrupt();
    await thirdRun;
  });
});

describe('an --exec hand-off', () => {
  it('logs what the command printed in its own format, named by event; exit 65 makes a dead letter at once', async () => {
    const inbox = temporaryFolder();
    // The first event is a bad record (exit 65); the second is taken, and the command says so.
    const command =
      'if grep -q \'"id":1\' ; then echo "bad record: CNPJ invalid" >&2; exit 65; else echo "imported"; fi';
    const { memory, url, stop } = await listenInProcess(inbox, { exec: command }, { globals: { logFormat: 'json' } });
    const token = await receiverToken(url);
    await postEvent(url, 'customers', { id: 1 }, token);
    await postEvent(url, 'customers', { id: 2 }, token);
    await until(() => memory.stderr().includes('imported'));
    await stop();
    // Every line one JSON object (--log-format json), the command's words inside the receiver's own lines.
    const messages = memory
      .stderr()
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { message: string }).message);
    expect(messages).toContain(
      'Hand-off "exec" (exec if …): customers event 1 is dead after 1 attempt (exit code 65: bad record: CNPJ invalid); delivery goes on. See webhook dead list.',
    );
    expect(messages).toContain('exec if …: customers event 2 printed: imported');
    expect(messages.filter((message) => message.includes('failed (attempt'))).toEqual([]);
  });
});
