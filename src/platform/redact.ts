/** Keeps secrets out of traces, logs and messages. Pure. */

export const redacted = '[redacted]';

// Names that end in a secret word: `password`, `clientSecret`, `access_token`, `x-api-key`, `senha`, `pwd`,
// `x-access-key`, `signature`, `app-key`; not `token_type` or `passport`. `password_confirmation` and `x-senha` hold one
// too (the second pattern: a secret word anywhere, as the Portuguese and confirmation names put it first).
const secretKeyPattern =
  /(pass(word|wd)?|pwd|senha|secret|token|authorization|credentials?|api[-_]?key|access[-_]?key|app[-_]?key|signature)$|(password|passwd|senha|secret)/i;

/** Headers as they may be printed: credentials replaced, the scheme kept. */
export function redactHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): Record<string, string> {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (/^(authorization|proxy-authorization)$/i.test(name)) {
      const scheme = /^(\S+)\s/.exec(text)?.[1];
      safe[name] = scheme ? `${scheme} ${redacted}` : redacted;
    } else if (secretKeyPattern.test(name) || /^(cookie|set-cookie)$/i.test(name)) {
      safe[name] = redacted;
    } else {
      safe[name] = text;
    }
  }
  return safe;
}

/** Names whose value is a secret whole, whatever its shape. */
const wholeSecretKey = /pass(word|wd)?|pwd|senha|secret|token/i;

/** A URL as it may be printed: the values of its secret-looking query parameters replaced (`?password=[redacted]`). */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && secretKeyPattern.test(decodedName(name)) ? `${name}=${redacted}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** A request or response body as it may be printed: values of secret-looking keys replaced. */
export function redactBody(body: string): string {
  const trimmed = redactValidationEcho(body).trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactValue(JSON.parse(trimmed)));
    } catch {
      // Not JSON after all: fall through to the form rule.
    }
  }
  if (/^[\w.%-]+=[^&]*(&[\w.%-]+=[^&]*)*$/.test(trimmed)) {
    return trimmed
      .split('&')
      .map((pair) => {
        // Only the first "=" ends the name; a value may hold more.
        const name = pair.slice(0, pair.indexOf('='));
        return secretKeyPattern.test(decodedName(name)) ? `${name}=${redacted}` : pair;
      })
      .join('&');
  }
  return body;
}

/** A form field's name decoded, or as written when its escapes are broken: tracing must never throw. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        // Under a password's or a token's name everything is the secret (`{"password":{"new":…,"old":…}}`); a
        // `credentials` object is a container, searched.
        secretKeyPattern.test(key) && inner !== null && (typeof inner !== 'object' || wholeSecretKey.test(key))
          ? redacted
          : redactValue(inner),
      ]),
    );
  }
  return value;
}

/** Replaces every occurrence of known secret strings (a password, a token) in free text. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let safe = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) safe = safe.split(secret).join(redacted);
  }
  return safe;
}

/**
 * The platform's 422 wording quotes the value it refused: `Property [password] with value [...]`.
 * For a secret-looking property that value is replaced, wherever the text goes (report, error, trace).
 */
export function redactValidationEcho(text: string): string {
  return text.replace(
    /(Property \[[^\]]*(?:pass(?:word|wd)?|secret|token)[^\]]*\] with value \[)[^\]]*(\])/gi,
    `$1${redacted}$2`,
  );
}
