import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FailureLimiter, type FailureLimitOptions } from '../http-server/failure-limit.js';
import { sameSecret } from '../http-server/same-secret.js';
import { answerTokenRequest, defaultTokenFailureLimit } from '../http-server/token-endpoint.js';
import { TokenIssuer } from '../http-server/tokens.js';

/**
 * How the platform proves it is the platform: a token from the receiver's token endpoint (its three request styles),
 * or a fixed bearer token or Basic credential; every secret compared in constant time.
 */
export type TaxAuth =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; user: string; password: string }
  | { kind: 'token'; clientId: string; clientSecret: string; ttlSeconds: number; tokenPath: string };

export interface TaxAuthOptions {
  now?: () => number;
  /** Wrong client credentials allowed per client address and per client id before 429 (default: 10 a minute). */
  tokenFailureLimit?: FailureLimitOptions;
  log: { warn(line: string): void };
}

/** A check of the callback's credential: `refused` when it answered 401 on the reply. */
export type CallbackGuard = (request: FastifyRequest, reply: FastifyReply) => 'admitted' | 'refused';

/** Adds the token endpoint when the style asks for one, and returns the check of the callback's credential. */
export function guardCallback(app: FastifyInstance, auth: TaxAuth, options: TaxAuthOptions): CallbackGuard {
  if (auth.kind !== 'token') {
    return (request, reply) => {
      if (fixedCredentialMatches(request.headers.authorization ?? '', auth)) return 'admitted';
      void reply
        .code(401)
        .header('www-authenticate', auth.kind === 'basic' ? 'Basic realm="b2bctl tax"' : 'Bearer')
        .send({ error: 'unauthorized', message: 'The callback needs its credential.' });
      return 'refused';
    };
  }
  // Tokens live in this process: after a restart the platform's next call is refused 401 and it asks again.
  const tokens = new TokenIssuer(auth.clientId, auth.clientSecret, auth.ttlSeconds, options.now);
  const limit = options.tokenFailureLimit ?? defaultTokenFailureLimit;
  const endpoint = {
    tokens,
    failures: new FailureLimiter(limit, options.now),
    failureWindowMs: limit.windowMs,
    log: (line: string) => options.log.warn(`tax serve: ${line}`),
  };
  // The token route alone reads forms (the client-credentials style); the callback takes JSON only.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.post(auth.tokenPath, { bodyLimit: 64 * 1024 }, async (request, reply) =>
      answerTokenRequest(request, reply, endpoint),
    );
  });
  return (request, reply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const verdict = match?.[1] === undefined ? 'missing' : tokens.check(match[1]);
    if (verdict === 'valid') return 'admitted';
    const description =
      verdict === 'missing' ? 'Bearer token missing' : verdict === 'expired' ? 'Token expired' : 'Token unknown';
    void reply
      .code(401)
      .header('www-authenticate', 'Bearer error="invalid_token"')
      .send({ error: 'invalid_token', error_description: description });
    return 'refused';
  };
}

function fixedCredentialMatches(header: string, auth: Exclude<TaxAuth, { kind: 'token' }>): boolean {
  switch (auth.kind) {
    case 'none':
      return true;
    case 'bearer': {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      return sameSecret(match?.[1] ?? '', auth.token);
    }
    case 'basic': {
      const match = /^Basic\s+(\S+)$/i.exec(header);
      const [user = '', ...password] = Buffer.from(match?.[1] ?? '', 'base64')
        .toString('utf8')
        .split(':');
      // Both compared, always: which one was wrong is not told by the time taken.
      const sameUser = sameSecret(user, auth.user);
      return sameSecret(password.join(':'), auth.password) && sameUser;
    }
  }
}
