/**
 * doctor through a proxy whose policy refuses the tunnel (403 to CONNECT), with a password in HTTPS_PROXY: the line
 * says so, and the password, percent-encoded or not, and its Basic credentials are in no output. A file of its own,
 * without a working folder of its own, so the mutation run (which leaves out tests that change folder) runs it.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommandLine } from '../../support/command-line.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const proxyUser = 'alice';

describe('doctor through a proxy that refuses CONNECT, with a password in HTTPS_PROXY', () => {
  // Characters a URL must percent-encode, so the encoded and the decoded forms are both looked for.
  const password = 'r3fus!ng:p@ss/w0rd';
  const encoded = encodeURIComponent(password);
  let refusing: { server: ReturnType<typeof createServer>; port: number; connects: string[] };

  beforeAll(async () => {
    const connects: string[] = [];
    const server = createServer((_request, response) => response.writeHead(403).end());
    // A proxy whose policy forbids the tunnel: 403 to every CONNECT, after it has seen the credentials.
    server.on('connect', (request: IncomingMessage, socket) => {
      connects.push(`${request.url} ${request.headers['proxy-authorization'] ?? 'no credentials'}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    refusing = { server, port: (server.address() as AddressInfo).port, connects };
  });
  afterAll(async () => {
    await new Promise((resolve) => refusing.server.close(resolve));
    removeTemporaryFolders();
  });

  it.each([
    ['a table on a terminal', ['--verbose', 'doctor'], true],
    ['JSON', ['--verbose', 'doctor', '-o', 'json'], false],
  ])('%s: the proxy line names the refusal, the password appears nowhere, exit 69', async (_case, args, tty) => {
    const proxyHost = `127.0.0.1:${refusing.port}`;
    const before = refusing.connects.length;
    const result = await runCommandLine([...args, '--base-url', 'https://localhost:8443'], {
      configDir: temporaryFolder(),
      tty: { stdout: tty, stderr: tty },
      env: { HTTPS_PROXY: `http://${proxyUser}:${encoded}@${proxyHost}` },
    });
    expect(result.code).toBe(69);
    // The proxy was asked, with the credentials: the refusal came after they were read.
    expect(refusing.connects.slice(before)).toEqual([
      `localhost:8443 Basic ${Buffer.from(`${proxyUser}:${password}`).toString('base64')}`,
    ]);
    const redacted = `http://${proxyUser}:[redacted]@${proxyHost}`;
    const line = `CONNECT to localhost:8443 through ${redacted} failed: the proxy ${redacted} refused to connect to localhost:8443 (HTTP 403 to CONNECT); ask the proxy's operator to allow localhost:8443, or add it to NO_PROXY if this machine reaches it directly`;
    if (tty) expect(result.stdout.replace(/\s+/g, ' ')).toContain('failed: the proxy http://alice:[redacted]@');
    else
      expect((JSON.parse(result.stdout) as { check: string }[]).find((finding) => finding.check === 'proxy')).toEqual({
        check: 'proxy',
        result: 'fail',
        detail: line,
      });
    for (const secret of [password, encoded, Buffer.from(`${proxyUser}:${password}`).toString('base64')]) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
  });
});
