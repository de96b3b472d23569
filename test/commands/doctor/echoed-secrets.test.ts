/**
 * doctor against a platform (and a proxy) whose refusal quotes the credentials it was sent (a user test): the bearer
 * token as is and as PHP escapes it, the proxy's password and its `Proxy-Authorization: Basic` value. Every other
 * command masks them in what it quotes; doctor's findings and its closing error line mask them alike.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCommandLine } from '../../support/command-line.js';
import { removeTemporaryFolders, temporaryFolder } from '../../support/temporary.js';

const token = 'AbCdEfGh/IjKlMnOp+QrStUvWx/YzTOKSECRET1234567890';
const proxyPassword = 'Pr0xyPass';
const proxyBasic = Buffer.from(`svc:${proxyPassword}`).toString('base64');

let server: ReturnType<typeof createServer>;
let port: number;
/** The last Proxy-Authorization seen, on a CONNECT or on a request in absolute form. */
let proxyAuthorization = '';

/** The platform: the sellers listing refuses, quoting the token and the proxy's credentials; the rest is an empty 200. */
function answer(request: IncomingMessage, response: ServerResponse): void {
  proxyAuthorization = request.headers['proxy-authorization'] ?? proxyAuthorization;
  if (!request.url?.includes('listSellers')) {
    response.writeHead(200, { 'content-type': 'application/json', date: new Date().toUTCString() }).end('{}');
    return;
  }
  const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
  const proxy = proxyAuthorization ? `; proxy ${proxyAuthorization} password '${proxyPassword}' refused` : '';
  // Written by hand: the token's `/` as PHP escapes it (`\/`), once.
  const body = `{"message":"token ${bearer} plain, php ${bearer.replaceAll('/', '\\/')}${proxy}"}`;
  response.writeHead(400, { 'content-type': 'application/json' }).end(body);
}

beforeAll(async () => {
  server = createServer(answer);
  // As a proxy: a tunnel to this same server, after reading the credentials.
  server.on('connect', (request: IncomingMessage, socket) => {
    proxyAuthorization = request.headers['proxy-authorization'] ?? '';
    const upstream = connect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  removeTemporaryFolders();
});

it.each([
  ['without a proxy', {}, /php \[redacted\]"}$/],
  [
    'through a proxy with a password',
    { HTTP_PROXY: `http://svc:${proxyPassword}@127.0.0.1:PORT` },
    /proxy Basic \[redacted\] password '\[redacted\]' refused"}$/,
  ],
])(
  'doctor %s: a refusal quoting the token and the proxy credentials is masked in JSON and the error line',
  async (_case, proxy: Record<string, string>, quotedEnd: RegExp) => {
    const env = Object.fromEntries(
      Object.entries(proxy).map(([name, value]) => [name, value.replace('PORT', `${port}`)]),
    );
    const result = await runCommandLine(['doctor', '-o', 'json', '--base-url', `http://127.0.0.1:${port}`], {
      configDir: temporaryFolder(),
      env: { ...env, B2BCTL_TOKEN: token },
    });
    const findings = JSON.parse(result.stdout) as { check: string; result: string; status?: number; detail: string }[];
    const listing = findings.find((finding) => finding.check.startsWith('GET /sellerModule/listSellers'));
    expect(listing).toMatchObject({ result: 'fail', status: 400 });
    expect(listing?.detail).toContain('token [redacted] plain, php [redacted]');
    expect(result.stderr).toContain('GET /sellerModule/listSellers?limit=1: answered 400:');
    expect(result.stderr).toContain('token [redacted] plain');
    expect(listing?.detail).toMatch(quotedEnd);
    for (const secret of [token, token.replaceAll('/', '\\/'), proxyPassword, proxyBasic]) {
      expect(result.stdout).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
  },
);
