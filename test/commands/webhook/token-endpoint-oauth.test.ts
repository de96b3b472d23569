/**
 * The receiver's token endpoint driven by a maintained OAuth 2.0 client library (oauth4webapi), not by our own
 * requests: client_secret_basic with RFC 6749 §2.3.1 encoding, §5.1 caching headers, and the §5.2 errors.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeReceiverFolders, startTestReceiver, type TestReceiver } from '../../support/webhook-receiver.js';

const clientId = 'erp client';
const clientSecret = 's3cr3t-Ação:%/+=';

describe('token endpoint under an OAuth 2.0 client library', () => {
  let receiver: TestReceiver;
  const logged: string[] = [];
  let server: oauth.AuthorizationServer;
  beforeAll(async () => {
    receiver = await startTestReceiver({ clientId, clientSecret, log: (line) => logged.push(line) });
    server = { issuer: receiver.url, token_endpoint: `${receiver.url}/oauth/token` };
  });
  afterAll(async () => {
    await receiver.close();
    removeReceiverFolders();
  });

  const grant = (secret: string, parameters: Record<string, string> = {}) =>
    oauth.clientCredentialsGrantRequest(
      server,
      { client_id: clientId },
      oauth.ClientSecretBasic(secret),
      new URLSearchParams(parameters),
      { [oauth.allowInsecureRequests]: true },
    );

  it('client_secret_basic with form-encoded credentials: a Bearer token, never cached', async () => {
    const response = await grant(clientSecret);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const token = await oauth.processClientCredentialsResponse(server, { client_id: clientId }, response);
    expect(token.token_type).toBe('bearer');
    expect(receiver.receiver.tokens.check(token.access_token)).toBe('valid');
  });

  it('a wrong secret: 401 invalid_client with the Basic challenge, logged with the sender address', async () => {
    const response = await grant('not-the-secret');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="b2bctl"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(((await response.clone().json()) as { error: string }).error).toBe('invalid_client');
    // The library reads the challenge as RFC 7235 defines it: scheme basic, realm b2bctl.
    const failure = await oauth
      .processClientCredentialsResponse(server, { client_id: clientId }, response)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((failure as oauth.WWWAuthenticateChallengeError).cause).toEqual([
      expect.objectContaining({ scheme: 'basic', parameters: { realm: 'b2bctl' } }),
    ]);
    expect(logged.at(-1)).toBe(
      'Token refused: wrong client credentials (basic style) from 127.0.0.1; further failures from 127.0.0.1 in the next 60 s are counted, not logged.',
    );
  });

  it('the wrong grant: 400 unsupported_grant_type', async () => {
    const response = await oauth.refreshTokenGrantRequest(
      server,
      { client_id: clientId },
      oauth.ClientSecretBasic(clientSecret),
      'a-refresh-token',
      { [oauth.allowInsecureRequests]: true },
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('unsupported_grant_type');
  });

  it('no grant_type at all: 400 invalid_request', async () => {
    const response = await fetch(server.token_endpoint as string, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: '',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('the platform style, the same pair as it is, still works', async () => {
    const response = await fetch(server.token_endpoint as string, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(200);
  });
});
