import { describe, expect, it } from 'vitest';
import {
  formsMaskedAnywhere,
  redactSecrets,
  secretsOfAuthorization,
  secretsOfUrl,
  secretsOfVariables,
} from '../../../src/lib/secret-values.js';

describe('redactSecrets', () => {
  it.each([
    ['token abcd-1234 refused', ['abcd-1234'], 'token [redacted] refused'],
    // The longest first: a secret holding another leaves no piece of itself.
    ['pair usr:pw-long-9', ['pw-lo', 'usr:pw-long-9'], 'pair [redacted]'],
    // As a JSON string writes it, in a body quoted as it came.
    ['{"message":"bad Pw\\"q\\\\9"}', ['Pw"q\\9'], '{"message":"bad [redacted]"}'],
    // None, or empty: nothing to mask.
    ['user usr ok', [undefined, ''], 'user usr ok'],
    // Shorter than four characters: still a secret, masked wherever it stands alone (quoted, after = or :, between
    // spaces, at either end), as written and as JSON writes it.
    ['value "abc" refused; pw=abc, abc', ['abc'], 'value "[redacted]" refused; pw=[redacted], [redacted]'],
    ['x', ['x'], '[redacted]'],
    ['{"password":"a\\"b"}', ['a"b'], '{"password":"[redacted]"}'],
    ['pw ! and !!', ['!'], 'pw [redacted] and [redacted][redacted]'],
    // …but not inside a longer word or number: a `?v=1` forward URL leaves an ERP's `HTTP 401` readable.
    ['HTTP 401 at abcd, v=1', ['1', 'abc'], 'HTTP 401 at abcd, v=[redacted]'],
    ['a.c then abc', ['a.c'], '[redacted] then abc'],
  ])('%s', (text, secrets, safe) => {
    expect(redactSecrets(text, secrets)).toBe(safe);
  });
});

describe('secretsOfUrl', () => {
  it.each([
    ['http://usr:p%2Fw@erp/hook?api_key=k%2B1&code=a+b', ['p%2Fw', 'p/w', 'k%2B1', 'k+1', 'a+b', 'a b']],
    ['http://erp/hook', []],
    ['not a url', []],
  ])('%s', (url, secrets) => {
    expect(secretsOfUrl(url)).toEqual(secrets);
  });
});

describe('secretsOfAuthorization', () => {
  it.each([
    ['Bearer tok-1234', ['tok-1234']],
    [
      `Basic ${Buffer.from('usr:pw:with-colon').toString('base64')}`,
      [Buffer.from('usr:pw:with-colon').toString('base64'), 'pw:with-colon'],
    ],
    [undefined, []],
  ])('%s', (header, secrets) => {
    expect(secretsOfAuthorization(header)).toEqual(secrets);
  });
});

describe('secretsOfVariables', () => {
  it('values named like secrets, a Basic pair’s password, a URL’s credentials; not other values', () => {
    expect(
      secretsOfVariables({
        ERP_TOKEN: 'tok-1234',
        PGPASSWORD: 'pg-pw-1',
        B2BCTL_WEBHOOK_FORWARD_BASIC: 'usr:basic-pw',
        DATABASE_URL: 'postgres://erp:db-pw@db/erp',
        ERP_DIR: '/srv/erp',
        EMPTY_SECRET: '',
      }),
    ).toEqual(['tok-1234', 'pg-pw-1', 'basic-pw', 'db-pw', 'db-pw']);
  });
});

describe('formsMaskedAnywhere', () => {
  it('what redactSecrets replaces wherever it occurs, in its order: as written, JSON-escaped and URL-encoded, longest first', () => {
    const secrets = ['pa"ss', 'usr:pa"ss', 'v1', undefined, ''];
    expect(formsMaskedAnywhere(secrets)).toEqual([
      'usr%3Apa%22ss',
      'usr:pa\\"ss',
      'usr:pa"ss',
      'pa%22ss',
      'pa\\"ss',
      'pa"ss',
    ]);
    // Replacing them in order, as a store's SQL does, leaves what redactSecrets leaves (here no short value stands alone).
    const text = 'refused usr:pa"ss, {"p":"pa\\"ss"} p=pa%22ss v12';
    let masked = text;
    for (const form of formsMaskedAnywhere(secrets)) masked = masked.split(form).join('[redacted]');
    expect(masked).toBe(redactSecrets(text, secrets));
  });
});
