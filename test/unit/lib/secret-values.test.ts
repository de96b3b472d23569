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

describe('redactSecrets: a secret in any spelling a quoting layer gives it (user tests)', () => {
  const token = 'AbCdEfGh/IjKlMnOp+QrStUvWx/YzTOKSECRET1234567890';
  it.each([
    // PHP's json_encode default: `/` as `\/`.
    ['{"message":"token AbCdEfGh\\/IjKlMnOp+QrStUvWx\\/YzTOKSECRET1234567890 is not allowed"}', [token]],
    // Every character a JSON encoder may write as \uXXXX, in either case (PHP, Python: non-ASCII; Go: & < >).
    ['{"message":"Invalid password \'S\\u00eanha2024xyz\' for user"}', ['Sênha2024xyz']],
    ['{"message":"Invalid password \'S\\u00EAnha2024xyz\' for user"}', ['Sênha2024xyz']],
    ['{"message":"Invalid password \'Pass\\u0026word\\u003c1\' for user"}', ['Pass&word<1']],
    ['{"m":"pw \\ud83d\\ude00smile-2024 refused"}', ['😀smile-2024']],
    // An HTML page's character references, hexadecimal, decimal and named.
    ['<p>token AbCdEfGh&#x2f;IjKlMnOp&#x2B;QrStUvWx&#47;YzTOKSECRET1234567890 lacks</p>', [token]],
    ['<p>password Pass&amp;word&lt;1 refused</p>', ['Pass&word<1']],
    // An HTML page that breaks it where a reader does not see it: a tag, a soft hyphen, a decimal reference.
    [
      '<p>A: PlainToken<wbr>SecretABCDEFGH1234567890</p><p>B: <span>PlainTokenSecret</span>ABCDEFGH1234567890</p>',
      ['PlainTokenSecretABCDEFGH1234567890'],
    ],
    [
      '<p>C: PlainToken&#83;ecretABCDEFGH1234567890 D: PlainTokenSecret&shy;ABCDEFGH1234567890</p>',
      ['PlainTokenSecretABCDEFGH1234567890'],
    ],
    // A URL's and a form's encoding, a character at a time.
    ['grant_type=password&password=S%C3%AAnha2024xyz', ['Sênha2024xyz']],
    ['q=AbCdEfGh%2fIjKlMnOp%2BQrStUvWx/YzTOKSECRET1234567890', [token]],
    // A long secret a message wrapped: a line break, as written or as JSON writes it, or the space b2bctl shows.
    [
      '{"message":"Invalid token:\\nPlainToken\\nSecretABCDEFGH1234567890\\n(expired)"}',
      ['PlainTokenSecretABCDEFGH1234567890'],
    ],
    ['Invalid token: PlainToken SecretABCDEFGH1234567890 (expired)', ['PlainTokenSecretABCDEFGH1234567890']],
    ['Invalid token: PlainToken\r\n  SecretABCDEFGH1234567890', ['PlainTokenSecretABCDEFGH1234567890']],
  ])('%s', (text, secrets) => {
    const safe = redactSecrets(text, secrets);
    expect(safe).toContain('[redacted]');
    for (const secret of secrets) {
      expect(safe).not.toContain(secret);
      // Nothing of it left beside the mask: no half of a wrapped token, no escaped tail.
      expect(safe).not.toContain(secret.slice(-8));
    }
  });

  it('what only looks like an escape is text: a broken one, and an escaped backslash before `u0061`', () => {
    expect(redactSecrets('100%zz off, &#xZZ; and \\q then Tok/Secret-99', ['Tok/Secret-99'])).toBe(
      '100%zz off, &#xZZ; and \\q then [redacted]',
    );
    // `\\u0061` is a backslash and the letters u0061 once decoded, but an `a` decoded twice, as a JSON text quoted in
    // a JSON string reads: masked, the safe side.
    expect(redactSecrets('{"m":"C:\\\\u0061bcd-long and abcd-long"}', ['abcd-long'])).toBe(
      '{"m":"C:[redacted] and [redacted]"}',
    );
  });

  it('two secrets that overlap in the text are one mask; two side by side stay two', () => {
    expect(redactSecrets('pair usr:pw\\/long-9 end', ['usr:pw/lo', 'pw/long-9'])).toBe('pair [redacted] end');
    expect(redactSecrets('x tok-1111tok-2222 y', ['tok-1111', 'tok-2222'])).toBe('x [redacted][redacted] y');
  });

  it('a short secret split by a space is words, not the secret; an escaped one standing alone is masked', () => {
    expect(redactSecrets('ab cd and abcd', ['abcd'])).toBe('ab cd and [redacted]');
    expect(redactSecrets('{"m":"pw \\u0061b! refused, HTTP 401"}', ['ab!', '1'])).toBe(
      '{"m":"pw [redacted] refused, HTTP 401"}',
    );
  });
});

describe('redactSecrets: the spellings a second quoting layer, HTML5 and Unicode give a secret (user tests)', () => {
  const token = 'AbCdEfGh/IjKlMnOp+QrStUvWx/YzTOKSECRET1234567890';
  it.each<[string, string[]]>([
    // A JSON text quoted as the string of another (a gateway quoting an upstream's PHP error): `\\/`, `\\u00ea`.
    [
      '{"message": "{\\"inner\\": \\"token AbCdEfGh\\\\/IjKlMnOp+QrStUvWx\\\\/YzTOKSECRET1234567890 denied\\"}"}',
      [token],
    ],
    ['{"message": "upstream: {\\"erro\\": \\"Senha S\\\\u00eanha#1001 invalida\\"}"}', ['Sênha#1001']],
    // A URL carried in another URL, encoded twice.
    ['token AbCdEfGh%252FIjKlMnOp%252BQrStUvWx%252FYzTOKSECRET1234567890 is not allowed', [token]],
    // HTML5's named references, and a numeric one without its `;`.
    ['<p>token AbCdEfGh&sol;IjKlMnOp&plus;QrStUvWx&sol;YzTOKSECRET1234567890 denied</p>', [token]],
    ['<p>token AbCdEfGh&#47IjKlMnOp&#43QrStUvWx&#47YzTOKSECRET1234567890 denied</p>', [token]],
    ['<p>C Senha&commat;2024&excl;&num;&dollar;x end</p>', ['Senha@2024!#$x']],
    ['<p>S&ecirc;nha&num;1001 invalida</p>', ['Sênha#1001']],
    // Any of HTML5's named references, and the legacy ones without their `;` as an HTML5 reader decodes them.
    ['<p>Senha S&Atilde;o&ccedil&lbrace;&frac12;&euro;&rcub;1001 invalida</p>', ['SÃoç{½€}1001']],
    ['<p>Senha &Acirc;&ntilde;o&ccedil;a&copy&para&sect;&pound;&yen;1001 invalida</p>', ['Âñoça©¶§£¥1001']],
    [
      '<p>Senha X&AMP&lt&GT&QUOT&nbsp&dash;&hyphen;&lsquo;&rsquo;&ndash;&mdash;&hellip;&trade;&bull;1001</p>',
      ['X&<>"\u00a0‐‐‘’–—…™•1001'],
    ],
    ['<p>Senha &Oopf;&fjlig;&nGt;&#x1F600;&#128;&#0;1001 invalida</p>', ['𝕆fj≫\u20d2😀€\ufffd1001']],
    // Split by what a reader does not see: bidi marks, other format and control characters, an ANSI colour code.
    ...['\u200e', '\u202c', '\u2062', '\u034f', '\u180e', '\u0085', '\b', '\u0000', '\u001b[0m'].map(
      (split): [string, string[]] => [`token AbCdEfGh/IjK${split}lMnOp+QrStUvWx/YzTOKSECRET1234567890 denied`, [token]],
    ),
    ['{"message":"token AbCdEfGh/IjK\\u200elMnOp+QrStUvWx/YzTOKSECRET1234567890 denied"}', [token]],
    // An --exec output's lines, joined in the receiver's log and dead letters.
    ['exit code 65: x Tok/En?>>S | ecret%2=abc y', ['Tok/En?>>Secret%2=abc']],
    // The other Unicode normal form: sent composed, quoted decomposed, and the reverse.
    ['Invalid password Se\u0302nha2024xyz for user', ['S\u00eanha2024xyz']],
    ['Invalid password S\u00eanha2024xyz for user', ['Se\u0302nha2024xyz']],
    ['{"m2":"php Se\\u0302nha2024xyz"}', ['S\u00eanha2024xyz']],
  ])('%s', (text, secrets) => {
    const safe = redactSecrets(text, secrets);
    expect(safe).toContain('[redacted]');
    for (const secret of secrets) expect(safe).not.toContain(secret.normalize('NFC').slice(-8));
    expect(safe).not.toMatch(/SECRET|2024|1001|ecret%2/);
  });

  it('the text around the mask is left as it came, and a nested quote without a secret is not changed', () => {
    expect(redactSecrets('<p>a &sol; b &#47 c&num; S&ecirc;nha&num;1001!</p>', ['Sênha#1001'])).toBe(
      '<p>a &sol; b &#47 c&num; [redacted]!</p>',
    );
    // Only the references of the secret are masked; a name HTML5 does not know, and a `&` alone, stand for themselves.
    expect(redactSecrets('<p>&zzz; &euro 5 & S&Atilde;o&ccedil&frac12;1001&hellip;</p>', ['SÃoç½1001'])).toBe(
      '<p>&zzz; &euro 5 & [redacted]&hellip;</p>',
    );
    const nested = '{"message": "{\\"inner\\": \\"path a\\\\/b %252F\\"}"}';
    expect(redactSecrets(nested, ['PlainTokenSecret123'])).toBe(nested);
    // A pipe that joins no lines, and a short secret across a split, are words.
    expect(redactSecrets('a | b and ab', ['ab'])).toBe('a | b and [redacted]');
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

describe('redactSecrets: a secret inside a Basic credential another program printed', () => {
  // A user test: `curl -v -u erp:$ERP_TOKEN` in an --exec command printed the token as Basic's base64, kept in clear.
  const token = 'ErpToken0123456789abcdef';
  const basic = Buffer.from(`erp:${token}`).toString('base64');

  it.each([
    [`> Authorization: Basic ${basic}`, '> Authorization: Basic [redacted]'],
    [`authorization: basic ${basic}\nnext line`, 'authorization: basic [redacted]\nnext line'],
  ])('%j is masked', (text, expected) => {
    expect(redactSecrets(text, [token])).toBe(expected);
  });

  it.each([
    // Base64url (`-` `_`), padded or not, as JWT-minded frameworks and Go's RawURLEncoding write it (a user test).
    ['Tok/En?>>Secret%2=abc', '> Authorization: Basic ZXJwOlRvay9Fbj8-PlNlY3JldCUyPWFiYw=='],
    ['Tok/En?>>Secret%2=abc', '> Authorization: Basic ZXJwOlRvay9Fbj8-PlNlY3JldCUyPWFiYw'],
  ])('%s in %j is masked', (secret, text) => {
    expect(redactSecrets(text, [secret])).toBe('> Authorization: Basic [redacted]');
  });

  it('the Basic credential b2bctl sent, quoted in base64url or without its padding, is masked without the word Basic', () => {
    const sent = Buffer.from('erp@x.com:pass?>>?word').toString('base64');
    const text = `creds b64url ${sent.replaceAll('/', '_')} nopad ${sent.replace(/=+$/, '')} urlnopad ${sent.replaceAll('/', '_').replace(/=+$/, '')} end`;
    expect(redactSecrets(text, [sent, 'pass?>>?word'])).toBe(
      'creds b64url [redacted] nopad [redacted] urlnopad [redacted] end',
    );
  });

  it('a Basic credential that holds no known secret, and base64 that is no credential, are left as they are', () => {
    const other = Buffer.from('erp:another-password-here').toString('base64');
    const text = `Authorization: Basic ${other}; data ${basic}`;
    expect(redactSecrets(text, [token])).toBe(text);
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

// A user test: an auth layer quoting a credential cut, upper-cased or in base64 had it shown.
describe('redactSecrets: a run of a secret', () => {
  const secret = 'Sé+cr/et=with&odd chars:0123456789abcdef';

  it('masks every run of 8 characters or more of a secret, case aside, as written, JSON-escaped or in base64', () => {
    expect(redactSecrets(`bad secret ${secret.slice(0, 20)}...`, [secret])).toBe('bad secret [redacted]...');
    expect(redactSecrets('bad S\\u00c9+CR/ET=WITH&ODD", x', [secret])).toBe('bad [redacted]", x');
    const base64 = Buffer.from(secret).toString('base64').slice(0, 24);
    expect(redactSecrets(`bad ${base64}…`, [secret])).toBe('bad [redacted]…');
    expect(redactSecrets(`whole ${secret} and cut ${secret.slice(9)}`, [secret])).toBe(
      'whole [redacted] and cut [redacted]',
    );
  });

  // A user test: a gateway's debug page quoted the password and a token as the hex of their bytes.
  it('masks the hex of a secret, lower or upper case, whole or a run of 8 hex digits (4 bytes) of it', () => {
    const password = 'Zq8#pLw3!mNx7vRt';
    const hex = Buffer.from(password).toString('hex');
    expect(redactSecrets(`bad password hex ${hex} end`, [password])).toBe('bad password hex [redacted] end');
    expect(redactSecrets(`HEX ${hex.toUpperCase()}.`, [password])).toBe('HEX [redacted].');
    expect(redactSecrets(`cut ${hex.slice(6, 14)}…`, [password])).toBe('cut [redacted]…');
    const accented = Buffer.from(secret).toString('hex');
    expect(redactSecrets(`dump ${accented.slice(0, 40)}`, [secret])).toBe('dump [redacted]');
    // 7 hex digits of it, or hex of something else, stay.
    expect(redactSecrets(`id ${hex.slice(0, 7)} and deadbeef0badf00d`, [password])).toBe(
      `id ${hex.slice(0, 7)} and deadbeef0badf00d`,
    );
  });

  it('leaves runs shorter than 8 characters, and secrets shorter than 8 masked only whole', () => {
    expect(redactSecrets('invalid secret Sé+cr/e (0123456)', [secret])).toBe('invalid secret Sé+cr/e (0123456)');
    expect(redactSecrets('pw abc1234 and abc12', ['abc1234'])).toBe('pw [redacted] and abc12');
  });

  it('leaves a run that reads as one word, masks one holding a digit, a sign inside or mixed case', () => {
    const words = 'check the username and the password piped to --password-stdin; PASSWORD, Password';
    expect(redactSecrets(words, ['wrong-password'])).toBe(words);
    expect(redactSecrets('bad wrong-passw… and WRONG-PASSWORD', ['wrong-password'])).toBe(
      'bad [redacted]… and [redacted]',
    );
    expect(
      redactSecrets('token AbCdEfGhIj… and abcdefgh1 and fwdtok-secr', ['AbCdEfGhIjKl', 'abcdefgh12', 'FWDTOK-SECRET']),
    ).toBe('token [redacted]… and [redacted] and [redacted]');
  });
});

// A user test: one `İ` anywhere in an answer had the runs of a secret looked for in the answer's own case only.
describe('redactSecrets: a run of a secret, case aside, whatever other letters the text holds', () => {
  const token = 'PlainTokenSecretA9x2Qw';

  it.each([
    ['a cut token', 'token PlainTokenSec… expired', 'token [redacted]… expired'],
    [
      'a cut token beside a dotted capital I',
      'token PlainTokenSec… expired (İstanbul gateway)',
      'token [redacted]… expired (İstanbul gateway)',
    ],
    ['an upper-cased token', 'TOKEN PLAINTOKENSECRETA9X2QW EXPIRED', 'TOKEN [redacted] EXPIRED'],
    [
      'an upper-cased token, then a dotted capital I',
      'TOKEN PLAINTOKENSECRETA9X2QW EXPIRED İ',
      'TOKEN [redacted] EXPIRED İ',
    ],
    ['a dotted capital I before the token', 'İİİ plaintokenSECRET… İ', 'İİİ [redacted]… İ'],
    ['a capital sharp s beside it', 'STRASSE ẞ PLAINTOKENSECRETA9…', 'STRASSE ẞ [redacted]…'],
    ['a Greek capital sigma ending a word beside it', 'ΟΔΟΣ plainTOKENsecret ΟΔΟΣ', 'ΟΔΟΣ [redacted] ΟΔΟΣ'],
  ])('%s', (_case, text, masked) => {
    expect(redactSecrets(text, [token])).toBe(masked);
  });

  it('a secret that holds such letters is found upper-cased or cut as well', () => {
    const secret = 'İstanbulΣ-9x2QwZ';
    expect(redactSecrets('key İSTANBULΣ-9X… and İstanbulσ-9x2qwz', [secret])).toBe('key [redacted]… and [redacted]');
  });
});
