import { millisecondsIn, parseDuration } from '../domain/duration.js';
import { parseStoreStatusWords, type StoreStatusWords } from '../domain/store-status-words.js';
import type { ParsedSetting, SettingParser } from './setting-definition.js';

/**
 * The parsers of the settings table: each turns a setting's text into its typed value, or says what is wrong in
 * words that follow the key (`"http.retries" must be a whole number, not "three"`). Pure.
 */

const valid = <Value>(value: Value): ParsedSetting<Value> => ({ ok: true, value });
const invalid = (problem: string, hint?: string): ParsedSetting<never> => ({ ok: false, problem, hint });

/** A whole number from `minimum` up, such as a retry count or a list index. */
export function wholeNumber(minimum = 0): SettingParser<number> {
  const expects = minimum === 0 ? 'whole number (0 or more)' : `whole number of at least ${minimum}`;
  return {
    expects,
    parse: (text) =>
      /^\d+$/.test(text) && Number(text) >= minimum && Number.isSafeInteger(Number(text))
        ? valid(Number(text))
        : invalid(`must be a ${expects}`),
  };
}

/** A size in megabytes (a whole number), or `off`: undefined. */
export const megabytesOrOff: SettingParser<number | undefined> = {
  expects: 'whole number of MB, or off',
  parse: (text) =>
    text === 'off'
      ? valid(undefined)
      : /^\d+$/.test(text) && Number.isSafeInteger(Number(text))
        ? valid(Number(text))
        : invalid('must be a whole number of MB (0 or more) or off'),
};

/**
 * A length of time in milliseconds, in the one grammar of src/domain/duration.ts: a bare number counts in `unit`
 * (as the setting always has, so old profiles keep their meaning), or the text carries its own unit: `500ms`,
 * `1.5s`, `5m`, `1h`, `1d`. `max` is in `unit` too.
 */
export function duration(unit: 'ms' | 's', max?: number, minMs = 0): SettingParser<number> {
  const name = unit === 'ms' ? 'milliseconds' : 'seconds';
  const range =
    max !== undefined ? ` from 0 to ${max}` : minMs > 0 ? ` of at least ${minMs / millisecondsIn(unit)}` : '';
  const examples = max === undefined ? '30s, 5m or 1h' : `${Math.min(2, max)}s or ${max * 300}ms`;
  const problem = `must be a number of ${name}${range} (or a time such as ${examples})`;
  return {
    expects: `${name}${range} (or ${examples})`,
    parse: (text) => {
      const milliseconds = parseDuration(text, unit);
      if (milliseconds === undefined) return invalid(problem);
      if (max !== undefined && milliseconds > max * millisecondsIn(unit)) return invalid(problem);
      if (milliseconds < minMs) return invalid(problem);
      return valid(milliseconds);
    },
  };
}

/**
 * The per-request time-out (`http.timeout`, `B2BCTL_TIMEOUT`, and the `--timeout` flag through the same parser): a
 * bare number is milliseconds, as it always was, and anything under 100 ms is refused, since it would time every
 * request out before it could be answered.
 */
export const requestTimeout: SettingParser<number> = duration('ms', undefined, 100);

/**
 * `store.example.com` or `localhost:8787` (which URL reads as the scheme "localhost:") with the scheme that was left
 * out: http:// for this machine, where the platform is a sandbox or a tunnel, https:// for any other host. Undefined
 * when the text does not start with a host.
 */
export function withGuessedScheme(text: string): string | undefined {
  const local = /^(?:localhost|127\.|\[::1\])/i.test(text);
  const hostFirst = /^(?:[\w-]+(?:\.[\w-]+)*|\[::1\])(?::\d+)?(?:\/\S*)?$/.test(text);
  return hostFirst ? `${local ? 'http' : 'https'}://${text}` : undefined;
}

/** An absolute http:// or https:// URL, kept as written (base URLs are normalised where they are compared). */
export const httpUrl: SettingParser<string> = {
  expects: 'http:// or https:// URL',
  parse: (text) => {
    // The scheme was left out, and the fix is plain.
    const guessed = withGuessedScheme(text);
    const hint = guessed ? `It has no scheme: did you mean ${guessed}?` : undefined;
    try {
      const url = new URL(text);
      return url.protocol === 'http:' || url.protocol === 'https:'
        ? valid(text)
        : invalid('must be an http:// or https:// URL', hint);
    } catch {
      return invalid('must be an absolute URL such as https://store.example.com', hint);
    }
  },
};

/**
 * The platform's base URL: an http:// or https:// URL without a user or password in it. Those would be kept in the
 * profile in clear and shown by whoami and config list, and b2bctl logs in with its own credentials anyway. Nor
 * with a query: each request's path and query are b2bctl's own, so `?api_key=…` would be shown in every summary
 * line and run record and sent with no request.
 */
export const platformUrl: SettingParser<string> = {
  expects: httpUrl.expects,
  parse: (text) => {
    const parsed = httpUrl.parse(text);
    if (!parsed.ok) return parsed;
    const url = new URL(text);
    if (url.username !== '' || url.password !== '')
      return invalid(
        'must not hold a user or password (user:password@): b2bctl logs in as the integration user with b2bctl login --username',
      );
    if (url.search !== '')
      return invalid(
        "must not hold a query (?name=value): b2bctl would send it with no request; give the address alone (b2bctl api -H 'Name: value' sends a header of your own)",
      );
    return parsed;
  },
};

/** One of a few words, typed as their union. */
export function oneOf<const Word extends string>(words: readonly Word[]): SettingParser<Word> {
  return {
    expects: words.join(', '),
    parse: (text) =>
      (words as readonly string[]).includes(text) ? valid(text as Word) : invalid(`must be one of ${words.join(', ')}`),
  };
}

/**
 * A route on the platform or the receiver: a path from the root, `:name` marking a parameter. The one rule for every
 * route b2bctl joins to a base URL and sends a credential to (the `paths.*` and `webhook.paths.*` settings, `webhook
 * trigger --token-path` and `--event-path`, the sandbox's token routes): a whole URL, `//host/…` or `/\host/…`
 * would take the credential to another host.
 */
export const routePath: SettingParser<string> = {
  expects: 'path starting with /',
  parse: (text) =>
    !text.startsWith('/')
      ? invalid('must start with /')
      : /^\/[/\\]/.test(text)
        ? invalid("must start with a single / (one that starts with // or /\\ reads as another host's address)")
        : // A URL drops every tab and line break before it reads the rest: `/<tab>/host/…` is `//host/…`.
          /[\t\n\r]/.test(text)
          ? invalid(
              "must not hold a tab or line break (a URL drops them, so the rest may read as another host's address)",
            )
          : valid(text),
};

/** Where an answer holds a value: a dot path such as `data.items` (`0` for a list item). */
export const dotPath: SettingParser<string> = {
  expects: 'dot path such as data.items',
  parse: (text) =>
    /^[^.\s]+(\.[^.\s]+)*$/.test(text) ? valid(text) : invalid('must be a dot path such as data.items'),
};

/**
 * A charset Node's TextDecoder reads (`windows-1252`, `ISO-8859-1`, `utf-16le`): checked here, so a name `config set`
 * accepts is one every answer can be read in.
 */
export const charsetName: SettingParser<string> = {
  expects: 'charset such as windows-1252',
  parse: (text) => {
    try {
      // Its WHATWG name (`latin1` is `windows-1252`), which TextDecoder takes again wherever the answer is read.
      return valid(new TextDecoder(text).encoding);
    } catch {
      return invalid('must be a charset b2bctl can decode, such as windows-1252, ISO-8859-1 or UTF-8');
    }
  },
};

/** The integration user: an e-mail, so no spaces (a paste of `erp@loja.com.br ` would be refused at every login). */
export const loginName: SettingParser<string> = {
  expects: 'e-mail without spaces',
  parse: (text) =>
    text !== '' && !/\s/.test(text)
      ? valid(text)
      : invalid('must be the integration user, an e-mail such as erp@mystore.com.br, without spaces'),
};

/** A file or folder on this machine, as written (relative to where b2bctl runs). */
export const localPath: SettingParser<string> = {
  expects: 'path on this machine',
  parse: (text) =>
    text.trim() === text && text !== '' ? valid(text) : invalid('must be a path without spaces around it'),
};

/** An instant as b2bctl writes it (ISO-8601). */
export const isoInstant: SettingParser<string> = {
  expects: 'ISO-8601 time',
  parse: (text) => (Number.isNaN(Date.parse(text)) ? invalid('must be an ISO-8601 time') : valid(text)),
};

/** A store's own status words as b2bctl's stages: `PRONTO_PARA_ENVIO=READY_TO_SHIP,CANCELADO=CANCELED`. */
export const storeStatusWords: SettingParser<StoreStatusWords> = {
  expects: 'list of THEIRS=OURS, such as PRONTO_PARA_ENVIO=READY_TO_SHIP,CANCELADO=CANCELED',
  parse: (text) => {
    const read = parseStoreStatusWords(text);
    return 'problem' in read ? invalid(read.problem) : valid(read.words);
  },
};
