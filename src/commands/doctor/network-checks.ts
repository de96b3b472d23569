import { lookup } from 'node:dns/promises';
import { connect, type PeerCertificate } from 'node:tls';
import { ExitCode } from '../../errors.js';
import type { HttpClient } from '../../platform/http-client.js';
import type { Finding } from './findings.js';

/** Skew beyond which tokens issued by the platform look expired or not yet valid here. */
const warnSkewMs = 60_000;
const failSkewMs = 5 * 60_000;

/** Whether the base URL's host name resolves. */
export async function checkDns(url: URL): Promise<Finding> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = await lookup(host, { all: true });
    return { check: 'DNS', result: 'ok', detail: `${host} → ${addresses.map((entry) => entry.address).join(', ')}` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return {
      check: 'DNS',
      result: 'fail',
      detail: `${host} does not resolve (${code}); check the host name in the base URL`,
      setting: 'baseUrl',
      exitCode: ExitCode.unavailable,
    };
  }
}

/** The TLS handshake of an https base URL: certificate trusted, for this host, and its expiry. */
export async function checkTls(url: URL, timeoutMs: number): Promise<Finding> {
  if (url.protocol !== 'https:') {
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    return {
      check: 'TLS',
      result: loopback ? 'ok' : 'warn',
      detail: loopback
        ? 'plain HTTP on this machine (the sandbox)'
        : 'plain HTTP: the token and the data travel unencrypted; use the https:// address of the store',
      setting: loopback ? undefined : 'baseUrl',
    };
  }
  const port = Number(url.port || 443);
  return new Promise<Finding>((resolve) => {
    // Not rejected during the handshake, so that an untrusted certificate can be described; nothing is sent on it.
    const socket = connect({
      host: url.hostname,
      port,
      servername: url.hostname,
      timeout: timeoutMs,
      rejectUnauthorized: false,
    });
    const finish = (finding: Finding) => {
      socket.destroy();
      resolve(finding);
    };
    socket.once('secureConnect', () => {
      const certificate: PeerCertificate = socket.getPeerCertificate();
      finish(
        socket.authorized
          ? {
              check: 'TLS',
              result: 'ok',
              detail: `${socket.getProtocol() ?? 'TLS'}, certificate valid until ${certificate.valid_to}`,
            }
          : {
              check: 'TLS',
              result: 'fail',
              detail: `certificate not trusted (${String(socket.authorizationError)}; issued to ${certificate.subject?.CN ?? '?'} by ${certificate.issuer?.CN ?? '?'}): if the store or a proxy uses its own CA, point NODE_EXTRA_CA_CERTS at its certificate file`,
              exitCode: ExitCode.unavailable,
            },
      );
    });
    socket.once('timeout', () =>
      finish({
        check: 'TLS',
        result: 'fail',
        detail: `no TLS handshake within ${timeoutMs} ms`,
        exitCode: ExitCode.unavailable,
      }),
    );
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish({
        check: 'TLS',
        result: 'fail',
        detail: `TLS failed (${error.code ?? error.message})`,
        exitCode: ExitCode.unavailable,
      }),
    );
  });
}

/**
 * Whether anything answers at the base URL (any status will do), and the platform's clock from that
 * answer's `Date` header. Undefined reachability ends the other checks.
 */
export async function checkReachable(
  http: HttpClient,
  nowMs: () => number,
): Promise<{ reachable: Finding; clock: Finding | undefined }> {
  const sentAt = nowMs();
  try {
    const response = await http.request({ method: 'GET', path: '/', headers: { accept: 'application/json' } });
    const midpoint = (sentAt + nowMs()) / 2;
    const reachable: Finding = {
      check: `GET ${http.baseUrl.origin}`,
      result: 'ok',
      status: response.status,
      detail: 'reachable (any answer will do)',
    };
    const dateHeader = response.headers.date;
    const platformMs = Date.parse(Array.isArray(dateHeader) ? (dateHeader[0] ?? '') : (dateHeader ?? ''));
    return { reachable, clock: Number.isFinite(platformMs) ? clockFinding(platformMs - midpoint) : noDateHeader() };
  } catch (error) {
    return {
      reachable: {
        check: `GET ${http.baseUrl.origin}`,
        result: 'fail',
        detail: (error as Error).message,
        setting: 'baseUrl',
        exitCode: ExitCode.unavailable,
      },
      clock: undefined,
    };
  }
}

/** The `Date` header has a resolution of one second, so skews below two are noise. */
export function clockFinding(skewMs: number): Finding {
  const seconds = Math.round(skewMs / 1000);
  const words =
    Math.abs(seconds) < 2
      ? 'in step with this machine'
      : `${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} this machine`;
  const off = Math.abs(skewMs);
  if (off < warnSkewMs) return { check: 'clock', result: 'ok', detail: `platform clock ${words}` };
  return {
    check: 'clock',
    result: off >= failSkewMs ? 'fail' : 'warn',
    detail: `platform clock ${words}: token expiry and order time windows will be off; set this machine's clock by NTP (or ask the platform's operator)`,
    exitCode: off >= failSkewMs ? ExitCode.someRecordsFailed : undefined,
  };
}

function noDateHeader(): Finding {
  return { check: 'clock', result: 'skip', detail: 'the answer had no Date header' };
}
