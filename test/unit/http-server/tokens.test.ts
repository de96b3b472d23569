import { describe, expect, it } from 'vitest';
import { credentialsOfTokenRequest, tokenDigest, TokenIssuer, tokenStyles } from '../../../src/http-server/tokens.js';

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

/** A Basic token request for `pair`, with a client_credentials form unless `body` is given. */
function basicWith(pair: string, body: unknown = { grant_type: 'client_credentials' }) {
  return credentialsOfTokenRequest({ headers: { authorization: basic(pair) }, query: {}, body });
}

describe('Basic credentials, each reading at its edge', () => {
  it.each([
    ['only the id differs', 'erp+one:s3cret', { clientId: 'erp one', clientSecret: 's3cret' }],
    ['only the secret differs', 'erp:a+b', { clientId: 'erp', clientSecret: 'a b' }],
  ])('form-decoded when %s', (_name, pair, formDecoded) => {
    expect(basicWith(pair)).toMatchObject({ style: 'basic', formDecoded });
  });

  it.each([
    ['no body', null],
    ['no grant_type', {}],
    ['an empty grant_type', { grant_type: '' }],
  ])('%s: grant_type is missing', (_name, body) => {
    expect(basicWith('erp:s3cret', body)).toEqual({
      style: 'basic',
      error: 'invalid_request',
      problem: 'grant_type is missing: send grant_type=client_credentials',
    });
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
    // Another issuer's key did not sign it.
    expect(new TokenIssuer('erp', 's3cret', 60, () => now).check(token)).toBe('unsigned');
  });

  it('looks up a token signed with its key but not held (before a restart, another receiver) once, by digest', async () => {
    const now = 1_000_000;
    const key = Buffer.alloc(32, 1);
    const token = new TokenIssuer('erp', 's3cret', 60, () => now, key).issue();
    const restarted = new TokenIssuer('erp', 's3cret', 60, () => now, key);
    const asked: string[] = [];
    const store = async (digest: string) => {
      asked.push(digest);
      return digest === tokenDigest(token) ? now + 30_000 : undefined;
    };
    expect(restarted.check(token)).toBe('unknown');
    expect(await restarted.verify(token, store)).toBe('valid');
    expect(await restarted.verify(token, store)).toBe('valid');
    expect(asked).toEqual([tokenDigest(token)]);
    // Signed, but the store does not know it (revoked, or never kept): unknown.
    const unkept = new TokenIssuer('erp', 's3cret', 60, () => now, key).issue();
    expect(await restarted.verify(unkept, store)).toBe('unknown');
    // Sent again, it is answered from memory for a minute, not looked up each time.
    expect(await restarted.verify(unkept, store)).toBe('unknown');
    // Not signed with the key: refused without asking.
    const flipped = `${token.slice(0, 10)}${token[10] === 'a' ? 'b' : 'a'}${token.slice(11)}`;
    for (const forged of ['forged', Buffer.alloc(40, 9).toString('base64url'), flipped])
      expect(await restarted.verify(forged, store)).toBe('unknown');
    expect(asked).toHaveLength(2);
  });
});

describe('credentialsOfTokenRequest, each rule at its edge', () => {
  it('knows the three styles a receiver may be asked to accept', () => {
    expect(tokenStyles).toEqual(['basic', 'body', 'headers']);
  });

  const form = { grant_type: 'client_credentials' };

  it.each([
    ['a lower-case scheme and several spaces', 'basic   ZXJwOnMzY3JldA==', { clientId: 'erp', clientSecret: 's3cret' }],
    ['an empty client id before the colon', `Basic ${Buffer.from(':s3cret').toString('base64')}`, { clientId: '' }],
    ['a colon inside the secret', basic('erp:a:b'), { clientId: 'erp', clientSecret: 'a:b' }],
  ])('Basic: %s', (_name, authorization, expected) => {
    expect(credentialsOfTokenRequest({ headers: { authorization }, query: {}, body: form })).toMatchObject({
      style: 'basic',
      ...expected,
    });
  });

  it('Basic with text around the credentials is not Basic: the request is refused with what to send', () => {
    for (const authorization of [`x${basic('erp:s3cret')}`, `${basic('erp:s3cret')} extra`, 'Basic ']) {
      expect(credentialsOfTokenRequest({ headers: { authorization }, query: {}, body: form })).toEqual({
        error: 'invalid_request',
        problem:
          'Send Basic credentials with grant_type=client_credentials, a JSON body with clientId and clientSecret, or username/password headers with ?grant_type=password',
      });
    }
  });

  it('the refusals say what to send', () => {
    expect(basicWith('erp:s', { grant_type: 'password' })).toEqual({
      style: 'basic',
      error: 'unsupported_grant_type',
      problem: 'Basic credentials need the form field grant_type=client_credentials',
    });
    expect(basicWith('erp', form)).toEqual({
      style: 'basic',
      error: 'invalid_request',
      problem: 'Basic credentials must be base64 of clientId:clientSecret',
    });
    expect(
      credentialsOfTokenRequest({ headers: { username: 'erp', password: 's' }, query: {}, body: undefined }),
    ).toEqual({
      error: 'unsupported_grant_type',
      problem: 'username/password headers need the query parameter grant_type=password',
    });
  });

  it('a body that is no object, or whose parts are no text, carries no credentials', () => {
    for (const body of [null, 'clientId=erp', { clientId: 'erp', clientSecret: 1 }, { clientId: 1, clientSecret: 's' }])
      expect(credentialsOfTokenRequest({ headers: {}, query: {}, body })).toMatchObject({ error: 'invalid_request' });
  });

  it('repeated headers: the first of each is read', () => {
    expect(
      credentialsOfTokenRequest({
        headers: { username: ['erp', 'other'], password: ['s3cret', 'x'] },
        query: { grant_type: 'password' },
        body: undefined,
      }),
    ).toEqual({ style: 'headers', clientId: 'erp', clientSecret: 's3cret' });
    expect(
      credentialsOfTokenRequest({ headers: { username: 'erp' }, query: { grant_type: 'password' }, body: undefined }),
    ).toMatchObject({ error: 'invalid_request' });
    expect(
      credentialsOfTokenRequest({
        headers: { password: 's3cret' },
        query: { grant_type: 'password' },
        body: undefined,
      }),
    ).toMatchObject({ error: 'invalid_request' });
  });
});

describe('TokenIssuer, lifetimes at their edges', () => {
  it('a token is valid until the last millisecond of its lifetime, then expired for a lifetime more, then unknown', () => {
    let now = 5_000;
    const issuer = new TokenIssuer('erp', 's3cret', 2, () => now);
    const token = issuer.issue();
    now += 1_999;
    expect(issuer.check(token)).toBe('valid');
    now += 1;
    // A client that retries an expired token is told so each time, not "unknown" from its second try.
    expect(issuer.check(token)).toBe('expired');
    expect(issuer.check(token)).toBe('expired');
    now += 1_999;
    expect(issuer.check(token)).toBe('expired');
    now += 1;
    expect(issuer.check(token)).toBe('unknown');
  });

  it('a token taken from the store (issued by another receiver) is said expired on every retry too', async () => {
    let now = 1_000_000;
    const key = Buffer.alloc(32, 1);
    const token = new TokenIssuer('erp', 's3cret', 60, () => now, key).issue();
    const other = new TokenIssuer('erp', 's3cret', 60, () => now, key);
    expect(await other.verify(token, async () => now + 60_000)).toBe('valid');
    now += 60_000;
    let asked = 0;
    const store = async () => {
      asked++;
      return now + 60_000;
    };
    expect(await other.verify(token, store)).toBe('expired');
    expect(await other.verify(token, store)).toBe('expired');
    // An expired token it holds is not asked about: the store would not make it valid again.
    expect(asked).toBe(0);
  });

  it('past 10,000 tokens, issuing forgets the expired ones and keeps the living', () => {
    let now = 0;
    const issuer = new TokenIssuer('erp', 's3cret', 10, () => now);
    const first = issuer.issue();
    now = 5_000;
    const living = issuer.issue();
    for (let count = 2; count < 10_000; count++) issuer.issue();
    // The first expires exactly now (issued at 0, 10 s): forgotten by the next issue; the one issued at 5 s lives.
    now = 10_000;
    issuer.issue();
    expect(issuer.check(first)).toBe('unknown');
    expect(issuer.check(living)).toBe('valid');
  });

  it('past 10,000 tokens, the expired ones past their second lifetime go first: the recently expired still say so', () => {
    let now = 0;
    const issuer = new TokenIssuer('erp', 's3cret', 10, () => now);
    const old = issuer.issue();
    now = 10_000;
    const recent = issuer.issue();
    for (let count = 2; count < 10_000; count++) issuer.issue();
    // old expired at 10 s and is forgotten at 20 s; recent expired at 20 s and is remembered until 30 s.
    now = 20_000;
    issuer.issue();
    expect(issuer.check(old)).toBe('unknown');
    expect(issuer.check(recent)).toBe('expired');
  });

  it('below 10,000 tokens nothing is forgotten: an expired token says so', () => {
    let now = 0;
    const issuer = new TokenIssuer('erp', 's3cret', 10, () => now);
    const first = issuer.issue();
    for (let count = 1; count < 9_999; count++) issuer.issue();
    now = 10_000;
    issuer.issue();
    expect(issuer.check(first)).toBe('expired');
  });
});
