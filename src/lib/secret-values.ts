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
 * Replaces every occurrence of known secret strings (a password, a token) in free text, as written and as a JSON
 * string writes it (a body quoted as it came: `"pass \"x\""`). Every non-empty secret, however short (see
 * shortestMaskedInsideWords). The longest first, so a secret that holds another (`user:password` and `password`)
 * leaves no piece of itself behind.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let safe = text;
  for (const form of secretForms(secrets))
    safe =
      form.length >= shortestMaskedInsideWords
        ? safe.split(form).join(redacted)
        : safe.replace(standingAlone(form), redacted);
  return safe;
}

/**
 * The strings redactSecrets looks for, in the order it replaces them, the longest first: each non-empty secret as
 * written, as a JSON string writes it (`a\\"b`), and as a URL or a form writes it: encodeURIComponent's
 * (`Pw%25Secr3t!`) and a form's, which URLSearchParams writes with `+` for a space and `!'()~` escaped too
 * (`Pw%25Secr3t%21`, `S%C3%AAnha+2024`). An answer quotes the request it was sent (a framework's error page, a
 * gateway's "Bad request: …"), and a form's password is in it only so. Every place that masks a secret takes them
 * from here.
 */
export function secretForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(uriEncodedSafely(secret));
    forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
  }
  return [...forms].toSorted((a, b) => b.length - a.length);
}

/**
 * The forms redactSecrets replaces wherever they occur, as written (the others only where they stand alone), in its
 * order: what a store can replace in the text it kept with SQL's replace() and leave what redactSecrets would.
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

/**
 * `form` where no letter or digit touches it (a text's edges, spaces, quotes, `=` and `:` do): one that starts or
 * ends with a letter or digit is not taken from inside a longer word or number. Escaped: a secret is text, not a
 * pattern.
 */
function standingAlone(form: string): RegExp {
  const escaped = form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const before = wordCharacter.test(form.at(0) ?? '') ? '(?<![\\p{L}\\p{N}])' : '';
  const after = wordCharacter.test(form.at(-1) ?? '') ? '(?![\\p{L}\\p{N}])' : '';
  return new RegExp(`${before}${escaped}${after}`, 'gu');
}

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
