/**
 * What b2bctl prints of a PostgreSQL store's error never holds a password its connections sent: at opening
 * (store-password-echoed.test.ts runs that through the commands) and mid-run, when a connection the pool opens again
 * is refused with the server quoting the password, or a statement's error quotes it.
 */
import { describe, expect, it } from 'vitest';
import { knownStorePasswords, maskedStoreError, sentPassword } from '../../../src/webhook/store/postgres-secrets.js';
import { StatementLimits } from '../../../src/webhook/store/postgres-statements.js';

/** pg's DatabaseError as a refused login makes it: the server's words in message, detail and hint. */
function refusedLogin(password: string): Error & { code: string; detail: string; hint: string } {
  const error = new Error(`password authentication failed for user "erp" (got "${password}")`);
  return Object.assign(error, { code: '28P01', detail: `sent ${password}`, hint: `not ${password}` });
}

describe('the passwords of a PostgreSQL store', () => {
  it("are the URL's and PGPASSWORD, and the one a connection resolved (~/.pgpass)", () => {
    expect(knownStorePasswords('UrlPw_1', { PGPASSWORD: 'EnvPw_2' })).toEqual(['UrlPw_1', 'EnvPw_2']);
    expect(knownStorePasswords('', {})).toEqual([]);
    expect(sentPassword({ password: 'PassFilePw_3' })).toBe('PassFilePw_3');
    expect(sentPassword({ password: () => 'x' })).toBeUndefined();
  });

  it('are masked in the message, stack, detail and hint of an error', () => {
    const error = maskedStoreError(refusedLogin('PgSecret_77665544'), ['PgSecret_77665544']);
    for (const field of [error.message, error.stack, error.detail, error.hint])
      expect(String(field)).not.toContain('PgSecret_77665544');
    expect(error.message).toBe('password authentication failed for user "erp" (got "[redacted]")');
    expect(error.code).toBe('28P01');
  });

  it('are masked in what a use of the open store fails with (a connection refused mid-run)', async () => {
    const passwords = ['PgSecret_77665544'];
    const limits = new StatementLimits({ place: 'db.internal:5432', limitMs: 60_000, passwords });
    const use = limits.within(
      () => undefined,
      () => Promise.reject(refusedLogin('PgSecret_77665544')),
    );
    const error = await use.catch((failure: unknown) => failure);
    expect((error as Error).message).toBe('password authentication failed for user "erp" (got "[redacted]")');
  });
});
