/**
 * `doctor` over https (issue 11): a self-signed certificate is refused by name (exit 69, nothing else asked); the
 * same certificate trusted through NODE_EXTRA_CA_CERTS passes, with its expiry shown. And `doctor --password-stdin`:
 * a fresh login with the password from a pipe, which is never printed; an empty one stops before anything is sent.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { makeSelfSignedCertificate } from '../../support/certificates.js';
import { freshConfigDir, freshWorkDir, runCli } from '../../support/cli.js';
import {
  repoRoot,
  requestCounts,
  resetCounts,
  sandboxPassword,
  sandboxUser,
  startTestSandbox,
} from '../../support/sandbox.js';
import { removeTemporaryFolders } from '../../support/temporary.js';
import { onPath } from '../../support/external-tools.js';

interface Finding {
  check: string;
  result: string;
  detail: string;
}

/** A certificate for localhost made now with openssl when there is one, else the committed fixture. */
function localhostCertificate(): { cert: string; key: string; certFile: string } {
  const fixture = join(repoRoot, 'test', 'fixtures', 'tls');
  let dir = fixture;
  if (onPath('openssl'))
    try {
      dir = freshWorkDir();
      makeSelfSignedCertificate({
        certFile: join(dir, 'localhost.cert.pem'),
        keyFile: join(dir, 'localhost.key.pem'),
        subject: '/CN=localhost',
        days: 2,
        extensions: ['subjectAltName=DNS:localhost,IP:127.0.0.1'],
      });
    } catch {
      dir = fixture;
    }
  const certFile = join(dir, 'localhost.cert.pem');
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(join(dir, 'localhost.key.pem'), 'utf8'), certFile };
}

describe('doctor against an https base URL', () => {
  let server: Server;
  let baseUrl: string;
  let certFile: string;
  const requests: string[] = [];

  beforeAll(async () => {
    const certificate = localhostCertificate();
    certFile = certificate.certFile;
    server = createServer({ cert: certificate.cert, key: certificate.key }, (request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(request.url === '/' ? 200 : 404, { 'content-type': 'application/json' }).end('{}');
    });
    // Every address, so that localhost answers whether it resolves to 127.0.0.1 or ::1.
    await new Promise<void>((resolve) => server.listen(0, resolve));
    baseUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    removeTemporaryFolders();
  });

  it('a self-signed certificate: TLS fails naming it, nothing else is asked, exit 69', async () => {
    requests.length = 0;
    const result = await runCli(['doctor', '-o', 'json'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: baseUrl },
    });
    const findings = JSON.parse(result.stdout) as Finding[];
    expect(findings.find((finding) => finding.check === 'TLS')).toMatchObject({
      result: 'fail',
      detail: `the certificate of ${new URL(baseUrl).host} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT; issued to localhost by localhost): if the server or a proxy uses its own certificate authority, point NODE_EXTRA_CA_CERTS at that authority's certificate file (PEM)`,
    });
    expect(result.code).toBe(69);
    expect(requests).toEqual([]);
  });

  it('the same certificate trusted (NODE_EXTRA_CA_CERTS): TLS ok with its expiry, the base URL reached', async () => {
    const result = await runCli(['doctor', '-o', 'json'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: baseUrl, NODE_EXTRA_CA_CERTS: certFile },
    });
    const findings = JSON.parse(result.stdout) as Finding[];
    const tls = findings.find((finding) => finding.check === 'TLS');
    expect(tls?.result).toBe('ok');
    expect(tls?.detail).toMatch(/^TLSv1\.[23], certificate valid until \w{3} +\d+ [\d:]+ \d{4} GMT$/);
    expect(findings.find((finding) => finding.check === `GET ${baseUrl}`)?.result).toBe('ok');
    // No token for this profile: the login is what fails now, not the network.
    expect(result.code).toBe(77);
  });
});

describe('doctor --password-stdin', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(async () => sandbox.close());

  const doctor = (stdin: string) =>
    runCli(['doctor', '--password-stdin', '-o', 'json'], {
      configDir: freshConfigDir(),
      env: { B2BCTL_BASE_URL: sandbox.url, B2BCTL_USERNAME: sandboxUser },
      stdin,
    });

  it('logs in with the piped password, shows where the answer held the token, never the password', async () => {
    const result = await doctor(`${sandboxPassword}\n`);
    expect(result.code).toBe(0);
    const token = (JSON.parse(result.stdout) as Finding[]).find((finding) => finding.check.startsWith('POST '));
    expect(token).toMatchObject({ result: 'ok' });
    expect(token?.detail).toMatch(/^token obtained for integration@sandbox\.test: token in "access_token"/);
    expect(result.stdout + result.stderr).not.toContain(sandboxPassword);
  });

  it('a wrong piped password: the login refused, exit 77', async () => {
    const result = await doctor('not-the-password\n');
    expect(result.code).toBe(77);
    expect(result.stdout + result.stderr).not.toContain('not-the-password');
  });

  it('an empty pipe: exit 2 before anything is sent', async () => {
    await resetCounts(sandbox);
    const result = await doctor('');
    expect(result.stderr).toBe('error: The password piped to --password-stdin is empty; nothing was checked.\n');
    expect(result.code).toBe(2);
    expect(await requestCounts(sandbox)).toEqual({});
  });
});
