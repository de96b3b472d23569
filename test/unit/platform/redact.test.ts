import { describe, expect, it } from 'vitest';
import {
  redactBody,
  redactHeaders,
  redactSecrets,
  redactUrl,
  redacted,
  shownUrl,
} from '../../../src/platform/redact.js';
import { hideEchoedSecret, isSecretName } from '../../../src/lib/secret-values.js';

describe('redactHeaders', () => {
  it.each([
    {
      name: 'Bearer keeps its scheme',
      headers: { authorization: 'Bearer eyJhbGciOi.secret.sig' },
      expected: { authorization: 'Bearer [redacted]' },
    },
    {
      name: 'Basic keeps its scheme',
      headers: { Authorization: 'Basic dXNlcjpwYXNz' },
      expected: { Authorization: 'Basic [redacted]' },
    },
    {
      name: 'a bare credential has no scheme to keep',
      headers: { authorization: 'abcdef123' },
      expected: { authorization: redacted },
    },
    {
      name: 'proxy-authorization',
      headers: { 'proxy-authorization': 'Basic Zm9vOmJhcg==' },
      expected: { 'proxy-authorization': 'Basic [redacted]' },
    },
    {
      name: 'a password header',
      headers: { password: 'hunter2', 'x-password': 'hunter2' },
      expected: { password: redacted, 'x-password': redacted },
    },
    {
      name: 'token-like headers',
      headers: { 'x-access-token': 't0k3n', 'x-client-secret': 's3cr3t' },
      expected: { 'x-access-token': redacted, 'x-client-secret': redacted },
    },
    {
      name: 'cookie and set-cookie',
      headers: { cookie: 'session=abc', 'set-cookie': ['a=1', 'b=2'] },
      expected: { cookie: redacted, 'set-cookie': redacted },
    },
    {
      name: 'ordinary headers pass through',
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
      expected: { 'content-type': 'application/json', 'retry-after': '3' },
    },
    { name: 'lists are joined', headers: { vary: ['accept', 'origin'] }, expected: { vary: 'accept, origin' } },
    {
      name: 'undefined values are dropped',
      headers: { 'x-absent': undefined, accept: '*/*' },
      expected: { accept: '*/*' },
    },
  ])('$name', ({ headers, expected }) => {
    expect(redactHeaders(headers)).toEqual(expected);
  });
});

describe('redactBody', () => {
  it.each([
    {
      name: 'JSON top-level password',
      body: '{"username":"ana@example.com","password":"hunter2"}',
      expected: '{"username":"ana@example.com","password":"[redacted]"}',
    },
    {
      name: 'JSON nested clientSecret and access_token',
      body: JSON.stringify({
        client: { clientId: 'erp', clientSecret: 'xyz' },
        auth: { access_token: 'abc', token_type: 'bearer', expires_in: 3600 },
      }),
      expected: JSON.stringify({
        client: { clientId: 'erp', clientSecret: redacted },
        auth: { access_token: redacted, token_type: 'bearer', expires_in: 3600 },
      }),
    },
    {
      name: 'JSON arrays of records',
      body: JSON.stringify([
        { id: 1, password: 'a' },
        { id: 2, password: 'b' },
      ]),
      expected: JSON.stringify([
        { id: 1, password: redacted },
        { id: 2, password: redacted },
      ]),
    },
    {
      name: 'a secret key holding an object is searched, not replaced',
      body: JSON.stringify({ credentials: { user: 'ana', password: 'x' } }),
      expected: JSON.stringify({ credentials: { user: 'ana', password: redacted } }),
    },
    {
      name: 'a secret key holding null stays null',
      body: '{"password":null}',
      expected: '{"password":null}',
    },
    {
      name: 'form-urlencoded password grant',
      body: 'grant_type=password&username=a&password=b',
      expected: 'grant_type=password&username=a&password=[redacted]',
    },
    {
      name: 'form-urlencoded with an encoded key',
      body: 'client%5Fsecret=abc&scope=all',
      expected: 'client%5Fsecret=[redacted]&scope=all',
    },
    {
      name: 'form value holding "=" is kept whole',
      body: 'filter=a=b&token=t',
      expected: 'filter=a=b&token=[redacted]',
    },
    {
      name: 'form key with a stray % does not throw',
      body: 'rate%=5&password=x',
      expected: 'rate%=5&password=[redacted]',
    },
    { name: 'plain text unchanged', body: 'Service Unavailable', expected: 'Service Unavailable' },
    {
      name: 'plain text that mentions a password unchanged',
      body: 'wrong password for ana',
      expected: 'wrong password for ana',
    },
    { name: 'broken JSON redacted by key', body: '{"password": "x"', expected: '{"password": "[redacted]"' },
    // A user test: `passwordExpired: false` of a customer showed as "[redacted]"; a flag is no secret under any name.
    {
      name: 'a true or false is no secret, under any name',
      body: '{"id":1,"passwordExpired":false,"password":"x","tokenRevoked":true,"credentials":{"token":false,"secret":1234}}',
      expected:
        '{"id":1,"passwordExpired":false,"password":"[redacted]","tokenRevoked":true,"credentials":{"token":false,"secret":"[redacted]"}}',
    },
    {
      name: 'broken JSON: a true, false or null is no secret either',
      body: '{"passwordExpired": false, "tokenRevoked": true, "password": null, "secret": {"set": true, "value": "y"',
      expected:
        '{"passwordExpired": false, "tokenRevoked": true, "password": null, "secret": {"set": true, "value": "[redacted]"',
    },
    { name: 'empty unchanged', body: '', expected: '' },
  ])('$name', ({ body, expected }) => {
    expect(redactBody(body)).toBe(expected);
  });
});

describe('redactBody of JSON that does not parse', () => {
  it('redacts by key as for parsed JSON, keeping the mistake visible', () => {
    const cases: [string, string][] = [
      ['{"token":"abcdefghijklmnopqrstuvwxyz012345",}', '{"token":"[redacted]",}'],
      ['{"access_token":"RESPSECRET456","expires_in":3600,}', '{"access_token":"[redacted]","expires_in":3600,}'],
      // A password of two characters: no length rule, the key decides.
      ['{"password":"P3",}', '{"password":"[redacted]",}'],
      ['{"apiKey": 12345, "name":"x"', '{"apiKey": "[redacted]", "name":"x"'],
      [
        '{"password":{"new":"a1","old":"b2"},"user":"u",}',
        '{"password":{"new":"[redacted]","old":"[redacted]"},"user":"u",}',
      ],
      ['{"senha":"abc\\"def", "n":1', '{"senha":"[redacted]", "n":1'],
      ['{"credentials":{"clientSecret":"zz","id":"ok"},}', '{"credentials":{"clientSecret":"[redacted]","id":"ok"},}'],
      ['[{"token":"t1"},{"x":"y"}', '[{"token":"[redacted]"},{"x":"y"}'],
      ['{"pwd":"never closed', '{"pwd":"[redacted]"'],
    ];
    for (const [body, shown] of cases) expect(redactBody(body)).toBe(shown);
  });
});

describe('redactSecrets', () => {
  it.each([
    {
      name: 'every occurrence of each secret',
      text: 'token abcd1234 then abcd1234 and pw hunter2',
      secrets: ['abcd1234', 'hunter2'],
      expected: 'token [redacted] then [redacted] and pw [redacted]',
    },
    {
      name: 'undefined secrets are skipped',
      text: 'pw hunter2',
      secrets: [undefined, 'hunter2'],
      expected: 'pw [redacted]',
    },
    {
      name: 'secrets shorter than 4 characters are masked where they stand alone, not inside a longer word',
      text: 'a b abc abcd bab',
      secrets: ['a', 'abc'],
      expected: '[redacted] b [redacted] abcd bab',
    },
    { name: 'no secrets', text: 'nothing to hide', secrets: [], expected: 'nothing to hide' },
    {
      name: 'regex characters are literal',
      text: 'p4$$.w*rd here',
      secrets: ['p4$$.w*rd'],
      expected: '[redacted] here',
    },
  ])('$name', ({ text, secrets, expected }) => {
    expect(redactSecrets(text, secrets)).toBe(expected);
  });
});

describe('hideEchoedSecret', () => {
  it.each([
    // Masked already as a known secret (the password sent): one value, no stray `]` (`[[redacted]]]` in a report).
    [
      'Property [password] with value [[redacted]] does not pass validation',
      'Property [password] with value [[redacted]] does not pass validation',
    ],
    [
      'Property [password] with value [Senha#1001] does not pass validation',
      'Property [password] with value [[redacted]] does not pass validation',
    ],
    [
      '{"message":"Property [clientSecret] with value [abc] does not pass validation"}',
      '{"message":"Property [clientSecret] with value [[redacted]] does not pass validation"}',
    ],
    [
      'Property [document] with value [123] does not pass validation',
      'Property [document] with value [123] does not pass validation',
    ],
  ])('%s', (text, expected) => {
    expect(hideEchoedSecret(text)).toBe(expected);
  });
});

describe('secrets a user test found in the trace', () => {
  it('a password nested under its name, Portuguese and confirmation names, and secret query values', () => {
    expect(redactBody('{"password":{"new":"pw-A","old":"pw-B"},"senha":"s1","password_confirmation":"pc"}')).toBe(
      JSON.stringify({ password: redacted, senha: redacted, password_confirmation: redacted }),
    );
    expect(redactHeaders({ 'x-senha': 'a', 'x-access-key': 'b', 'x-signature': 'c', 'x-trace': 'd' })).toEqual({
      'x-senha': redacted,
      'x-access-key': redacted,
      'x-signature': redacted,
      'x-trace': 'd',
    });
    expect(redactUrl('https://x.example/p?password=hunter2&limit=5&client_secret=cs&access_token=at')).toBe(
      'https://x.example/p?password=[redacted]&limit=5&client_secret=[redacted]&access_token=[redacted]',
    );
  });
});

// A user test: the usual names of credentials in a query that no secret word ends, and b2bctl's own parameters left alone.
describe('redactUrl: credentials under names of their own', () => {
  it.each([
    ['key', 'Google-style API key'],
    ['sig', "Azure SAS's signature"],
    ['code', "Azure Functions' key, an OAuth code"],
    ['jwt', 'a JWT'],
    ['auth', 'an auth value'],
    ['Key', 'any case'],
    ['AWSAccessKeyId', "AWS's access key id"],
    ['X-Goog-Signature', "Google's signed URL"],
    ['X-Amz-Security-Token', "AWS's session token"],
    ['k%65y', 'an encoded name'],
    // A user test: a signed download link in Portuguese, and a session's id.
    ['chave', 'a key, in Portuguese'],
    ['assinatura', 'a signature, in Portuguese'],
    ['hmac', 'a signature'],
    ['session', "a session's id"],
  ])('%s (%s): its value masked', (name) => {
    expect(redactUrl(`https://x.example/p?limit=5&${name}=VALUE-1&offset=0`)).toBe(
      `https://x.example/p?limit=5&${name}=[redacted]&offset=0`,
    );
  });

  it('a JWT under any name is masked; names that only end in key are not', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    expect(redactUrl(`https://x.example/p?state=${jwt}&invoiceKey=3526&sortKey=name&monkey=1&keyword=a`)).toBe(
      'https://x.example/p?state=[redacted]&invoiceKey=3526&sortKey=name&monkey=1&keyword=a',
    );
  });

  it("b2bctl's own listing parameters are never masked", () => {
    const own =
      'https://x.example/v1/orders?updatedFrom=2026-11-30T11%3A37%3A08.303Z&updatedTo=2026-11-30T12%3A37%3A06.446Z&limit=25&offset=0&status=READY_TO_SHIP&status=CANCELED&email=a%40b.example';
    expect(redactUrl(own)).toBe(own);
  });

  it('a form body follows the same names (an OAuth code grant)', () => {
    expect(redactBody('grant_type=authorization_code&code=C-1&redirect_uri=x')).toBe(
      'grant_type=authorization_code&code=[redacted]&redirect_uri=x',
    );
  });
});

// A user test: a name is a secret's by its words (split at case changes, `-`, `_`), not by a list of whole names.
describe('isSecretName: by the words of the name', () => {
  it.each([
    'Ocp-Apim-Subscription-Key',
    'Subscription-Key',
    'X-Gateway-Key',
    'X-Tenant-Key',
    'privateKey',
    'subscriptionKey',
    'jwt',
    'X-Auth',
    'x-auth-token',
    'clientCredential',
    'X-Goog-Signature',
    'apikey',
    'SENHA_ERP',
    'passwordConfirmation',
    'id_token',
    // A user test: a login answer's session and refresh values, and a session header, were shown in traces.
    'X-Session-Id',
    'sessionId',
    'session',
    'sessao',
    'sid',
    'refresh',
    'hmac',
    'assinatura',
  ])('%s is a secret', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each([
    'Idempotency-Key',
    'keyword',
    'monkey',
    'passport',
    'author',
    'token_type',
    'keyId',
    'authStyle',
    'sortKey',
    'invoiceKey',
    'public_key',
    'x-trace',
    'WWW-Authenticate',
    'chaveNfe',
    'sessionTimeout',
    'orderId',
    // A user test: names that say how a secret is made or used, or whose it is, were hidden in a login's trace.
    'signatureAlgorithm',
    'hmacAlgorithm',
    'sessionStatus',
    'assinaturaStatus',
    'refreshInterval',
    'sessionUser',
    // A user test: a customer's password expiry flag was masked in a --verbose trace.
    'passwordExpired',
    'password_expired',
  ])('%s is not', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

// A user test: a secret as a URL, a form and a JSON string write it.
describe('redactSecrets: the forms a quote may take', () => {
  it.each([
    ['Pw%Secr3t!', 'password=Pw%25Secr3t%21 or Pw%25Secr3t! or Pw%Secr3t!'],
    ['Sênha 2024', 'password=S%C3%AAnha+2024 or S%C3%AAnha%202024 or Sênha 2024'],
    ['a"b\\c', 'password=a%22b%5Cc or {"password":"a\\"b\\\\c"} or a"b\\c'],
  ])('%s', (secret, text) => {
    const safe = redactSecrets(text, [secret]);
    expect(safe.split(redacted).length).toBe(4);
    expect(safe).not.toMatch(/Secr3t|nha|%22b|b\\/);
  });

  it('a lone surrogate does not throw', () => {
    expect(redactSecrets('x \ud800 y', ['\ud800'])).toBe('x [redacted] y');
  });
});

describe('redactHeaders and redactBody: secrets by shape', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
  it('a Location with a password in its user-info, a JWT under any header name', () => {
    expect(redactHeaders({ location: 'https://u:p4ss@erp.example/x?token=t1', 'x-session': jwt })).toEqual({
      location: 'https://u:[redacted]@erp.example/x?token=[redacted]',
      'x-session': redacted,
    });
  });

  it('a JWT in a body field of any name, in JSON that does not parse too', () => {
    expect(redactBody(`{"state":"${jwt}","n":1}`)).toBe('{"state":"[redacted]","n":1}');
    expect(redactBody(`{"state":"${jwt}",}`)).toBe('{"state":"[redacted]",}');
  });
});

describe('shownUrl: a URL asked, as every message shows it', () => {
  it('masks a credential by its name and what the request carried, in the path or under any name', () => {
    const url = 'https://api.example/v1/stores/TOK-0123456789/items?api_key=K-1&t=TOK-0123456789&offset=5&limit=1';
    expect(shownUrl({ url, requestSecrets: ['TOK-0123456789'] })).toBe(
      'https://api.example/v1/stores/[redacted]/items?api_key=[redacted]&t=[redacted]&offset=5&limit=1',
    );
    expect(shownUrl({ url: new URL('https://api.example/x?sortKey=date&code=c1') })).toBe(
      'https://api.example/x?sortKey=date&code=[redacted]',
    );
  });
});
