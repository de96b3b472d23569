import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  attemptFingerprint,
  failureKeys,
  type FailureLimiter,
  type FailureLimitOptions,
  type FailureLog,
} from './failure-limit.js';
import { credentialsOfTokenRequest, type TokenIssuer } from './tokens.js';

/**
 * Wrong credentials allowed per client address before 429: 10 a minute. Enough for a platform whose secret was just
 * changed to retry; a guesser gets 14,400 tries a day at most.
 */
export const defaultTokenFailureLimit: FailureLimitOptions = { limit: 10, windowMs: 60_000 };

/** The largest token request read: a form or JSON of two credentials, never near it. */
export const tokenRequestLimit = 64 * 1024;

/**
 * What a server says of a request past its body limit, in b2bctl's words (fastify's, "Request body is too large",
 * name no limit): the token request's, and the webhook receiver's events (`what`, and `flag` that sets the limit).
 */
export function tooLargeDescription(server: string, limit = tokenRequestLimit, what = 'request', flag = ''): string {
  return `The ${what} is larger than ${limit} bytes, the most ${server} reads${flag === '' ? '' : ` (${flag})`}`;
}

/** What the token endpoint needs beside the request: the issuer, the failure limits, the log. */
export interface TokenEndpoint {
  tokens: TokenIssuer;
  /** Wrong credentials counted per client address (429 past the limit). */
  failures: FailureLimiter;
  /** The log lines about wrong credentials (FailureLog). */
  failureLog: FailureLog;
  onIssued?: (token: string) => Promise<void> | undefined;
}

/**
 * The token endpoint of the servers the platform calls (the webhook receiver, `tax serve`): the platform's three styles, and for Basic what RFC 6749 asks of a token
 * endpoint (§5.1 no caching, §5.2 error codes and the Basic challenge on a refused client).
 */
export async function answerTokenRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  endpoint: TokenEndpoint,
): Promise<unknown> {
  const { tokens, failures } = endpoint;
  // A token, or an error about credentials, is never to be kept by a cache on the way (§5.1).
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  const body = isJsonBody(request.body) ? request.body.value : request.body;
  const verdict = credentialsOfTokenRequest({
    headers: request.headers,
    query: request.query as Record<string, unknown>,
    body,
  });
  if ('problem' in verdict) return reply.code(400).send({ error: verdict.error, error_description: verdict.problem });
  // Per address only (an IPv6 one by its /64): the client id is no secret, and a lock on it would let anyone shut
  // the platform out (docs/decisions/0032-token-guessing-limited-per-address.md, 0034).
  const keys = failureKeys(request.ip);
  // Refused before the credentials are compared: an address past its failures learns nothing more.
  const waitMs = failures.waitFor(keys);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    return reply
      .code(429)
      .header('retry-after', String(seconds))
      .send({
        error: 'too_many_requests',
        error_description: `Too many failed token requests; try again in ${seconds} s`,
      });
  }
  const accepted =
    tokens.accepts(verdict.clientId, verdict.clientSecret) ||
    (verdict.formDecoded !== undefined &&
      tokens.accepts(verdict.formDecoded.clientId, verdict.formDecoded.clientSecret));
  if (!accepted) {
    endpoint.failureLog.failed(
      failures.fail(keys, attemptFingerprint(verdict.clientId, verdict.clientSecret)),
      request.ip,
      `Token refused: wrong client credentials (${verdict.style} style)`,
    );
    if (verdict.style === 'basic') reply.header('www-authenticate', 'Basic realm="b2bctl"');
    return reply.code(401).send({ error: 'invalid_client', error_description: 'Client authentication failed' });
  }
  const token = tokens.issue();
  await endpoint.onIssued?.(token);
  return { access_token: token, token_type: 'Bearer', expires_in: tokens.ttlSeconds };
}

function isJsonBody(body: unknown): body is { raw: string; value: unknown } {
  return body !== null && typeof body === 'object' && 'raw' in body && 'value' in body;
}
