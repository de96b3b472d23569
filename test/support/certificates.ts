/**
 * Certificates made for a test with openssl (callers skip with requireTools('openssl') where it is missing), and
 * a TLS front that forwards to a plain HTTP server, as a store's load balancer terminates TLS.
 */
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

/** Runs openssl with these arguments, its output discarded; throws when it fails. */
export function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: 'ignore' });
}

export interface SelfSignedCertificate {
  certFile: string;
  keyFile: string;
  /** Distinguished name, e.g. `/CN=localhost`. */
  subject: string;
  days: number;
  /** X.509 extensions, each given to `-addext` (e.g. `subjectAltName=IP:127.0.0.1`). */
  extensions?: string[];
}

/** A self-signed certificate and its new RSA key, written to `certFile` and `keyFile`. */
export function makeSelfSignedCertificate(certificate: SelfSignedCertificate): void {
  const { certFile, keyFile, subject, days, extensions = [] } = certificate;
  const request = ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile];
  const addedExtensions = extensions.flatMap((extension) => ['-addext', extension]);
  openssl(...request, '-days', String(days), '-subj', subject, ...addedExtensions);
}

export interface TlsFront {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** An HTTPS server on a loopback ephemeral port that forwards every request to `target` (an http URL). */
export async function startTlsFront(target: string, tls: { cert: string | Buffer; key: string | Buffer }) {
  const { hostname, port } = new URL(target);
  const server = createServer(tls, (incoming, outgoing) => {
    const forward = httpRequest(
      { host: hostname, port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const front: TlsFront = {
    server,
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return front;
}
