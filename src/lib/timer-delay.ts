/**
 * The longest delay a Node timer keeps: 2^31-1 ms, 24.8 days. Past it Node fires the timer after 1 ms and prints a
 * TimeoutOverflowWarning on stderr (which breaks a JSON log), so a time limit that long would be none at all.
 */
export const longestTimerDelayMs = 2_147_483_647;

/**
 * `ms` as a timer can keep it: at most `longestTimerDelayMs`, the longest wait Node honours, never the 1 ms it fires
 * a longer one after. Every delay a user's flag or setting reaches a `setTimeout` through passes here; the flags
 * refuse far shorter values at start, so this is the last guard, not the rule a user sees.
 */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms)) throw new RangeError('a timer delay must be a number of milliseconds, not NaN');
  return Math.min(Math.max(ms, 0), longestTimerDelayMs);
}
