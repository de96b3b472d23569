/**
 * tinyproxy (Debian's, installed by .ci/run) as the way out, with a password: every command the built binary runs
 * reaches the sandbox and the webhook receiver through it, as its own log shows, and its password is never printed.
 * An https store is reached through a CONNECT tunnel, which doctor reports.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { startTlsFront, type TlsFront } from '../../support/certificates.js';
import { freshConfigDir, freshWorkDir, runCli } from '../../support/cli.js';
import { repoRoot, sandboxPassword, sandboxUser, seedDirectory, startTestSandbox } from '../../support/sandbox.js';
import { requireTools } from '../../support/external-tools.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { startTinyproxy, type Tinyproxy } from '../../support/tinyproxy.js';
import { clientId, clientSecret, startTestReceiver, type TestReceiver } from '../../support/webhook-receiver.js';

const tinyproxyTool = requireTools('tinyproxy');

const proxyPassword = 'tiny-Pr0xy-pass-5521';

describe.skipIf(tinyproxyTool.missing)(`through tinyproxy${tinyproxyTool.note}`, () => {
  let sandbox: RunningSandbox;
  let receiver: TestReceiver;
  let tinyproxy: Tinyproxy;
  let front: TlsFront;
  let httpsBase: string;
  const outputs: string[] = [];

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    receiver = await startTestReceiver();
    tinyproxy = await startTinyproxy(freshWorkDir(), { user: 'ci', password: proxyPassword });
    const tls = join(repoRoot, 'test', 'fixtures', 'tls');
    front = await startTlsFront(sandbox.url, {
      cert: readFileSync(join(tls, 'localhost.cert.pem')),
      key: readFileSync(join(tls, 'localhost.key.pem')),
    });
    httpsBase = `https://localhost:${front.port}`;
  });
  afterAll(async () => {
    // Waited for: stopping, it still writes its log into the folder removed below.
    await tinyproxy.stop();
    await front.close();
    await sandbox.close();
    await receiver.close();
    removeTemporaryFolders();
  });

  const run = async (
    args: string[],
    options: { configDir: string; cwd?: string; stdin?: string; env?: Record<string, string> },
  ) => {
    const result = await runCli(['--verbose', ...args], {
      ...options,
      env: {
        HTTP_PROXY: tinyproxy.url,
        HTTPS_PROXY: tinyproxy.url,
        B2BCTL_WEBHOOK_CLIENT_SECRET: clientSecret,
        ...options.env,
      },
    });
    outputs.push(result.stdout, result.stderr);
    return result;
  };

  it('login, sellers list, customer create, stock push, orders poll, doctor and webhook trigger', async () => {
    const configDir = freshConfigDir();
    const cwd = freshWorkDir();
    copyFileSync(join(seedDirectory, 'stock.csv'), join(cwd, 'stock.csv'));
    const customers = readFileSync(join(seedDirectory, 'customers.csv'), 'utf8').split('\n').slice(0, 3).join('\n');
    writeFileSync(join(cwd, 'customers.csv'), `${customers}\n`);
    const steps: [string, string[], string | undefined][] = [
      [
        'login',
        ['login', '--base-url', sandbox.url, '--username', sandboxUser, '--password-stdin'],
        `${sandboxPassword}\n`,
      ],
      ['sellers', ['sellers', 'list', '-o', 'json'], undefined],
      ['customers', ['customer', 'create', 'customers.csv'], undefined],
      ['stock', ['stock', 'push', 'stock.csv'], undefined],
      ['orders', ['orders', 'poll', '--since', '2d', '-o', 'ndjson'], undefined],
      ['doctor', ['doctor', '-o', 'json'], undefined],
      ['trigger', ['webhook', 'trigger', 'orders', '--url', receiver.url, '--client-id', clientId], undefined],
    ];
    for (const [name, args, stdin] of steps) {
      const result = await run(args, { configDir, cwd, stdin });
      expect({ name, code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
        name,
        code: 0,
        stderr: '',
      });
    }
    const log = tinyproxy.log();
    for (const line of [
      `POST ${sandbox.url}/v1/auth/token`,
      `GET ${sandbox.url}/sellerModule/listSellers`,
      `POST ${sandbox.url}/v1/customer`,
      `PUT ${sandbox.url}/v1/stock/batch`,
      `GET ${sandbox.url}/v1/orders`,
      `GET ${sandbox.url}/ HTTP`,
      `POST ${receiver.url}/oauth/token`,
      `POST ${receiver.url}/webhooks/orders`,
    ])
      expect(log).toContain(`): ${line}`);
  });

  it('an https store: a CONNECT tunnel through tinyproxy, reported by doctor', async () => {
    const configDir = freshConfigDir();
    const env = { NODE_EXTRA_CA_CERTS: join(repoRoot, 'test', 'fixtures', 'tls', 'localhost.cert.pem') };
    const login = await run(['login', '--base-url', httpsBase, '--username', sandboxUser, '--password-stdin'], {
      configDir,
      env,
      stdin: `${sandboxPassword}\n`,
    });
    expect(login.code === 0 ? '' : login.stderr).toBe('');
    expect(login.code).toBe(0);
    const doctor = await run(['doctor', '-o', 'json'], { configDir, env });
    const findings = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
    expect(findings.find((finding) => finding.check === 'proxy')).toEqual({
      check: 'proxy',
      result: 'ok',
      detail: `through the proxy ${tinyproxy.url.replace(proxyPassword, '[redacted]')} (HTTPS_PROXY): CONNECT to ${new URL(httpsBase).host} succeeded`,
    });
    expect(findings.find((finding) => finding.check === 'TLS')?.result).toBe('ok');
    expect(tinyproxy.log()).toContain(`): CONNECT ${new URL(httpsBase).host} HTTP/1.1`);
  });

  it('NO_PROXY=localhost sends nothing through the proxy; the password is in no output', async () => {
    const before = tinyproxy.log().length;
    const result = await run(
      [
        'login',
        '--base-url',
        `http://localhost:${new URL(sandbox.url).port}`,
        '--username',
        sandboxUser,
        '--password-stdin',
      ],
      {
        configDir: freshConfigDir(),
        stdin: `${sandboxPassword}\n`,
        env: { NO_PROXY: 'localhost' },
      },
    );
    expect(result.code === 0 ? '' : result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(tinyproxy.log().slice(before)).not.toContain('Request (');
    expect(outputs.join('\n')).not.toContain(proxyPassword);
  });
});
