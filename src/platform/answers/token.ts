import { bearerTokenText } from '../../domain/bearer-token.js';
import type { StatedTokenExpiry } from '../../domain/token-expiry.js';
import { candidatePaths, firstAt, instantMs, isInstant, isNonEmptyText } from './shapes.js';

/**
 * The token route's answer. The document shows neither its path nor its body; OAuth 2.0 says
 * `{"access_token","expires_in"}`, other platforms say `accessToken`/`token` and `expiresIn`, some
 * nest them under `data`, some state the instant it expires (`expires_at`). Absent both, the document's 12 hours;
 * how a stated lifetime or instant is believed is src/domain/token-expiry.ts's.
 */

export const recognisedTokenPaths = [
  'access_token',
  'accessToken',
  'token',
  'jwt',
  'id_token',
  'data.access_token',
  'data.accessToken',
  'data.token',
  'result.token',
] as const;
export const recognisedLifetimePaths = [
  'expires_in',
  'expiresIn',
  'expires',
  'data.expires_in',
  'data.expiresIn',
  'result.expiresIn',
] as const;
export const recognisedExpiryPaths = [
  'expires_at',
  'expiresAt',
  'expiration',
  'expiry',
  'expires_on',
  'expiresOn',
  'data.expires_at',
  'data.expiresAt',
  'result.expiresAt',
] as const;

/** The token, and what the answer says of its end (neither said: the caller uses the document's 12 hours). */
export interface TokenAnswer extends StatedTokenExpiry {
  accessToken: string;
}

export interface TokenAnswerSettings {
  accessToken?: string;
  expiresIn?: string;
  expiresAt?: string;
}

/** The token and its lifetime in an answer, or undefined when no recognised field holds a token. */
export function readTokenAnswer(body: unknown, settings: TokenAnswerSettings = {}): TokenAnswer | undefined {
  // A bare token as the whole body (text/plain), as some gateways answer.
  if (typeof body === 'string') {
    const bare = bearerTokenText(body).replace(/^"|"$/g, '');
    return /^[\w.~+/=-]{16,}$/.test(bare) ? { accessToken: bare } : undefined;
  }
  const token = firstAt(body, candidatePaths(settings.accessToken, recognisedTokenPaths), isNonEmptyText);
  if (!token) return undefined;
  const lifetime = firstAt(body, candidatePaths(settings.expiresIn, recognisedLifetimePaths), isPositiveSeconds);
  const expiresAt = firstAt(body, candidatePaths(settings.expiresAt, recognisedExpiryPaths), isExpiryInstant);
  return {
    accessToken: bearerTokenText(token.value),
    ...(lifetime && { lifetime: { path: lifetime.path, value: Number(lifetime.value) } }),
    ...(expiresAt && {
      expiresAt: { path: expiresAt.path, written: expiresAt.value, ms: instantMs(expiresAt.value) },
    }),
  };
}

function isExpiryInstant(value: unknown): value is string | number {
  // An epoch from 10^9 seconds on (2001): a smaller number in such a field is no instant of a token issued now.
  return isInstant(value) && (typeof value === 'string' || value >= 1e9);
}

function isPositiveSeconds(value: unknown): value is number | string {
  // A number of seconds (or milliseconds, src/domain/token-expiry.ts), also as text; an ISO date is no lifetime.
  const seconds = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0;
}

/** Where an answer holds the token, its lifetime and its expiry instant, for `b2bctl doctor`'s table. */
export function locateTokenAnswer(
  body: unknown,
  settings: TokenAnswerSettings = {},
): { tokenPath: string | undefined; lifetimePath: string | undefined; expiryPath: string | undefined } {
  if (typeof body === 'string')
    return {
      tokenPath: readTokenAnswer(body) ? '(the whole body)' : undefined,
      lifetimePath: undefined,
      expiryPath: undefined,
    };
  return {
    tokenPath: firstAt(body, candidatePaths(settings.accessToken, recognisedTokenPaths), isNonEmptyText)?.path,
    lifetimePath: firstAt(body, candidatePaths(settings.expiresIn, recognisedLifetimePaths), isPositiveSeconds)?.path,
    expiryPath: firstAt(body, candidatePaths(settings.expiresAt, recognisedExpiryPaths), isExpiryInstant)?.path,
  };
}
