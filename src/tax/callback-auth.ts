import type { FastifyInstance } from 'fastify';
import { FailureLimiter, type FailureLimitOptions } from '../http-server/failure-limit.js';
import { secretCheck } from '../http-server/same-secret.js';
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

/** The 401 answer to a request without the callback's credential: its challenge and its body. */
export interface CallbackRefusal {
  challenge: string;
  body: Record<string, unknown>;
}

/** A check of the callback's credential from its Authorization header: the refusal, or undefined when admitted. */
export type CallbackCheck = (authorization: string | undefined) => CallbackRefusal | undefined;

/** Adds the token endpoint when the style asks for one, and returns the check of the callback's credential. */
export function guardCallback(app: FastifyInstance, auth: TaxAuth, options: TaxAuthOptions): CallbackCheck {
  if (auth.kind !== 'token') {
    const matches = fixedCredentialCheck(auth);
    const refusal: CallbackRefusal = {
      challenge: auth.kind === 'basic' ? 'Basic realm="b2bctl tax"' : 'Bearer',
      body: { error: 'unauthorized', message: 'The callback needs its credential.' },
    };
    return (authorization) => (matches(authorization ?? '') ? undefined : refusal);
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
  return (authorization) => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const verdict = match?.[1] === undefined ? 'missing' : tokens.check(match[1]);
    if (verdict === 'valid') return undefined;
    const description =
      verdict === 'missing' ? 'Bearer token missing' : verdict === 'expired' ? 'Token expired' : 'Token unknown';
    return {
      challenge: 'Bearer error="invalid_token"',
      body: { error: 'invalid_token', error_description: description },
    };
  };
}

/** The check of a fixed credential's header, each secret's digest taken once (the callback checks every request). */
function fixedCredentialCheck(auth: Exclude<TaxAuth, { kind: 'token' }>): (header: string) => boolean {
  switch (auth.kind) {
    case 'none':
      return () => true;
    case 'bearer': {
      const sameToken = secretCheck(auth.token);
      return (header) => sameToken(/^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '');
    }
    case 'basic': {
      const sameUser = secretCheck(auth.user);
      const samePassword = secretCheck(auth.password);
      return (header) => {
        const match = /^Basic\s+(\S+)$/i.exec(header);
        const [user = '', ...password] = Buffer.from(match?.[1] ?? '', 'base64')
          .toString('utf8')
          .split(':');
        // Both compared, always: which one was wrong is not told by the time taken.
        const userMatches = sameUser(user);
        return samePassword(password.join(':')) && userMatches;
      };
    }
  }
}
