import { candidatePaths, firstAt, isNonEmptyText } from './shapes.js';

/**
 * The token route's answer. The document shows neither its path nor its body; OAuth 2.0 says
 * `{"access_token","expires_in"}`, other platforms say `accessToken`/`token` and `expiresIn`, some
 * nest them under `data`. Absent lifetime means the document's 12 hours.
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

export interface TokenAnswer {
  accessToken: string;
  /** Undefined when the answer does not say: the caller uses the document's 12 hours. */
  expiresInSeconds: number | undefined;
}

export interface TokenAnswerSettings {
  accessToken?: string;
  expiresIn?: string;
}

/** The token and its lifetime in an answer, or undefined when no recognised field holds a token. */
export function readTokenAnswer(body: unknown, settings: TokenAnswerSettings = {}): TokenAnswer | undefined {
  // A bare token as the whole body (text/plain), as some gateways answer.
  if (typeof body === 'string') {
    const bare = body.trim().replace(/^"|"$/g, '');
    return /^[\w.~+/=-]{16,}$/.test(bare) ? { accessToken: bare, expiresInSeconds: undefined } : undefined;
  }
  const token = firstAt(body, candidatePaths(settings.accessToken, recognisedTokenPaths), isNonEmptyText);
  if (!token) return undefined;
  const lifetime = firstAt(body, candidatePaths(settings.expiresIn, recognisedLifetimePaths), isPositiveSeconds);
  return { accessToken: token.value, expiresInSeconds: lifetime ? Number(lifetime.value) : undefined };
}

function isPositiveSeconds(value: unknown): value is number | string {
  // A number of seconds, also as text; an ISO date is not a lifetime and falls back to 12 hours.
  const seconds = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0;
}

/** Where an answer holds the token and its lifetime, for `b2bctl doctor`'s table. */
export function locateTokenAnswer(
  body: unknown,
  settings: TokenAnswerSettings = {},
): { tokenPath: string | undefined; lifetimePath: string | undefined } {
  if (typeof body === 'string')
    return { tokenPath: readTokenAnswer(body) ? '(the whole body)' : undefined, lifetimePath: undefined };
  return {
    tokenPath: firstAt(body, candidatePaths(settings.accessToken, recognisedTokenPaths), isNonEmptyText)?.path,
    lifetimePath: firstAt(body, candidatePaths(settings.expiresIn, recognisedLifetimePaths), isPositiveSeconds)?.path,
  };
}
