import { describe, expect, it } from 'vitest';
import { loginLockWaitMs } from '../../../src/config/login-lock.js';
import { defaultBackoff } from '../../../src/platform/retry-policy.js';

describe('loginLockWaitMs: the wait for another run login covers its every attempt and the back-off between them', () => {
  it.each([
    // 4 attempts of 30 s, back-off 0.25 + 0.5 + 1 s, margin 15 s.
    [3, 30_000, 136_750],
    // One attempt, no back-off.
    [0, 30_000, 45_000],
    // 6 attempts of 10 s, back-off 0.25 + 0.5 + 1 + 2 + 4 s.
    [5, 10_000, 82_750],
  ])('http.retries %i, http.timeout %i ms: %i ms', (retries, timeoutMs, waitMs) => {
    expect(loginLockWaitMs({ retries, timeoutMs, backoff: defaultBackoff })).toBe(waitMs);
  });
});
