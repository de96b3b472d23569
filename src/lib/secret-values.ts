/**
 * Known secret values (a password, a token, a URL's key) and the text that may quote them: what another system
 * answers is quoted in logs, reports and stores, and an answer may echo the credential it was sent (an auth
 * middleware's error page, a validation framework's "value X is not allowed"). Pure.
 */

export const redacted = '[redacted]';

/**
 * Values shorter than this are masked only where they stand alone, not inside a longer word or number: a 3-letter
 * password is still a password, and is masked where an answer quotes it (`value "abc" is not allowed`, `pw=abc`),
 * but `?v=1` in a forward URL (every query value counts as a secret) must not turn an ERP's `HTTP 401` into
 * `HTTP 40[redacted]`, nor a password `erp` the name `erpnext`. Longer values are masked wherever they
 * occur, as written.
 */
const shortestMaskedInsideWords = 4;

/**
 * Replaces every occurrence of known secret strings (a password, a token) in free text, in every spelling a quote of
 * it may take (spellingsOf): as written, as a JSON string writes it, as a URL, a form or an HTML page writes it, and
 * for a long one split by a line break. Every non-empty secret, however short (see shortestMaskedInsideWords). The
 * longest first, so a secret that holds another (`user:password` and `password`) leaves no piece of itself behind.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let safe = text;
  const distinct = [...new Set(secrets)].filter((secret): secret is string => Boolean(secret));
  for (const secret of distinct.toSorted((a, b) => b.length - a.length))
    safe = safe.replace(spellingsOf(secret), redacted);
  return safe;
}

/**
 * Secrets this long or longer are masked also when whitespace splits them (`PlainToken\nSecret…`): a message that
 * wraps at a fixed width breaks a token wherever the width ends, and b2bctl shows that line break as a space. Shorter
 * ones only whole: `ab cd` in a platform's words is more likely words than a password `abcd` wrapped.
 */
const shortestMaskedWhenSplit = 8;

/** What may stand between two characters of a long secret: whitespace, as written or as JSON escapes it. */
const splitBy = String.raw`(?:\s|\\[nrt]|\\u000[9aAdD])*`;

/** The patterns of spellingsOf, by secret: a bulk run masks the same token in every failure it quotes. */
const spellingsCache = new Map<string, RegExp>();

/**
 * Every way a quote may spell `secret`, as one pattern: each character as written or in any escape of the closed sets
 * a quoting layer uses, whichever characters it chose to escape: a JSON string's (`\/` for `/`, PHP's json_encode
 * default; `\u00ea` for `ê`, Python's and PHP's; `\u0026` for `&`, Go's; `\"`, `\\`), a URL's and a form's
 * (`%2F`, `%C3%AA`, `+` for a space), an HTML page's (`&#x2f;`, `&#47;`, `&amp;`). A long secret may be split by
 * whitespace (shortestMaskedWhenSplit), a short one only where it stands alone (shortestMaskedInsideWords). So the
 * mask reads the text as the reader will once it is decoded, without decoding it first (and losing where the secret
 * was), and a new encoder's choice of what to escape needs no new form.
 */
function spellingsOf(secret: string): RegExp {
  const cached = spellingsCache.get(secret);
  if (cached) return cached;
  const characters = [...secret];
  const between = characters.length >= shortestMaskedWhenSplit ? splitBy : '';
  let pattern = characters.map(spellingsOfCharacter).join(between);
  if (characters.length < shortestMaskedInsideWords) {
    const before = wordCharacter.test(characters.at(0) ?? '') ? '(?<![\\p{L}\\p{N}])' : '';
    const after = wordCharacter.test(characters.at(-1) ?? '') ? '(?![\\p{L}\\p{N}])' : '';
    pattern = `${before}${pattern}${after}`;
  }
  const spellings = new RegExp(pattern, 'gu');
  if (spellingsCache.size >= 512) spellingsCache.clear();
  spellingsCache.set(secret, spellings);
  return spellings;
}

/** The escapes of one character a JSON string, an HTML page or a URL may write it as (spellingsOf). */
function spellingsOfCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  const units = character.length === 1 ? [code] : [character.charCodeAt(0), character.charCodeAt(1)];
  const spellings = [
    units.map((unit) => `\\\\u${anyCase(unit.toString(16).padStart(4, '0'))}`).join(''),
    `&#[xX]0*${anyCase(code.toString(16))};`,
    `&#0*${code};`,
    [...Buffer.from(character, 'utf8')].map((byte) => `%${anyCase(byte.toString(16).padStart(2, '0'))}`).join(''),
    ...(shortEscapes[character] ?? []),
    escapedForPattern(character),
  ];
  return `(?:${spellings.join('|')})`;
}

/** The other escapes of a character: JSON's short ones, HTML's named references, a form's `+` for a space. */
const shortEscapes: Readonly<Record<string, readonly string[]>> = {
  '"': ['\\\\"', '&quot;'],
  '\\': ['\\\\\\\\'],
  '/': ['\\\\/'],
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  "'": ['&apos;'],
  ' ': ['\\+'],
};

/** Hex digits as a pattern that takes them in either case (`\u00EA` as `\u00ea`). */
function anyCase(hex: string): string {
  return hex.replace(/[a-f]/g, (letter) => `[${letter}${letter.toUpperCase()}]`);
}

/** A secret's character as a pattern that takes it as written: a secret is text, not a pattern. */
function escapedForPattern(character: string): string {
  return character.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The fixed strings a store's SQL replace() looks for in the text it kept (dead-letter-scrub.ts), which cannot match
 * a pattern as redactSecrets does: each non-empty secret as written, as a JSON string writes it by default and as the
 * common encoders write it (PHP's `\/` and `\u00ea`, Python's `\u00ea`, Go's `\u0026` `\u003c` `\u003e`), and as a
 * URL or a form writes it: encodeURIComponent's (`Pw%25Secr3t!`) and a form's, which URLSearchParams writes with `+`
 * for a space and `!'()~` escaped too (`Pw%25Secr3t%21`, `S%C3%AAnha+2024`). The longest first.
 */
function secretForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    const json = JSON.stringify(secret).slice(1, -1);
    const asciiOnly = json.replace(
      /[\u0080-\uffff]/g,
      (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    forms.add(secret);
    forms.add(json);
    forms.add(asciiOnly);
    forms.add(asciiOnly.replaceAll('/', '\\/'));
    forms.add(json.replace(/[&<>]/g, (character) => `\\u00${character.charCodeAt(0).toString(16)}`));
    forms.add(uriEncodedSafely(secret));
    forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  }
  return [...forms].toSorted((a, b) => b.length - a.length);
}

/**
 * The forms a store masks in the text it kept (secretForms), but those shorter than shortestMaskedInsideWords, which
 * redactSecrets masks only where they stand alone (SQL's replace() cannot tell): each of them is masked by
 * redactSecrets too, which masks more (a secret split by a line break, an HTML page's `&#x2f;`).
 */
export function formsMaskedAnywhere(secrets: readonly (string | undefined)[]): string[] {
  return secretForms(secrets).filter((form) => form.length >= shortestMaskedInsideWords);
}

/** encodeURIComponent's form, or the text as written when it holds half a surrogate pair: masking must never throw. */
function uriEncodedSafely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A letter or digit, of any script: what a word or number is made of. */
const wordCharacter = /[\p{L}\p{N}]/u;

/** The words that make a name a secret's: `privateKey`, `Ocp-Apim-Subscription-Key`, `x-auth`, `jwt`, `senha`. */
const secretWords = new Set([
  'key',
  'apikey',
  'secret',
  'token',
  'password',
  'passwd',
  'pwd',
  'pass',
  'senha',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'signature',
  'jwt',
  'bearer',
]);

/** A word that holds a secret word whole (`apikey`, `xtoken`, `passwordconfirmation`): written as one word. */
const secretWordInside = /password|passwd|senha|secret|(api|access|private|secret)key$|token$|credentials?$|signature$/;

/**
 * Words before `key` that make it a name, not a credential: an idempotency key is sent to be seen again, a public key
 * is public, a sort, cache or partition key names a record.
 */
const plainKeyKinds = new Set([
  'idempotency',
  'public',
  'sort',
  'cache',
  'partition',
  'primary',
  'foreign',
  'unique',
  'natural',
  'routing',
  'lookup',
  'object',
  'dedup',
  'deduplication',
  'invoice',
  'group',
  'translation',
  'message',
]);

/**
 * Last words that make a name say something about a secret rather than hold one: `token_type`, `keyId`,
 * `password_expires_at`, `authStyle`, `tokenUrl`.
 */
const describingWords = new Set([
  'type',
  'types',
  'expires',
  'expiry',
  'expiration',
  'at',
  'in',
  'id',
  'url',
  'uri',
  'endpoint',
  'path',
  'route',
  'style',
  'scheme',
  'name',
  'kind',
  'length',
  'count',
  'policy',
  'hint',
  'format',
  'version',
  'required',
  'enabled',
]);

/** A header's, field's or variable's name in its words: split at `-`, `_`, `.`, spaces, digits and case changes. */
function wordsOfName(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/**
 * Whether a name says its value is a secret, by its words rather than a list of whole names: one of them is a secret
 * word (`key`, `secret`, `token`, `password`, `senha`, `auth`, `credential`, `signature`, `jwt`…) or holds one
 * written as one word (`apikey`, `passwordconfirmation`). Words first, so `monkey`, `keyword`, `passport` and
 * `author` are no secret's; a `key` after a word of plainKeyKinds (`Idempotency-Key`, `sortKey`) names a record, and a
 * name whose last word describes (`token_type`, `keyId`, `authStyle`) says something about a secret, not it.
 */
export function isSecretName(name: string): boolean {
  const words = wordsOfName(name);
  const last = words.at(-1);
  if (last === undefined || describingWords.has(last)) return false;
  return words.some((word, index) => {
    if (word === 'key') return !plainKeyKinds.has(words[index - 1] ?? '');
    return secretWords.has(word) || secretWordInside.test(word);
  });
}

/**
 * The credentials a URL carries: its user-info's password and every query value, as written and decoded. Every query value, as urlShownSafely hides them all: b2bctl cannot tell `?code=` (an Azure
 * Function's key) from `?format=`.
 */
export function secretsOfUrl(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const secrets: string[] = [];
  if (url.password !== '') secrets.push(url.password, decodedSafely(url.password));
  for (const pair of url.search.slice(1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals < 0) continue;
    const value = pair.slice(equals + 1);
    secrets.push(value, decodedSafely(value.replaceAll('+', ' ')));
  }
  return secrets.filter((secret) => secret !== '');
}

/**
 * The secrets of an `Authorization` header: its credential as sent (a token, Basic's base64), and for Basic the
 * password it encodes. The user is no secret (`usr:[redacted]` still says who was refused), and masked, a user `erp`
 * would hide every word that holds it.
 */
export function secretsOfAuthorization(header: string | undefined): string[] {
  if (header === undefined) return [];
  const credential = header.replace(/^\S+\s+/, '');
  if (!/^basic\s/i.test(header)) return [credential];
  return [credential, passwordOfPair(Buffer.from(credential, 'base64').toString('utf8'))];
}

/** The password of a `user:password` pair (all of it without a colon: then it cannot tell which part is which). */
function passwordOfPair(pair: string): string {
  const colon = pair.indexOf(':');
  return colon < 0 ? pair : pair.slice(colon + 1);
}

/**
 * The secrets of environment variables a command is given: the value of one named like a secret
 * (`ERP_PASSWORD`, `API_TOKEN`, `B2BCTL_WEBHOOK_FORWARD_BASIC`), and the credentials of one that holds a URL
 * (`DATABASE_URL=postgres://user:password@host/db`).
 */
export function secretsOfVariables(variables: Readonly<Record<string, string | undefined>>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(variables)) {
    if (!value) continue;
    // A `user:password` pair (`B2BCTL_WEBHOOK_FORWARD_BASIC`): its password, as in a Basic header.
    if (/(^|_)basic$/i.test(name)) secrets.push(passwordOfPair(value));
    else if (isSecretName(name)) secrets.push(value);
    if (/^[a-z][\w+.-]*:\/\//i.test(value)) secrets.push(...secretsOfUrl(value));
  }
  return secrets;
}

/** A URL's part decoded, or as written when its escapes are broken: masking must never throw. */
function decodedSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The platform's 422 wording quotes the value it refused (`Property [password] with value [...]`): for a property
 * whose name says it is secret, that value is `[redacted]`, wherever the text goes (a report, an error, a trace). A
 * value masked already (`[redacted]`, its own brackets inside the message's) is one value, not `[redacted` and a
 * stray `]` (`[[redacted]]]` in a report, a user test). One rule for every place that quotes such an answer.
 */
export function hideEchoedSecret(text: string): string {
  return text.replace(
    /(Property \[[^\]]*(?:pass(?:word|wd)?|secret|token)[^\]]*\] with value \[)(?:\[redacted\]|[^\]]*)(\])/gi,
    `$1${redacted}$2`,
  );
}
