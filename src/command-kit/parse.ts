import { InvalidArgumentError } from 'commander';
import type { SettingParser } from '../config/setting-definition.js';
import { parseDuration, type TimeUnit } from '../domain/duration.js';
import {
  httpUrl as httpUrlSetting,
  requestTimeout as requestTimeoutSetting,
  routePath as routePathSetting,
  wholeNumber as wholeNumberSetting,
} from '../config/setting-parsers.js';

/**
 * A flag parser from a parser of the settings table, so a flag and a setting that take the same kind of value
 * accept the same texts and say the same words: the setting's "must be a whole number" is the flag's "expected a
 * whole number." (commander puts the flag and the value before it).
 */
function flagParser<Value>(parser: SettingParser<Value>): (value: string) => Value {
  return (value) => {
    const parsed = parser.parse(value.trim());
    if (parsed.ok) return parsed.value;
    const problem = parsed.problem.replace(/^must be /, 'expected ');
    throw new InvalidArgumentError(`${problem}.${parsed.hint === undefined ? '' : ` ${parsed.hint}`}`);
  };
}

/** A flag value that must be a whole number, at least `minimum`; anything else is a usage error (exit 2). */
export function wholeNumber(minimum = 0): (value: string) => number {
  return flagParser(wholeNumberSetting(minimum));
}

/** A TCP port to listen on: 0 (a free one) to 65535; anything else is a usage error (exit 2), not the socket's. */
export function port(value: string): number {
  const number = wholeNumber(0)(value);
  if (number > 65_535) throw new InvalidArgumentError('expected a port from 0 to 65535 (0 picks a free one).');
  return number;
}

/** A flag value that must be a share between 0 and 1, such as 0.05. */
export function fraction(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new InvalidArgumentError('expected a number from 0 to 1, such as 0.05.');
  }
  return number;
}

/** A flag value that must be a positive number, such as a rate of 2.5 requests per second. */
export function positiveNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new InvalidArgumentError('expected a number above 0, such as 20 or 2.5.');
  }
  return number;
}

/** A flag value that is any number, negative too, such as a clock offset of -90 seconds. */
export function signedNumber(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number))
    throw new InvalidArgumentError('expected a number of seconds, such as 90 or -90.');
  return number;
}

/** `--delimiter`: one character, or the words `tab`, `comma`, `semicolon`. */
export function delimiter(value: string): string {
  const named: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';' };
  const chosen = named[value.toLowerCase()] ?? value;
  if (chosen.length !== 1) throw new InvalidArgumentError('expected one character, or tab, comma or semicolon.');
  return chosen;
}

/**
 * `--timeout`: read by the http.timeout setting's own parser, so the flag takes what B2BCTL_TIMEOUT and config set
 * take (`30s`, `500ms`, a bare number of milliseconds) and refuses what they refuse, in the same words.
 */
export const requestTimeout: (value: string) => number = flagParser(requestTimeoutSetting);

/** The help of every `--timeout` flag: it takes a unit, and a bare number keeps its old meaning. */
export const requestTimeoutHelp = 'per-request timeout, such as 30s or 500ms; a bare number is milliseconds';

/** A flag value that must be an absolute http:// or https:// URL. */
export const httpUrl: (value: string) => string = flagParser(httpUrlSetting);

/**
 * A route flag joined to a base URL (`webhook trigger --token-path`): read by the `paths.*` settings' own parser, so
 * a whole URL, `//host/…` or `/\host/…`, which would take the credential to another host, is refused as there.
 */
export const routePath: (value: string) => string = flagParser(routePathSetting);

/** `30d`, `12h`, `15m`, `90s`, `500ms` (the grammar of src/domain/duration.ts) as milliseconds; a bare number is seconds. */
export function duration(value: string): number {
  const milliseconds = parseDuration(value, 's') ?? 0;
  if (milliseconds <= 0) throw new InvalidArgumentError('expected a duration such as 30d, 12h, 15m or 90s.');
  return milliseconds;
}

/** How long a wait kept by a timer may be, as a person writes it, and why no longer. */
export interface WaitLimit {
  maxMs: number;
  /** `maxMs` as the help and the error show it (`10s`). */
  shown: string;
  /** Two examples in the wait's own scale (`300ms or 2s`). */
  examples: string;
  /** Why a longer wait means nothing (`the ERP's request is closed then`). */
  why: string;
  /** What a number without its unit counts in; none: it is refused, being as likely meant in one unit as another. */
  bareUnit?: TimeUnit;
}

/**
 * A wait a timer keeps (`tax serve --budget`, the sandbox's `--tax-timeout`): the duration grammar, from 1 ms up
 * to a limit past which it means nothing. Node fires a timer past 24.8 days at once (with a TimeoutOverflowWarning),
 * so a wait that long would be none at all; a limit the command can honour is what it says instead.
 */
export function waitDuration(limit: WaitLimit): (value: string) => number {
  const range = `such as ${limit.examples}, at most ${limit.shown} (${limit.why})`;
  return (value) => {
    const milliseconds = parseDuration(value, limit.bareUnit);
    if (milliseconds === undefined && parseDuration(value, 'ms') !== undefined)
      throw new InvalidArgumentError(`expected a time with its unit, ${range}: "${value.trim()}" has none.`);
    if (milliseconds === undefined || milliseconds <= 0 || milliseconds > limit.maxMs)
      throw new InvalidArgumentError(`expected a time ${range}.`);
    return milliseconds;
  };
}

/**
 * A filter's text, which must hold something: `--email "$EMAIL"` with the variable unset would otherwise filter
 * nothing, and a script taking the first rep listed would take anyone's.
 */
export function filterText(value: string): string {
  if (value.trim() === '')
    throw new InvalidArgumentError('expected some text to look for; leave the flag out to list every one.');
  return value;
}

/**
 * A flag that names what a command acts on (--profile, --base-url), given once: two different values on one command
 * line (a wrapper script adding its own, `--profile a whoami --profile b`) acted on the last without a word (a user
 * test), which is the risk an empty --profile is refused for. The same value twice is one value.
 */
export function givenOnce(
  parse: (value: string) => string,
  flag: string,
): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    const parsed = parse(value);
    if (previous !== undefined && previous !== parsed)
      throw new InvalidArgumentError(
        `${flag} is given twice, as ${JSON.stringify(previous)} and ${JSON.stringify(parsed)}: one command line acts on one, so give ${flag} once.`,
      );
    return parsed;
  };
}

/**
 * A flag value that may not be empty: `--profile "$STORE"` with the variable unset would otherwise fall through to the
 * default, and a script meant for one store would act on another.
 */
export function nonEmpty(what: string, flag: string, withoutIt: string): (value: string) => string {
  return (value) => {
    if (value.trim() === '')
      throw new InvalidArgumentError(
        `expected ${what}, not an empty text (an unset shell variable?); leave ${flag} out to use ${withoutIt}.`,
      );
    return value;
  };
}
