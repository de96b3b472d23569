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
 * The strings redactSecrets looks for, in the order it replaces them: each non-empty secret as written and as a
 * JSON string writes it, the longest first.
 */
export function secretForms(secrets: readonly (string | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
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

/**
 * Names that end in a secret word: `password`, `clientSecret`, `access_token`, `x-api-key`, `senha`, `pwd`,
 * `x-access-key`, `signature`, `app-key`; not `token_type` or `passport`. `password_confirmation` and `x-senha` hold
 * one too (the second pattern: a secret word anywhere, as the Portuguese and confirmation names put it first).
 */
export const secretNamePattern =
  /(pass(word|wd)?|pwd|senha|secret|token|authorization|credentials?|api[-_]?key|access[-_]?key|app[-_]?key|signature)$|(password|passwd|senha|secret)/i;

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
    else if (secretNamePattern.test(name)) secrets.push(value);
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
