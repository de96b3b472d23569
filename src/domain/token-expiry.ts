/** When a cached token should be renewed. Pure. */
import { bearerTokenText, unsendableTokenCharacter } from './bearer-token.js';
import { spokenDuration } from './duration.js';

/**
 * True once the token is within a safety margin of its expiry: a tenth of its lifetime, at most a
 * minute, so a 12-hour token is renewed a minute early and a 10-second test token one second early.
 */
export function tokenNeedsRenewal(token: { obtainedAtMs?: number; expiresAtMs?: number }, nowMs: number): boolean {
  if (token.expiresAtMs === undefined || Number.isNaN(token.expiresAtMs)) return false;
  const lifetime =
    token.obtainedAtMs !== undefined && !Number.isNaN(token.obtainedAtMs)
      ? token.expiresAtMs - token.obtainedAtMs
      : 60_000 * 10;
  const margin = Math.min(60_000, Math.max(0, lifetime / 10));
  return nowMs >= token.expiresAtMs - margin;
}

/** The platform document's token lifetime, used when the token route's answer states none. */
export const documentedTokenLifetimeMs = 12 * 3_600_000;

/**
 * A stated lifetime of this many or more is milliseconds, not seconds: 1,000 times the document's 12 hours in
 * seconds (500 days), where a lifetime in milliseconds of a token of hours lands and no lifetime in seconds does.
 */
export const millisecondLifetimeFrom = 1000 * 12 * 3600;

/**
 * The longest lifetime b2bctl believes: a token said to last longer is counted for this long, then renewed as an
 * expired one is. A platform that means it loses one login a week; one whose unit b2bctl misread (epoch seconds
 * given as a lifetime) is not believed good for years.
 */
export const longestBelievedLifetimeMs = 7 * 86_400_000;

/** A lifetime shorter than this is used as said, with a warning: every command may have to log in again. */
export const shortestUnremarkedLifetimeMs = 60_000;

/** What a token route's answer says of the token's end, each as written there (`path` its field). */
export interface StatedTokenExpiry {
  /** A lifetime: seconds, or milliseconds from `millisecondLifetimeFrom` on. */
  lifetime?: { path: string; value: number };
  /** An absolute expiry, as written (ISO 8601 text or an epoch number) and as epoch milliseconds. */
  expiresAt?: { path: string; written: string | number; ms: number };
}

/** When b2bctl counts an issued token expired, and the one warning line about what the answer said, if any. */
export interface BelievedTokenExpiry {
  expiresAtMs: number;
  warning: string | undefined;
}

/**
 * When a token issued at `nowMs` expires by what its answer stated. The earlier of a lifetime and an absolute expiry
 * wins; neither means the document's 12 hours; a lifetime past a week is counted for a week; an absolute expiry
 * already past by this machine's clock is ignored (a token just issued is good now: the clocks or the time zone
 * disagree). Everything read otherwise than stated, or far from the document's 12 hours, is said in one line.
 */
export function believedTokenExpiry(stated: StatedTokenExpiry, nowMs: number): BelievedTokenExpiry {
  const notes: string[] = [];
  const candidates: { ms: number; said: string }[] = [];
  if (stated.lifetime) {
    const { path, value } = stated.lifetime;
    const said = `"${path}": ${value}`;
    if (value >= millisecondLifetimeFrom) {
      notes.push(
        `${said} would be ${spokenDuration(value * 1000)} as seconds, so b2bctl reads it as milliseconds: ${spokenDuration(value)}`,
      );
      candidates.push({ ms: value, said });
    } else candidates.push({ ms: value * 1000, said });
  }
  if (stated.expiresAt) {
    const { path, written, ms } = stated.expiresAt;
    const said = `"${path}": ${JSON.stringify(written)}`;
    if (ms > nowMs) candidates.push({ ms: ms - nowMs, said });
    else
      notes.push(
        `${said} is already past by this machine's clock (${new Date(nowMs).toISOString()}), so b2bctl ignores it: check this machine's clock (b2bctl doctor compares it with the platform's)`,
      );
  }
  const [earliest] = candidates.toSorted((one, other) => one.ms - other.ms);
  let lifetimeMs = earliest?.ms ?? documentedTokenLifetimeMs;
  if (earliest && lifetimeMs > longestBelievedLifetimeMs) {
    notes.push(
      `${earliest.said} says the token lasts ${spokenDuration(lifetimeMs)}, far past the document's 12 hours; b2bctl counts it valid for ${spokenDuration(longestBelievedLifetimeMs)} at most, then logs in again as for an expired one`,
    );
    lifetimeMs = longestBelievedLifetimeMs;
  } else if (earliest && lifetimeMs < shortestUnremarkedLifetimeMs) {
    notes.push(
      `${earliest.said} says the token lasts ${spokenDuration(lifetimeMs)}, far less than the document's 12 hours; b2bctl uses it as said, so each command may have to log in again`,
    );
  }
  return {
    expiresAtMs: nowMs + lifetimeMs,
    warning: notes.length === 0 ? undefined : `warning: the token route's answer ${notes.join('; ')}.`,
  };
}

/** A token cached in a profile, as the profile keeps it: its text and its times (ISO 8601), each perhaps absent. */
export interface CachedToken {
  token?: string;
  tokenObtainedAt?: string;
  tokenExpiresAt?: string;
}

/**
 * The token another run of the profile saved that this run may send instead of logging in itself: fresh by the rule
 * a run judges its own cached token by (tokenNeedsRenewal), sendable in a header, and none of `setAside` (the token
 * this run holds, or one it saw refused or expired). Undefined when there is none such.
 */
export function tokenSavedByAnotherRun(
  saved: CachedToken,
  setAside: ReadonlySet<string>,
  nowMs: number,
): string | undefined {
  if (saved.token === undefined) return undefined;
  const token = bearerTokenText(saved.token);
  if (token === '' || setAside.has(token) || unsendableTokenCharacter(token) !== undefined) return undefined;
  const expired = tokenNeedsRenewal(
    { obtainedAtMs: Date.parse(saved.tokenObtainedAt ?? ''), expiresAtMs: Date.parse(saved.tokenExpiresAt ?? '') },
    nowMs,
  );
  return expired ? undefined : token;
}
