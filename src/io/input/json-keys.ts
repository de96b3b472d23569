import type { InputError } from '../../base/errors.js';
import { headerKey } from '../../domain/header-aliases.js';
import { closestName } from '../../lib/suggest.js';
import { warnOfUnknownColumn } from './header-messages.js';
import type { InputOptions } from './opened-input.js';
import type { HeaderMap } from './record-shape.js';
import { shortValue } from './row-shape-problems.js';
import { type UnreadData, unreadDataError } from './unmapped-columns.js';

/*
 * Every JSON key accounted for, as every CSV column is (unmapped-columns.ts): a key no field reads is told once, and
 * stops the run at the first record where it holds data, unless `--map` reads it or `--ignore-column` (or `null` in
 * the map) leaves it out (docs/decisions/0015-every-column-accounted-for.md).
 */

/** Unknown keys warned about one by one; a file with 100,000 distinct keys is not a wall of text. */
const maxUnknownWarnings = 10;
/** "Did you mean" costs an edit distance per known path: for the first keys only, and short ones. */
const maxSuggestions = 20;
const maxSuggestedLength = 64;

/** What a JSON reader needs of the input's options to account for its keys. */
export type KeyOptions = Pick<
  InputOptions,
  'catalogue' | 'strict' | 'warn' | 'note' | 'ignoredColumns' | 'headerMap' | 'sends'
>;

/** The keys of one input no field reads: what has been told of them, and what `--ignore-column` has matched. */
export class UnreadKeys {
  private readonly told = new Set<string>();
  private readonly suggestions = new Map<string, string | undefined>();
  /** `--ignore-column` names by headerKey(), with the name as given. */
  private readonly ignored: Map<string, string>;
  private readonly matched = new Set<string>();
  private warnings = 0;
  private held: (() => void)[] | undefined;
  /** The `--map` in force: the one given, or the one adopted on a terminal or by `--write-map`. */
  headerMap: Readonly<HeaderMap> | undefined;

  private readonly file: string;
  private readonly options: KeyOptions;
  constructor(file: string, options: KeyOptions) {
    this.file = file;
    this.options = options;

    this.ignored = new Map((options.ignoredColumns ?? []).map((name) => [headerKey(name), name]));
    this.headerMap = options.headerMap;
  }

  /** Whether the key (or nested path) is left out on purpose: `null` in the map, or `--ignore-column` (said once). */
  leftOut(key: string, at: string): boolean {
    const map = this.headerMap;
    if (map !== undefined && Object.hasOwn(map, key) && map[key] === null) return true;
    if (this.ignored.size === 0) return false;
    const name = headerKey(key);
    if (!this.ignored.has(name)) return false;
    this.matched.add(name);
    if (!this.told.has(key)) {
      this.told.add(key);
      // Said once per run, so what is left out on purpose is never left out unseen.
      this.options.note?.(`${this.file}:${at}: key "${shortValue(key)}" is left out (--ignore-column).`);
    }
    return true;
  }

  /** A key no field reads, met in the record at `at`: told the first time; its data, if it holds any. */
  unread(key: string, value: unknown, at: string, line: number): UnreadData | undefined {
    const suggestion = this.suggestionFor(key);
    if (!this.told.has(key)) {
      const tell = () => {
        if (this.told.has(key)) return;
        this.told.add(key);
        this.warnings++;
        if (this.warnings <= maxUnknownWarnings || this.options.strict)
          warnOfUnknownColumn(this.file, at, { header: key, suggestion, line }, this.options, 'key');
        else if (this.warnings === maxUnknownWarnings + 1)
          this.options.warn(`warning: ${this.file}:${at}: more unknown keys (not listed one by one).`);
      };
      if (this.held) this.held.push(tell);
      else tell();
    }
    const sample = sampleOf(value);
    if (sample === undefined) return undefined;
    return { header: key, named: `key "${shortValue(key)}"`, suggestion, place: at, line, value: sample };
  }

  /**
   * Holds what unread() would tell until release(): while a map may still be adopted for the keys (a terminal,
   * `--write-map`), the keys it maps are not first told as unknown, as CSV tells only the columns left after it.
   */
  hold(): void {
    this.held = [];
  }

  /** Forgets what was held: the record is read again, under the map just adopted. */
  dropHeld(): void {
    if (this.held) this.held = [];
  }

  /** Tells what was held, and from now on tells at once. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const tell of held) tell();
  }

  /** The run's stop for the keys of one record that hold data no field reads, worded as for CSV columns. */
  refusal(found: readonly UnreadData[]): InputError {
    return unreadDataError(
      this.file,
      found,
      this.options.catalogue.knownPaths,
      'key',
      this.options.catalogue.notTaken,
      this.options.sends,
    );
  }

  /** After the last record: the `--ignore-column` names that matched no key. */
  warnUnmatched(): void {
    for (const [name, given] of this.ignored)
      if (!this.matched.has(name)) this.options.warn(`warning: --ignore-column "${given}": no key has that name.`);
  }

  private suggestionFor(key: string): string | undefined {
    if (this.suggestions.has(key)) return this.suggestions.get(key);
    if (this.suggestions.size >= maxSuggestions || key.length > maxSuggestedLength) return undefined;
    const suggestion = nearestField(key, this.options.catalogue.knownPaths);
    this.suggestions.set(key, suggestion);
    return suggestion;
  }
}

/**
 * The known field a key is probably a typo of. A nested key (`customerRegistrationAddress.zipcod`) is compared with
 * its siblings' names only: against whole paths, the long shared prefix makes any short name look near.
 */
function nearestField(key: string, knownPaths: readonly string[]): string | undefined {
  const cut = key.lastIndexOf('.');
  if (cut === -1) return closestName(key, knownPaths);
  const parent = key.slice(0, cut);
  const siblings = `${parent.replace(/\.\d+(?=\.|$)/g, '.0')}.`;
  const names = knownPaths.filter((path) => path.startsWith(siblings)).map((path) => path.slice(siblings.length));
  const nearest = closestName(key.slice(cut + 1), names);
  return nearest === undefined ? undefined : `${parent}.${nearest}`;
}

/** A value as an error quotes it, or undefined when it holds no data (null, blank text, nothing but those inside). */
export function sampleOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value !== 'object') return String(value);
  return holdsData(value) ? preview(value) : undefined;
}

function holdsData(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.some(holdsData);
  for (const key in value)
    if (Object.hasOwn(value, key) && holdsData((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** Past this many characters a preview stops: a message quotes 40 of them (shortValue). */
const previewLength = 60;

/** An object or list as JSON text, cut once past what a message quotes: a 50 MB object is not written out whole. */
function preview(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  const list = Array.isArray(value);
  let text = list ? '[' : '{';
  const items = list ? value.keys() : Object.keys(value).values();
  for (const key of items) {
    if (text.length > previewLength) return text;
    const inner = preview((value as Record<string | number, unknown>)[key]);
    text += `${text.length > 1 ? ',' : ''}${list ? '' : `${JSON.stringify(key)}:`}${inner}`;
  }
  return `${text}${list ? ']' : '}'}`;
}
