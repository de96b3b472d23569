import { describe, expect, it } from 'vitest';
import { locateTokenAnswer, readTokenAnswer } from '../../../../src/platform/answers/token.js';

describe('readTokenAnswer: the token route answer the document does not show', () => {
  it.each([
    [{ access_token: 'abcdefghijklmnop1', expires_in: 3600 }, 'abcdefghijklmnop1', 3600],
    [{ accessToken: 'abcdefghijklmnop2', expiresIn: 7200 }, 'abcdefghijklmnop2', 7200],
    [{ token: 'abcdefghijklmnop3' }, 'abcdefghijklmnop3', undefined],
    [{ data: { token: 'abcdefghijklmnop4', expiresIn: '60' } }, 'abcdefghijklmnop4', 60],
    [{ access_token: 'abcdefghijklmnop5', expires_in: '2026-11-23T00:00:00Z' }, 'abcdefghijklmnop5', undefined],
    ['eyJhbGciOiJIUzI1NiJ9.e30.sig-nature', 'eyJhbGciOiJIUzI1NiJ9.e30.sig-nature', undefined],
  ])('%j', (body, token, lifetime) => {
    expect(readTokenAnswer(body)).toEqual({ accessToken: token, expiresInSeconds: lifetime });
  });

  it.each([[undefined], [{}], [{ error: 'invalid_grant' }], ['<html>login</html>'], [{ access_token: '' }]])(
    'no token in %j',
    (body) => {
      expect(readTokenAnswer(body)).toBeUndefined();
    },
  );

  it('answers.token.accessToken and answers.token.expiresIn point at other fields', () => {
    const body = { auth: { bearer: 'abcdefghijklmnop6', ttl: 99 } };
    expect(readTokenAnswer(body)).toBeUndefined();
    expect(readTokenAnswer(body, { accessToken: 'auth.bearer', expiresIn: 'auth.ttl' })).toEqual({
      accessToken: 'abcdefghijklmnop6',
      expiresInSeconds: 99,
    });
    expect(locateTokenAnswer(body, { accessToken: 'auth.bearer' })).toEqual({
      tokenPath: 'auth.bearer',
      lifetimePath: undefined,
    });
  });
});
