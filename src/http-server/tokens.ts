import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { formDecode, headerText } from '../lib/http-text.js';
import { sameSecret } from './same-secret.js';

/** The three token request styles the platform uses (docs/platform.md, "What the document shows"). */
export type TokenStyle = 'basic' | 'body' | 'headers';
export const tokenStyles: readonly TokenStyle[] = ['basic', 'body', 'headers'];

export interface TokenRequestParts {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: Readonly<Record<string, unknown>>;
  /** The parsed body: a form's fields or a JSON value; undefined when there was none. */
  body: unknown;
}

export type CredentialsVerdict =
  | {
      style: TokenStyle;
      clientId: string;
      clientSecret: string;
      /** Basic only: the pair form-decoded (RFC 6749 §2.3.1), when that differs from the pair as sent. */
      formDecoded?: { clientId: string; clientSecret: string };
    }
  | { problem: string; error: 'invalid_request' | 'unsupported_grant_type'; style?: TokenStyle };

/** Which style a token request uses and the credentials it carries, or what is wrong with it. */
export function credentialsOfTokenRequest(request: TokenRequestParts): CredentialsVerdict {
  const body =
    request.body !== null && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
  const basic = /^Basic\s+(\S+)$/i.exec(headerText(request.headers.authorization) ?? '');
  if (basic?.[1]) return basicCredentials(basic[1], body.grant_type);
  if (typeof body.clientId === 'string' && typeof body.clientSecret === 'string') {
    return { style: 'body', clientId: body.clientId, clientSecret: body.clientSecret };
  }
  const username = headerText(request.headers.username);
  const password = headerText(request.headers.password);
  if (username !== undefined && password !== undefined) {
    if (request.query.grant_type !== 'password') {
      return {
        error: 'unsupported_grant_type',
        problem: 'username/password headers need the query parameter grant_type=password',
      };
    }
    return { style: 'headers', clientId: username, clientSecret: password };
  }
  return {
    error: 'invalid_request',
    problem:
      'Send Basic credentials with grant_type=client_credentials, a JSON body with clientId and clientSecret, or username/password headers with ?grant_type=password',
  };
}

/**
 * The Basic style. RFC 6749 §2.3.1 form-encodes the id and the secret before base64 (`%`, `+`, `:` escaped), while
 * the platform sends them as they are: both readings are kept, and the receiver accepts either.
 */
function basicCredentials(encoded: string, grantType: unknown): CredentialsVerdict {
  if (grantType === undefined || grantType === '')
    return {
      style: 'basic',
      error: 'invalid_request',
      problem: 'grant_type is missing: send grant_type=client_credentials',
    };
  if (grantType !== 'client_credentials')
    return {
      style: 'basic',
      error: 'unsupported_grant_type',
      problem: 'Basic credentials need the form field grant_type=client_credentials',
    };
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    return {
      style: 'basic',
      error: 'invalid_request',
      problem: 'Basic credentials must be base64 of clientId:clientSecret',
    };
  const clientId = decoded.slice(0, colon);
  const clientSecret = decoded.slice(colon + 1);
  const formDecoded = { clientId: formDecode(clientId), clientSecret: formDecode(clientSecret) };
  const differs = formDecoded.clientId !== clientId || formDecoded.clientSecret !== clientSecret;
  return { style: 'basic', clientId, clientSecret, ...(differs ? { formDecoded } : {}) };
}

/** What a store keeps of a token: never the token itself. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What a presented token is; `unknown` covers forged ones, signed by another key or by none. */
export type TokenVerdict = 'valid' | 'expired' | 'unknown';

/**
 * Access tokens: random, signed with a key (the receiver keeps its key in its store: webhook/token-keys.ts), each
 * expiring after the configured lifetime. Those issued or looked up here are held in memory; a token signed with
 * the key but unknown here (issued before a restart, or by another receiver of a shared store) is looked up in the
 * store once; one not signed with it is refused without any lookup, so a flood of guessed tokens costs nothing.
 */
export class TokenIssuer {
  private readonly expiryByToken = new Map<string, number>();
  private readonly unknownUntil = new Map<string, number>();

  private readonly clientId: string;
  private readonly clientSecret: string;
  readonly ttlSeconds: number;
  private readonly now: () => number;
  private readonly signingKey: Buffer;
  constructor(
    clientId: string,
    clientSecret: string,
    ttlSeconds: number,
    now: () => number = Date.now,
    signingKey: Buffer = randomBytes(32),
  ) {
    this.clientId = clientId;
    this.clientSecret = clientSecret;
    this.ttlSeconds = ttlSeconds;
    this.now = now;
    this.signingKey = signingKey;
  }

  /** Whether the credentials are this receiver's; both parts compared in constant time. */
  accepts(clientId: string, clientSecret: string): boolean {
    // Both comparisons always run, so the timing does not tell which part was wrong.
    const idMatches = sameSecret(clientId, this.clientId);
    const secretMatches = sameSecret(clientSecret, this.clientSecret);
    return idMatches && secretMatches;
  }

  issue(): string {
    const token = signedToken(this.signingKey);
    this.keep(token, this.now() + this.ttlSeconds * 1000);
    return token;
  }

  /** The verdict from memory alone: `unsigned` for a token the store's key did not sign. */
  check(token: string): TokenVerdict | 'unsigned' {
    const expiresAt = this.expiryByToken.get(token);
    if (expiresAt === undefined) return isSignedWith(this.signingKey, token) ? 'unknown' : 'unsigned';
    const now = this.now();
    if (now < expiresAt) return 'valid';
    // A client retrying an expired token is told it expired, not that it is unknown, for one lifetime more.
    if (now < this.forgottenAt(expiresAt)) return 'expired';
    this.expiryByToken.delete(token);
    return 'unknown';
  }

  /**
   * The verdict, asking `lookUp` (the store, by digest) about a signed token this receiver does not hold: its expiry,
   * if it expires after `after` (one lifetime ago, so that a token expired before a restart is still told expired).
   */
  async verify(
    token: string,
    lookUp: (digest: string, after: number) => Promise<number | undefined>,
  ): Promise<TokenVerdict> {
    const verdict = this.check(token);
    if (verdict === 'unsigned') return 'unknown';
    if (verdict !== 'unknown') return verdict;
    const now = this.now();
    if ((this.unknownUntil.get(token) ?? 0) > now) return 'unknown';
    const expiresAt = await lookUp(tokenDigest(token), now - this.ttlSeconds * 1000);
    if (expiresAt === undefined) {
      // A signed token the store does not know (revoked, or expired and removed) will not become known: a client
      // sending it again and again is answered from memory for a minute.
      if (this.unknownUntil.size >= 10_000) this.unknownUntil.clear();
      this.unknownUntil.set(token, now + 60_000);
      return 'unknown';
    }
    this.keep(token, expiresAt);
    return now < expiresAt ? 'valid' : 'expired';
  }

  private keep(token: string, expiresAt: number): void {
    // A platform that asks for a token before every event would otherwise fill memory with dead tokens: those past
    // their second lifetime go first, then, if that is not enough, every expired one (only the living are kept).
    if (this.expiryByToken.size >= 10_000) {
      const now = this.now();
      for (const [held, expiry] of this.expiryByToken)
        if (this.forgottenAt(expiry) <= now) this.expiryByToken.delete(held);
      if (this.expiryByToken.size >= 10_000)
        for (const [held, expiry] of this.expiryByToken) if (expiry <= now) this.expiryByToken.delete(held);
    }
    this.expiryByToken.set(token, expiresAt);
  }

  /** When an expired token is no longer remembered as expired: twice its lifetime after it was issued. */
  private forgottenAt(expiresAt: number): number {
    return expiresAt + this.ttlSeconds * 1000;
  }
}

const randomPartBytes = 24;
const signatureBytes = 16;

/** A new token: 24 random bytes and their signature, 54 characters of base64url. */
export function signedToken(key: Buffer): string {
  const random = randomBytes(randomPartBytes);
  return Buffer.concat([random, signature(key, random)]).toString('base64url');
}

/** Whether a token was signed with `key`: a guessed or foreign token is refused without any lookup. */
export function isSignedWith(key: Buffer, token: string): boolean {
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length !== randomPartBytes + signatureBytes || bytes.toString('base64url') !== token) return false;
  return timingSafeEqual(bytes.subarray(randomPartBytes), signature(key, bytes.subarray(0, randomPartBytes)));
}

function signature(key: Buffer, random: Buffer): Buffer {
  return createHmac('sha256', key).update(random).digest().subarray(0, signatureBytes);
}
