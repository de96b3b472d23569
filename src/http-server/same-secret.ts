import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares secrets in constant time, so the answer's timing says nothing about how much matched. */
export function sameSecret(given: string, expected: string): boolean {
  return secretCheck(expected)(given);
}

/**
 * The same comparison against one fixed secret, its digest taken once: for a secret checked on every request.
 */
export function secretCheck(expected: string): (given: string) => boolean {
  const digest = sha256(expected);
  // Digests have one length, so not even the secret's length leaks through an early return.
  return (given) => timingSafeEqual(sha256(given), digest);
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
