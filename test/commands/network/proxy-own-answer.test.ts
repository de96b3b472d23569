/**
 * A proxy that plain http is asked of by URL writes the answer itself when it cannot reach the platform (tinyproxy's
 * "500 Unable to connect" page): every command says the proxy answered, not the platform, and exits 69 as for a
 * platform that cannot be reached; doctor's reachability line fails saying so (a user test: read as the platform's
 * own HTTP 500, exit 1, its XHTML quoted raw, and doctor called the platform reachable). A 500 the platform gives and
 * the proxy relays stays the platform's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshConfigDir, refusedPort } from '../../support/cli.js';
import { runCommandLine } from '../../support/command-line.js';
import { requireTools } from '../../support/external-tools.js';
import { useScriptedPlatform } from '../../support/scripted-platform.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';
import { startTinyproxy, type Tinyproxy } from '../../support/tinyproxy.js';

const tinyproxyTool = requireTools('tinyproxy');

describe.skipIf(tinyproxyTool.missing)(`a platform that is down, through tinyproxy${tinyproxyTool.note}`, () => {
  const platform = useScriptedPlatform();
  let tinyproxy: Tinyproxy;
  let down: string;
  beforeAll(async () => {
    tinyproxy = await startTinyproxy(temporaryFolder());
    down = `http://127.0.0.1:${await refusedPort()}`;
  });
  afterAll(async () => {
    await tinyproxy.stop();
    removeTemporaryFolders();
  });

  const run = (args: string[], baseUrl = down) =>
    runCommandLine(['--base-url', baseUrl, ...args], {
      configDir: freshConfigDir(),
      env: { HTTP_PROXY: tinyproxy.url, B2BCTL_TOKEN: 'platform-token' },
    });
  const proxyAnswered = (method: string, path: string) =>
    `error: ${method} ${down}${path} was answered HTTP 500 with an HTML page ("500 Unable to connect") by the proxy ${tinyproxy.url} (HTTP_PROXY) itself (Server: tinyproxy/`;
  const couldNotReach = () => `not by the platform: the proxy could not get an answer from ${new URL(down).host}.`;

  it('sellers list and api: the proxy named as the one answering, exit 69; its page not quoted as markup', async () => {
    const before = tinyproxy.log().length;
    const list = await run(['sellers', 'list']);
    expect(list.stderr).toContain(proxyAnswered('GET', '/sellerModule/listSellers?limit=20'));
    expect(list.stderr).toContain(couldNotReach());
    expect(list.stderr).not.toContain('<?xml');
    expect(list.stdout).toBe('');
    expect(list.code).toBe(69);
    const api = await run(['api', '/v1/orders']);
    expect(api.stderr).toContain(proxyAnswered('GET', '/v1/orders'));
    expect(api.stdout).toBe('');
    expect(api.code).toBe(69);
    // Asked of the proxy by URL, once each: a 500 is not retried.
    const asked = tinyproxy.log().slice(before);
    expect(asked.match(new RegExp(`GET ${down}/sellerModule/listSellers`, 'g'))).toHaveLength(1);
    expect(asked.match(new RegExp(`GET ${down}/v1/orders`, 'g'))).toHaveLength(1);
  });

  it('api -X POST: exit 69, and the line says the write may have reached the platform', async () => {
    const result = await run(['api', '-X', 'POST', '/v1/customer', '-f', 'name=Ana']);
    expect(result.stderr).toContain(proxyAnswered('POST', '/v1/customer'));
    expect(result.stderr).toContain(
      'The request may have reached the platform: check whether it was applied before sending it again.',
    );
    expect(result.code).toBe(69);
  });

  it('doctor: the reachability line fails naming the proxy, and nothing is said of the token or the routes', async () => {
    const result = await run(['doctor', '-o', 'json']);
    const findings = JSON.parse(result.stdout) as { check: string; result: string; detail: string; setting?: string }[];
    const reachable = findings.find((finding) => finding.check === `GET ${down}`);
    expect(reachable?.result).toBe('fail');
    expect(reachable?.detail).toContain(proxyAnswered('GET', '/').replace('error: ', ''));
    expect(reachable?.detail).toContain(couldNotReach());
    expect(findings.filter((finding) => /token|listSellers|orders\?/.test(finding.check))).toEqual([
      { check: 'token and routes', result: 'skip', detail: 'the base URL cannot be reached' },
    ]);
    expect(result.code).toBe(69);
  });

  it('an https platform that is down: the proxy answers its CONNECT 500, said as the proxy not reaching it, exit 69', async () => {
    const https = `https://localhost:${new URL(down).port}`;
    const env = { HTTPS_PROXY: tinyproxy.url, B2BCTL_TOKEN: 'platform-token' };
    const connect = `the proxy ${tinyproxy.url} could not connect to localhost:${new URL(down).port} (HTTP 500 to CONNECT)`;
    const list = await runCommandLine(['--base-url', https, 'sellers', 'list'], { configDir: freshConfigDir(), env });
    expect(list.stderr).toContain(connect);
    expect(list.code).toBe(69);
    const doctor = await runCommandLine(['--base-url', https, 'doctor', '-o', 'json'], {
      configDir: freshConfigDir(),
      env,
    });
    const findings = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
    expect(findings.find((finding) => finding.check === 'proxy')).toMatchObject({ result: 'fail' });
    expect(findings.find((finding) => finding.check === 'proxy')?.detail).toContain(connect);
    expect(doctor.code).toBe(69);
    expect(tinyproxy.log()).toContain(`CONNECT localhost:${new URL(down).port}`);
  });

  it("a 500 page the platform answers, relayed by the proxy, stays the platform's: exit 1", async () => {
    platform.routes['GET /v1/orders'] = (_request, _body, response) => {
      response
        .writeHead(500, { 'content-type': 'text/html', server: 'nginx' })
        .end('<html><head><title>500 Internal Server Error</title></head><body>oops</body></html>');
    };
    const result = await run(['api', '/v1/orders'], platform.url);
    expect(result.stderr).toContain(`error: GET ${platform.url}/v1/orders answered HTTP 500.`);
    expect(result.stderr).not.toContain('by the proxy');
    expect(platform.received).toEqual(['GET /v1/orders']);
    expect(result.code).toBe(1);
  });
});
