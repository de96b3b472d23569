/**
 * A store behind a certificate from a private certificate authority, made here with openssl: without
 * NODE_EXTRA_CA_CERTS every command says which certificate is not trusted and how to trust it (exit 69); with it,
 * login, a listing and doctor work. An https base URL that is an IP address never draws Node's DEP0123 warning.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { makeSelfSignedCertificate, openssl, startTlsFront, type TlsFront } from '../../support/certificates.js';
import { freshConfigDir, freshWorkDir, runCli } from '../../support/cli.js';
import { sandboxPassword, sandboxUser, startTestSandbox } from '../../support/sandbox.js';
import { requireTools } from '../../support/external-tools.js';
import { removeTemporaryFolders } from '../../support/temporary.js';

const opensslTool = requireTools('openssl');

/** A root CA and a server certificate it signed, valid for 127.0.0.1 only. */
function privateAuthority(dir: string): { caFile: string; cert: Buffer; key: Buffer } {
  const file = (name: string) => join(dir, name);
  makeSelfSignedCertificate({
    certFile: file('ca.pem'),
    keyFile: file('ca.key'),
    subject: '/CN=Acme Test Root CA',
    days: 2,
    extensions: ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign'],
  });
  const request = ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('server.key'), '-out', file('server.csr')];
  openssl(...request, '-subj', '/CN=store.test');
  writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  const signing = ['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key')];
  openssl(...signing, '-CAcreateserial', '-out', file('server.pem'), '-days', '2', '-extfile', file('server.ext'));
  return { caFile: file('ca.pem'), cert: readFileSync(file('server.pem')), key: readFileSync(file('server.key')) };
}

function login(base: string, configDir: string, env: Record<string, string> = {}) {
  return runCli(['login', '--base-url', base, '--username', sandboxUser, '--password-stdin'], {
    configDir,
    env,
    stdin: `${sandboxPassword}\n`,
  });
}

describe.skipIf(opensslTool.missing)(`a store behind a private certificate authority${opensslTool.note}`, () => {
  let sandbox: RunningSandbox;
  let front: TlsFront;
  let caFile: string;
  let port: number;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    const authority = privateAuthority(freshWorkDir());
    caFile = authority.caFile;
    // TLS in front of the sandbox, as a store's load balancer terminates it.
    front = await startTlsFront(sandbox.url, { cert: authority.cert, key: authority.key });
    port = front.port;
  });
  afterAll(async () => {
    await front.close();
    await sandbox.close();
    removeTemporaryFolders();
  });

  it('without NODE_EXTRA_CA_CERTS: the certificate, its issuer and the fix, exit 69, no DEP0123', async () => {
    const result = await login(`https://127.0.0.1:${port}`, freshConfigDir());
    expect(result.stderr).toContain(
      `the certificate of 127.0.0.1:${port} is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE; issued to store.test by Acme Test Root CA). If the server or a proxy uses its own certificate authority, point NODE_EXTRA_CA_CERTS at that authority's certificate file (PEM), then try again.`,
    );
    expect(result.stderr).not.toMatch(/DEP0123|DeprecationWarning/);
    expect(result.code).toBe(69);
  });

  it('with NODE_EXTRA_CA_CERTS: login, sellers list and doctor work, no DEP0123', async () => {
    const configDir = freshConfigDir();
    const env = { NODE_EXTRA_CA_CERTS: caFile };
    const loggedIn = await login(`https://127.0.0.1:${port}`, configDir, env);
    expect(loggedIn.code).toBe(0);
    const listing = await runCli(['sellers', 'list', '-o', 'json'], { configDir, env });
    expect(listing.code).toBe(0);
    expect(JSON.parse(listing.stdout)).not.toHaveLength(0);
    const doctor = await runCli(['doctor', '-o', 'json'], { configDir, env });
    const findings = JSON.parse(doctor.stdout) as { check: string; result: string; detail: string }[];
    expect(findings.find((finding) => finding.check === 'TLS')?.result).toBe('ok');
    for (const result of [loggedIn, listing, doctor]) expect(result.stderr).not.toMatch(/DEP0123|DeprecationWarning/);
  });

  it('a host name the certificate does not name: the names it holds, and the fix', async () => {
    const result = await login(`https://localhost:${port}`, freshConfigDir(), { NODE_EXTRA_CA_CERTS: caFile });
    expect(result.stderr).toContain(
      `the certificate of localhost:${port} is for another host name (ERR_TLS_CERT_ALTNAME_INVALID: IP Address:127.0.0.1). Use in the base URL a host name the certificate names, then try again.`,
    );
    expect(result.code).toBe(69);
  });
});
