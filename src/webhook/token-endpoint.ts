import type { FastifyReply, FastifyRequest } from 'fastify';
import { credentialsOfTokenRequest, type TokenIssuer } from './tokens.js';

/**
 * The receiver's token endpoint: the platform's three styles, and for Basic what RFC 6749 asks of a token
 * endpoint (§5.1 no caching, §5.2 error codes and the Basic challenge on a refused client).
 */
export async function answerTokenRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: TokenIssuer,
  log: ((message: string) => void) | undefined,
  onIssued?: (token: string) => Promise<void> | undefined,
): Promise<unknown> {
  // A token, or an error about credentials, is never to be kept by a cache on the way (§5.1).
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  const body = isJsonBody(request.body) ? request.body.value : request.body;
  const verdict = credentialsOfTokenRequest({
    headers: request.headers,
    query: request.query as Record<string, unknown>,
    body,
  });
  if ('problem' in verdict) return reply.code(400).send({ error: verdict.error, error_description: verdict.problem });
  const accepted =
    tokens.accepts(verdict.clientId, verdict.clientSecret) ||
    (verdict.formDecoded !== undefined &&
      tokens.accepts(verdict.formDecoded.clientId, verdict.formDecoded.clientSecret));
  if (!accepted) {
    log?.(`Token refused: wrong client credentials (${verdict.style} style) from ${request.ip}.`);
    if (verdict.style === 'basic') reply.header('www-authenticate', 'Basic realm="b2bctl"');
    return reply.code(401).send({ error: 'invalid_client', error_description: 'Client authentication failed' });
  }
  const token = tokens.issue();
  await onIssued?.(token);
  return { access_token: token, token_type: 'Bearer', expires_in: tokens.ttlSeconds };
}

function isJsonBody(body: unknown): body is { raw: string; value: unknown } {
  return body !== null && typeof body === 'object' && 'raw' in body && 'value' in body;
}
