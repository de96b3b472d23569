import { describe, expect, it } from 'vitest';
import { locateTokenAnswer, readTokenAnswer } from '../../../../src/platform/answers/token.js';

describe('readTokenAnswer: the token route answer the document does not show', () => {
  it.each([
    [{ access_token: 'abcdefghijklmnop1', expires_in: 3600 }, 'abcdefghijklmnop1', { path: 'expires_in', value: 3600 }],
    [{ accessToken: 'abcdefghijklmnop2', expiresIn: 7200 }, 'abcdefghijklmnop2', { path: 'expiresIn', value: 7200 }],
    [{ token: 'abcdefghijklmnop3' }, 'abcdefghijklmnop3', undefined],
    [
      { data: { token: 'abcdefghijklmnop4', expiresIn: '60' } },
      'abcdefghijklmnop4',
      { path: 'data.expiresIn', value: 60 },
    ],
    [{ access_token: 'abcdefghijklmnop5', expires_in: '2026-11-23T00:00:00Z' }, 'abcdefghijklmnop5', undefined],
    ['eyJhbGciOiJIUzI1NiJ9.e30.sig-nature', 'eyJhbGciOiJIUzI1NiJ9.e30.sig-nature', undefined],
  ])('%j', (body, token, lifetime) => {
    expect(readTokenAnswer(body)).toEqual({ accessToken: token, ...(lifetime && { lifetime }) });
  });

  it.each([
    [{ token: 'abcdefghijklmnop7', expires_at: '2026-11-30T06:00:00Z' }, 'expires_at', '2026-11-30T06:00:00Z'],
    [{ data: { token: 'abcdefghijklmnop8', expiresAt: 1_795_000_000 } }, 'data.expiresAt', 1_795_000_000],
    [{ access_token: 'abcdefghijklmnop9', expiration: 1_795_000_000_000 }, 'expiration', 1_795_000_000_000],
  ])('the instant it expires: %j', (body, path, written) => {
    // Epoch seconds and milliseconds told apart by magnitude: the same instant either way.
    const ms = typeof written === 'number' ? 1_795_000_000_000 : Date.parse(written);
    expect(readTokenAnswer(body)?.expiresAt).toEqual({ path, written, ms });
  });

  it('a number too small to be an epoch in an expiry field is no instant', () => {
    expect(readTokenAnswer({ token: 'abcdefghijklmnopq', expiration: 3600 })).toEqual({
      accessToken: 'abcdefghijklmnopq',
    });
  });

  it.each([[undefined], [{}], [{ error: 'invalid_grant' }], ['<html>login</html>'], [{ access_token: '' }]])(
    'no token in %j',
    (body) => {
      expect(readTokenAnswer(body)).toBeUndefined();
    },
  );

  it('answers.token.accessToken, expiresIn and expiresAt point at other fields', () => {
    const body = { auth: { bearer: 'abcdefghijklmnop6', ttl: 99 } };
    expect(readTokenAnswer(body)).toBeUndefined();
    expect(readTokenAnswer(body, { accessToken: 'auth.bearer', expiresIn: 'auth.ttl' })).toEqual({
      accessToken: 'abcdefghijklmnop6',
      lifetime: { path: 'auth.ttl', value: 99 },
    });
    expect(locateTokenAnswer(body, { accessToken: 'auth.bearer' })).toEqual({
      tokenPath: 'auth.bearer',
      lifetimePath: undefined,
      expiryPath: undefined,
    });
    const until = { auth: { bearer: 'abcdefghijklmnop6', until: '2026-11-30T06:00:00Z' } };
    expect(readTokenAnswer(until, { accessToken: 'auth.bearer', expiresAt: 'auth.until' })?.expiresAt?.path).toBe(
      'auth.until',
    );
  });
});
