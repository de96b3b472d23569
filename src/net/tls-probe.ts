import { request as httpRequest } from 'node:http';
import { createConnection, isIP, type Socket } from 'node:net';
import { connect, type PeerCertificate } from 'node:tls';
import type { ProxyRoute } from './proxy-route.js';

/** What a TLS handshake showed, the certificate described even when it is not trusted. */
export interface TlsProbe {
  authorized: boolean;
  /** OpenSSL's code when not trusted: `UNABLE_TO_VERIFY_LEAF_SIGNATURE`, `CERT_HAS_EXPIRED`... */
  problem?: string;
  subject?: string;
  issuer?: string;
  validTo?: string;
  protocol?: string;
  /** The names the certificate is valid for. */
  altNames?: string;
}

/**
 * Opens a raw connection to `url`'s host and port: directly, or through the route's proxy with CONNECT.
 * Rejects with a ProxyConnectError when the proxy answers the CONNECT with anything but 200.
 */
export function openConnection(url: URL, route: ProxyRoute, timeoutMs: number): Promise<Socket | undefined> {
  if (route.kind !== 'proxy') return Promise.resolve(undefined);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const target = `${url.hostname}:${port}`;
  const proxy = route.proxy;
  const headers: Record<string, string> = { host: target };
  if (proxy.username)
    headers['proxy-authorization'] =
      `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const connectRequest = httpRequest({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: Number(proxy.port || 80),
      method: 'CONNECT',
      path: target,
      headers,
      timeout: timeoutMs,
    });
    connectRequest.once('connect', (response, socket) => {
      if (response.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new ProxyConnectError(response.statusCode ?? 0, target));
    });
    connectRequest.once('timeout', () => connectRequest.destroy(timedOut('CONNECT')));
    connectRequest.once('error', reject);
    connectRequest.end();
  });
}

/**
 * A TCP connection to the proxy itself, closed at once: what a plain http request through it needs first (it is
 * asked by URL, without CONNECT). Rejects with the socket's error, or ETIMEDOUT after `timeoutMs` of silence.
 */
export function reachProxy(proxy: URL, timeoutMs: number): Promise<void> {
  const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port });
    socket.setTimeout(timeoutMs, () => socket.destroy(timedOut('connecting to the proxy')));
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** A probe that waited `timeoutMs` for nothing: ETIMEDOUT, the code network-error.ts words as "did not answer in time". */
function timedOut(what: string): Error {
  return Object.assign(new Error(`${what} timed out`), { code: 'ETIMEDOUT' });
}

/** A proxy that answered CONNECT with another status than 200. */
export class ProxyConnectError extends Error {
  readonly status: number;
  readonly target: string;
  constructor(status: number, target: string) {
    super(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
    this.status = status;
    this.target = target;

    this.name = 'ProxyConnectError';
  }
}

/** A TLS handshake with `url`'s server that accepts any certificate, to describe it; nothing is sent on it. */
export async function probeTls(url: URL, route: ProxyRoute, timeoutMs: number): Promise<TlsProbe> {
  const tunnel = await openConnection(url, route, timeoutMs);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise<TlsProbe>((resolve, reject) => {
    const socket = connect({
      host,
      port: Number(url.port || 443),
      socket: tunnel,
      // No server name for an IP address: TLS forbids it, and Node warns (DEP0123).
      ...(isIP(host) ? {} : { servername: host }),
      timeout: timeoutMs,
      rejectUnauthorized: false,
    });
    socket.once('secureConnect', () => {
      const certificate: PeerCertificate = socket.getPeerCertificate();
      resolve({
        authorized: socket.authorized,
        problem: socket.authorized ? undefined : String(socket.authorizationError),
        subject: firstText(certificate.subject?.CN),
        issuer: firstText(certificate.issuer?.CN ?? certificate.issuer?.O),
        validTo: certificate.valid_to,
        protocol: socket.getProtocol() ?? undefined,
        altNames: certificate.subjectaltname,
      });
      socket.destroy();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(Object.assign(new Error(`no TLS handshake within ${timeoutMs} ms`), { code: 'ETIMEDOUT' }));
    });
    socket.once('error', (error) => {
      socket.destroy();
      reject(error);
    });
  });
}

function firstText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
