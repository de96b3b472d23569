import { describe, expect, it } from 'vitest';
import { credentialsOfTokenRequest, TokenIssuer } from '../../../src/webhook/tokens.js';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('credentialsOfTokenRequest', () => {
  it.each([
    [
      'basic',
      { headers: { authorization: basic('erp:s3cret') }, query: {}, body: { grant_type: 'client_credentials' } },
      { style: 'basic', clientId: 'erp', clientSecret: 's3cret' },
    ],
    [
      'body',
      { headers: { 'user-agent': 'x' }, query: {}, body: { clientId: 'erp', clientSecret: 's3:cret' } },
      { style: 'body', clientId: 'erp', clientSecret: 's3:cret' },
    ],
    [
      'headers',
      { headers: { username: 'erp', password: 's3cret' }, query: { grant_type: 'password' }, body: undefined },
      { style: 'headers', clientId: 'erp', clientSecret: 's3cret' },
    ],
  ])('recognises the %s style', (_style, request, expected) => {
    expect(credentialsOfTokenRequest(request)).toEqual(expected);
  });

  it.each([
    // RFC 6749 §5.2: a missing parameter is invalid_request; an unknown grant is unsupported_grant_type.
    [{ headers: { authorization: basic('erp:s3cret') }, query: {}, body: {} }, 'invalid_request'],
    [
      { headers: { authorization: basic('erp:s3cret') }, query: {}, body: { grant_type: 'password' } },
      'unsupported_grant_type',
    ],
    [{ headers: { username: 'erp', password: 's' }, query: {}, body: undefined }, 'unsupported_grant_type'],
    [{ headers: {}, query: {}, body: { clientId: 'erp' } }, 'invalid_request'],
    [
      { headers: { authorization: basic('no-colon') }, query: {}, body: { grant_type: 'client_credentials' } },
      'invalid_request',
    ],
  ])('refuses %j with %s', (request, error) => {
    expect(credentialsOfTokenRequest(request)).toMatchObject({ error });
  });
});

describe('Basic credentials form-encoded (RFC 6749 §2.3.1)', () => {
  it('keeps the pair as sent and gives its form-decoded reading beside it', () => {
    const sent = `${encodeURIComponent('erp client')}:${encodeURIComponent('s3cr3t-Ação:%/+=')}`;
    expect(
      credentialsOfTokenRequest({
        headers: { authorization: basic(sent) },
        query: {},
        body: { grant_type: 'client_credentials' },
      }),
    ).toEqual({
      style: 'basic',
      clientId: 'erp%20client',
      clientSecret: encodeURIComponent('s3cr3t-Ação:%/+='),
      formDecoded: { clientId: 'erp client', clientSecret: 's3cr3t-Ação:%/+=' },
    });
  });

  it('a raw pair that is not valid form encoding (a lone %) is read as sent only', () => {
    expect(
      credentialsOfTokenRequest({
        headers: { authorization: basic('erp:50%off') },
        query: {},
        body: { grant_type: 'client_credentials' },
      }),
    ).toEqual({ style: 'basic', clientId: 'erp', clientSecret: '50%off' });
  });
});

describe('TokenIssuer', () => {
  it('accepts only its own credentials and issues distinct tokens that expire', () => {
    let now = 1_000_000;
    const issuer = new TokenIssuer('erp', 's3cret', 60, () => now);
    expect(issuer.accepts('erp', 's3cret')).toBe(true);
    expect(issuer.accepts('erp', 's3cre')).toBe(false);
    expect(issuer.accepts('other', 's3cret')).toBe(false);
    const token = issuer.issue();
    expect(issuer.issue()).not.toBe(token);
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect(issuer.check(token)).toBe('valid');
    now += 60_000;
    expect(issuer.check(token)).toBe('expired');
    expect(new TokenIssuer('erp', 's3cret', 60, () => now).check(token)).toBe('unknown');
  });
});
