/** When a cached token should be renewed. Pure. */

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
