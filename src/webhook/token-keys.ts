import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { EventStore, TokenKeyRecord } from './store/types.js';

// scrypt's cost: about 50 ms and 16 MB once per start, so the verifier kept in the store is slow to guess against.
const scryptCost = { N: 16_384, r: 8, p: 1 };

/** A salted scrypt of the client secret: `scrypt:N:r:p:SALT:HASH`, what the store keeps to notice a new secret. */
export function secretVerifier(secret: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, 32, scryptCost);
  return ['scrypt', scryptCost.N, scryptCost.r, scryptCost.p, salt.toString('base64'), hash.toString('base64')].join(
    ':',
  );
}

/** Whether `verifier` was made from `secret` (compared in constant time); false for a verifier it cannot read. */
export function verifierMatches(verifier: string, secret: string): boolean {
  const [scheme, n, r, p, salt, hash] = verifier.split(':');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const cost = { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 };
  const given = scryptSync(secret, Buffer.from(salt, 'base64'), expected.length, cost);
  return expected.length > 0 && timingSafeEqual(given, expected);
}

/**
 * The key that signs this store's tokens (docs/decisions/0013-receiver-tokens.md), kept in the store with the
 * secret's verifier so that tokens outlive a restart. A receiver started with another client secret makes a new key and the store forgets every token issued
 * before: a secret changed because it leaked takes the tokens got with it along.
 */
export async function tokenSigningKey(
  store: EventStore,
  clientSecret: string,
  log: ((message: string) => void) | undefined,
): Promise<Buffer> {
  const fresh = (): TokenKeyRecord => ({
    verifier: secretVerifier(clientSecret),
    key: randomBytes(32).toString('base64'),
  });
  const adopted = await store.adoptTokenKey((verifier) => verifierMatches(verifier, clientSecret), fresh);
  if (adopted.revoked)
    log?.(
      `The client secret is not the one ${store.description} last served with: the tokens issued before are revoked.`,
    );
  return Buffer.from(adopted.key, 'base64');
}
