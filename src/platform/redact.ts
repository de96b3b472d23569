/** Keeps secrets out of traces, logs and messages. Pure. */

import { hideEchoedSecret, isCredentialPair, isSecretName, redacted, redactSecrets } from '../lib/secret-values.js';

export { redacted, redactSecrets } from '../lib/secret-values.js';

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
    } else if (isSecretHeader(name)) {
      safe[name] = redacted;
    } else {
      // Under any name: a `Location` to `https://user:password@…/?token=…`, a JWT in a header of the platform's own.
      safe[name] = redactTokensAndUserInfo(/^(content-)?location$/i.test(name) ? redactUrl(text) : text);
    }
  }
  return safe;
}

/**
 * Whether a header's value is a secret whole (`Authorization` aside, whose scheme is shown): a name that says it
 * holds one (isSecretName: `X-Api-Key`, `Ocp-Apim-Subscription-Key`), or a cookie, which opens a session as a token
 * does. One rule for what the trace masks (redactHeaders) and what a request's known secrets are (http-client.ts's
 * secretsOf), so that an answer echoing the header is masked wherever it is quoted: a 400 echoing the request's
 * headers showed the `Cookie` the trace masked (a user test).
 */
export function isSecretHeader(name: string): boolean {
  return isSecretName(name) || /^(cookie|set-cookie)$/i.test(name);
}

/** Names whose value is a secret whole, whatever its shape. */
const wholeSecretKey = /pass(word|wd)?|pwd|senha|secret|token/i;

/** A JSON Web Token inside a longer text (a header, a body's string, a sentence). */
const jsonWebTokenInText = /eyJ[\w-]*\.eyJ[\w-]*\.[\w-]*/g;

/** A URL's user-info with a password (`https://user:password@host`): the user stays, it says who. */
const urlUserInfoPassword = /([a-z][\w+.-]*:\/\/[^\s/?#@:"]*):[^\s/?#@"]*@/gi;

/**
 * A text with what is a secret by its shape alone masked, whatever name it stands under: a JWT (`{"state":"eyJ…"}`,
 * `X-Session: eyJ…`) and the password of a URL's user-info (`Location: https://u:[redacted]@host/`).
 */
export function redactTokensAndUserInfo(text: string): string {
  return text.replace(jsonWebTokenInText, redacted).replace(urlUserInfoPassword, `$1:${redacted}@`);
}

/**
 * A URL as it may be printed: the values of its query parameters that hold credentials replaced
 * (`?password=[redacted]`, `?key=[redacted]`; see isCredentialParameter): the parameters the plain-HTTP guard
 * refuses to send in clear, by the same rule.
 */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => (isCredentialPair(pair) ? `${pair.slice(0, pair.indexOf('='))}=${redacted}` : pair))
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** A URL asked, as shownUrl reads it: an answer's (`HttpResponse`), or a request's with the secrets it carried. */
export interface AskedUrl {
  readonly url: string | URL;
  /** The credentials the request carried (the profile's token, a header's key), masked under any name or in the path. */
  readonly requestSecrets?: readonly string[];
}

/**
 * A URL asked, as every message and trace line shows it: query values that carry credentials masked (redactUrl),
 * and what the request carried under any name or in the path (`?t=<token>`, `/session/<token>/renew`: the profile's
 * own token), as the trace masks it. Messages take the answer, not a URL string, so none can print one unmasked: a
 * paging stop of `api --paginate` printed `?api_key=` in clear beside two that masked it (a user test).
 */
export function shownUrl(asked: AskedUrl): string {
  return redactSecrets(redactUrl(String(asked.url)), asked.requestSecrets ?? []);
}

/** A request or response body as it may be printed: values of secret-looking keys replaced. */
export function redactBody(text: string): string {
  const body = redactTokensAndUserInfo(text);
  const trimmed = hideEchoedSecret(body).trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactValue(JSON.parse(trimmed)));
    } catch {
      // JSON that does not parse (a trailing comma, a missing brace: when --verbose is reached for): its text.
      return redactBrokenJson(body);
    }
  }
  if (/^[\w.%-]+=[^&]*(&[\w.%-]+=[^&]*)*$/.test(trimmed)) {
    return (
      trimmed
        .split('&')
        // A form is a query's grammar: the same names.
        .map((pair) => (isCredentialPair(pair) ? `${pair.slice(0, pair.indexOf('='))}=${redacted}` : pair))
        .join('&')
    );
  }
  return body;
}

/** A JSON text's tokens: strings (an unclosed one to the end), punctuation, and the bare words between. */
const jsonToken = /"(?:[^"\\]|\\.)*(?:"|$)|[{}[\]:,]|[^\s{}[\]:,"]+/g;

/**
 * JSON that does not parse, redacted in its text by the rules redactValue applies to parsed JSON: the value after a
 * secret-looking key, and every value inside an object or list under a password's or token's name. Whatever else
 * is broken stays as written, so the trace still shows the mistake.
 */
function redactBrokenJson(text: string): string {
  const tokens = [...text.matchAll(jsonToken)];
  const hidden = new Set<number>();
  let depth = 0;
  /** The depth of the object or list under a whole secret's name being crossed, if any. */
  let secretDepth: number | undefined;
  const isScalar = (index: number) => {
    const first = tokens[index]?.[0][0];
    return first !== undefined && !'{}[]:,'.includes(first);
  };
  // As redactValue reads parsed JSON: a true, false or null is no secret under any name.
  const isSecretScalar = (index: number) => isScalar(index) && !/^(true|false|null)$/.test(tokens[index]?.[0] ?? '');
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]?.[0] as string;
    if (token === '{' || token === '[') depth++;
    else if (token === '}' || token === ']') {
      depth--;
      if (secretDepth !== undefined && depth < secretDepth) secretDepth = undefined;
    } else if (isScalar(index) && tokens[index + 1]?.[0] === ':') {
      const name = token.startsWith('"') ? token.slice(1, token.endsWith('"') ? -1 : undefined) : token;
      if (!isSecretName(name)) continue;
      const value = tokens[index + 2]?.[0];
      if (isSecretScalar(index + 2)) hidden.add(index + 2);
      else if ((value === '{' || value === '[') && wholeSecretKey.test(name)) secretDepth ??= depth + 1;
      index++;
    } else if (secretDepth !== undefined && isSecretScalar(index)) hidden.add(index);
  }
  let safe = '';
  let from = 0;
  for (const index of hidden) {
    const token = tokens[index] as RegExpExecArray;
    safe += `${text.slice(from, token.index)}"${redacted}"`;
    from = token.index + token[0].length;
  }
  return safe + text.slice(from);
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        // Under a password's or a token's name everything is the secret (`{"password":{"new":…,"old":…}}`); a
        // `credentials` object is a container, searched. A true or false is no secret under any name.
        isSecretName(key) &&
        inner !== null &&
        typeof inner !== 'boolean' &&
        (typeof inner !== 'object' || wholeSecretKey.test(key))
          ? redacted
          : redactValue(inner),
      ]),
    );
  }
  return value;
}
