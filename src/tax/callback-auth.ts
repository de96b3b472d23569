import type { FastifyError, FastifyInstance } from 'fastify';
import {
  attemptFingerprint,
  failureKeys,
  FailureLimiter,
  type FailureLimitOptions,
  FailureLog,
} from '../http-server/failure-limit.js';
import { decodedBody } from '../http-server/content-coding.js';
import { secretCheck } from '../http-server/same-secret.js';
import {
  answerTokenRequest,
  defaultTokenFailureLimit,
  tokenRequestLimit,
  tooLargeDescription,
} from '../http-server/token-endpoint.js';
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
  /**
   * Wrong client credentials (at the token endpoint) or wrong fixed bearer or Basic credentials allowed per client
   * address before 429 (default: 10 a minute); its window is also the one a refused token is logged once in.
   */
  tokenFailureLimit?: FailureLimitOptions;
  log: { warn(line: string): void };
}

/** The answer to a request the callback's credential refuses: 401 with its challenge, or 429 past the failures. */
export interface CallbackRefusal {
  status: 401 | 429;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /**
   * Logs the refusal once its client is known, where the check could not (the callback's own route reads the
   * address only for a refusal: never on the way of an admitted cart).
   */
  report?(clientAddress: string): void;
}

/**
 * A check of the callback's credential from its Authorization header and the client's address (unknown to the
 * callback's own route, which leaves to fastify's every request it does not admit): the refusal, or undefined.
 */
export type CallbackCheck = (authorization: string | undefined, clientAddress?: string) => CallbackRefusal | undefined;

/** The check, and what the callback's own route, which knows no client address, leaves to fastify's. */
export interface CallbackGuard {
  check: CallbackCheck;
  /** Wrong credentials are counted per client address: a refusal is answered where the address is known. */
  countsByAddress: boolean;
  /** Whether some address is now refused whatever it sends. */
  refusingSome(): boolean;
}

/** Adds the token endpoint when the style asks for one, and returns the guard of the callback's credential. */
export function guardCallback(app: FastifyInstance, auth: TaxAuth, options: TaxAuthOptions): CallbackGuard {
  if (auth.kind !== 'token') return fixedCredentialGuard(auth, options);
  // Tokens live in this process: after a restart the platform's next call is refused 401 and it asks again.
  const tokens = new TokenIssuer(auth.clientId, auth.clientSecret, auth.ttlSeconds, options.now);
  const limit = options.tokenFailureLimit ?? defaultTokenFailureLimit;
  const log = (line: string) => options.log.warn(`tax serve: ${line}`);
  const endpoint = {
    tokens,
    failures: new FailureLimiter(limit, options.now),
    failureLog: new FailureLog(log, limit.windowMs, 'Token requests', options.now),
  };
  // The token route alone reads forms (the client-credentials style); the callback takes JSON only.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    // A compressed token request (Content-Encoding gzip, deflate, br, zstd) is decoded as the webhook receiver's
    // token endpoint decodes it, the 64 KB limit counting the decoded bytes; another coding is refused 415 naming it.
    scope.addHook('preParsing', async (request, _reply, payload) =>
      request.method === 'POST' ? decodedBody(request.raw, request.routeOptions.bodyLimit) : payload,
    );
    // A POST marked JSON with no body at all (clients that mark every POST so) is the header style's request, which
    // carries nothing in its body: read as no body, as the webhook receiver reads it, not refused as bad JSON.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      if (body === '') return done(null, undefined);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        // JSON.parse's words quote the body's first bytes, which may be a credential (or bytes of another coding).
        done(Object.assign(new Error('The token request is not valid JSON'), { statusCode: 400 }));
      }
    });
    // Every refusal of this route in the token endpoint's shape (RFC 6749 §5.2, `error` and `error_description`),
    // as the webhook receiver's token route says it, never in fastify's words nor the callback's shape.
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return reply
          .code(413)
          .send({ error: 'payload_too_large', error_description: tooLargeDescription('tax serve') });
      if (status >= 500) return reply.code(500).send({ error: 'server_error', error_description: 'Internal error' });
      const code = status === 415 ? 'unsupported_media_type' : 'invalid_request';
      return reply.code(status).send({ error: code, error_description: error.message });
    });
    scope.post(auth.tokenPath, { bodyLimit: tokenRequestLimit }, async (request, reply) =>
      answerTokenRequest(request, reply, endpoint),
    );
  });
  // Guessing is limited at the token endpoint; a token is 54 random characters: refusals are only counted, for
  // the log (one line per address and window), never locked out, so no count here ever reaches a limit.
  const refusals = new FailureLimiter({ ...limit, limit: Number.POSITIVE_INFINITY }, options.now);
  const refusalLog = new FailureLog(log, limit.windowMs, 'Callbacks', options.now);
  const check: CallbackCheck = (authorization) => {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const verdict = match?.[1] === undefined ? 'missing' : tokens.check(match[1]);
    if (verdict === 'valid') return undefined;
    const description =
      verdict === 'missing' ? 'Bearer token missing' : verdict === 'expired' ? 'Token expired' : 'Token unknown';
    return {
      status: 401,
      headers: { 'www-authenticate': 'Bearer error="invalid_token"' },
      body: { error: 'invalid_token', error_description: description },
      report: (clientAddress) => {
        refusalLog.failed(
          refusals.fail(failureKeys(clientAddress)),
          clientAddress,
          `Callback refused: wrong credential (token: ${description})`,
        );
      },
    };
  };
  return { check, countsByAddress: false, refusingSome: () => false };
}

/**
 * A fixed bearer token or Basic credential, sent with every callback: wrong ones are counted per client address
 * with the token endpoint's limiter and log lines, and past the limit the address is answered 429, the right
 * credential included, until its window ends. Not per user: a fixed credential's lock would shut out the platform.
 */
function fixedCredentialGuard(auth: Exclude<TaxAuth, { kind: 'token' }>, options: TaxAuthOptions): CallbackGuard {
  if (auth.kind === 'none') return { check: () => undefined, countsByAddress: false, refusingSome: () => false };
  const matches = fixedCredentialCheck(auth);
  const refusal: CallbackRefusal = {
    status: 401,
    headers: { 'www-authenticate': auth.kind === 'basic' ? 'Basic realm="b2bctl tax"' : 'Bearer' },
    body: { error: 'unauthorized', message: 'The callback needs its credential.' },
  };
  const limit = options.tokenFailureLimit ?? defaultTokenFailureLimit;
  const failures = new FailureLimiter(limit, options.now);
  const failureLog = new FailureLog(
    (line) => options.log.warn(`tax serve: ${line}`),
    limit.windowMs,
    'Callbacks',
    options.now,
  );
  const check: CallbackCheck = (authorization, clientAddress) => {
    if (clientAddress === undefined) return matches(authorization ?? '') ? undefined : refusal;
    const keys = failureKeys(clientAddress);
    const waitMs = failures.waitFor(keys);
    if (waitMs > 0) {
      const seconds = String(Math.ceil(waitMs / 1000));
      return {
        status: 429,
        headers: { 'retry-after': seconds },
        body: { error: 'too_many_requests', message: `Too many wrong credentials; try again in ${seconds} s.` },
      };
    }
    if (matches(authorization ?? '')) return undefined;
    failureLog.failed(
      failures.fail(keys, attemptFingerprint(authorization ?? '')),
      clientAddress,
      `Callback refused: wrong credential (${auth.kind})`,
    );
    return refusal;
  };
  return { check, countsByAddress: true, refusingSome: () => failures.refusingSome() };
}

/** The check of a fixed credential's header, each secret's digest taken once (the callback checks every request). */
function fixedCredentialCheck(auth: Extract<TaxAuth, { kind: 'bearer' | 'basic' }>): (header: string) => boolean {
  switch (auth.kind) {
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
