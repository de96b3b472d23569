/**
 * Known secret values (a password, a token, a URL's key) and the text that may quote them: what another system
 * answers is quoted in logs, reports and stores, and an answer may echo the credential it was sent (an auth
 * middleware's error page, a validation framework's "value X is not allowed"). No I/O; its one state is a cache of the
 * runs of the secrets last asked for (lastFragmentRuns), which changes no answer.
 */

import { type DecodedView, decodedViews, withoutInvisible, withoutWhitespace } from './decoded-view.js';

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
 * it may take: as written, and as the text reads decoded (decoded-view.ts), so each of its characters as written or
 * escaped, whichever characters the writer chose to escape: as a JSON string writes it (`\"`, `\/` for `/`, PHP's
 * default, `\u00ea` for `ê`, `\u0026` for `&`), as a URL or a form writes it (`%2F`, `%C3%AA`, `+` for a space), as
 * an HTML page writes it (`&#x2f;`, `&amp;`); a long one also when whitespace splits it (shortestMaskedWhenSplit),
 * and any run of 8 characters of it or more, case aside, in base64 or in hex (fragmentStretches). Every non-empty secret,
 * however short (see shortestMaskedInsideWords). The stretches found are masked together, so a secret that holds
 * another (`user:password` and `password`) leaves no piece of itself behind.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const distinct = [...new Set(secrets)].filter((secret): secret is string => Boolean(secret));
  if (distinct.length === 0 || text === '') return text;
  // Each round of decoding is searched: a secret holding a `\\` or a `%41` of its own reads right only in the first.
  const views = decodedViews(text).filter((view) => view.text !== text);
  let unsplit: DecodedView[] | undefined;
  const stretches: [number, number][] = [];
  for (const secret of distinct) {
    const short = [...secret].length < shortestMaskedInsideWords;
    const spellings = spellingsOf(secret);
    for (const spelling of spellings) {
      stretches.push(...stretchesOf(spelling, { text }, short));
      for (const view of views) stretches.push(...stretchesOf(spelling, view, short));
    }
    if ([...secret].length >= shortestMaskedWhenSplit) {
      unsplit ??= unsplitViews(text, views);
      for (const spelling of new Set(spellings.map(withoutInvisible))) {
        for (const view of unsplit) stretches.push(...stretchesOf(spelling, view, false));
      }
    }
  }
  const runs = text.length >= shortestMaskedFragment ? fragmentRunsOf(distinct) : undefined;
  if (runs) for (const view of [{ text }, ...views]) stretches.push(...fragmentStretches(runs, view));
  if (/basic\s/i.test(text)) stretches.push(...basicCredentialsHolding(text, distinct));
  return masked(text, stretches);
}

/**
 * A run of a secret this long (in UTF-16 code units) is masked too, wherever an answer quotes the secret cut (an auth
 * layer's `invalid client secret Sé+cr/et=with&odd ch...`, a token's first 12 characters, a token a line's length
 * limit cut, a server echoing half of it), changed in case, or in base64 (a user test). Eight characters of a random
 * secret are not found by chance in an answer's words; shorter runs are, and are left, and so is a run that reads as
 * one word (readsAsOneWord). A secret that spells words otherwise (`MyClientSecret1`) masks them where the answer
 * holds them too (`ClientSecret`): hiding a word is the lesser harm.
 */
const shortestMaskedFragment = 8;

/**
 * The runs of shortestMaskedFragment code units of the secrets that long, in lower case, with a filter of their
 * hashes (windowHash): a text is read once, each of its windows hashed as it slides, and only a window whose hash
 * the filter holds is compared. Looking for each run with indexOf read a 64 KB answer some 400 times (three secrets
 * of 40 characters): 17 ms, against 1.6 ms for the rest of the masking.
 */
interface FragmentRuns {
  runs: Set<string>;
  /** One bit per hash bucket (hashBucket), set for each run's. */
  filter: Uint32Array;
}

/** The runs of the secrets last asked for: a verbose run masks each trace line of a request with the same secrets. */
const lastFragmentRuns: { key?: string; runs?: FragmentRuns } = {};

/** The runs to look for (FragmentRuns), or undefined when no secret is shortestMaskedFragment long. */
function fragmentRunsOf(secrets: readonly string[]): FragmentRuns | undefined {
  const key = JSON.stringify(secrets);
  if (lastFragmentRuns.key === key) return lastFragmentRuns.runs;
  const runs = new Set<string>();
  for (const secret of secrets) {
    if ([...secret].length < shortestMaskedFragment) continue;
    for (const spelling of fragmentSpellings(secret))
      for (let start = 0; start + shortestMaskedFragment <= spelling.length; start++)
        runs.add(spelling.slice(start, start + shortestMaskedFragment));
  }
  const filter = new Uint32Array(hashBuckets / 32);
  for (const run of runs) {
    const bucket = hashBucket(windowHash(run, 0));
    filter[bucket >>> 5] = (filter[bucket >>> 5] as number) | (1 << (bucket & 31));
  }
  const found = runs.size === 0 ? undefined : { runs, filter };
  Object.assign(lastFragmentRuns, { key, runs: found });
  return found;
}

/**
 * A secret's spellings in lower case whose runs are looked for: both normal forms, its base64 (both alphabets), and
 * the hex of its UTF-8 bytes, as a gateway's debug page dumps a header (upper case too: the search is case aside; a
 * run there is 8 hex digits, 4 bytes of the secret). Hex split by spaces or colons, or a secret cut into groups by
 * `-`, is not looked for (docs/security.md says so).
 */
function fragmentSpellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = bytes.toString('base64');
  const spellings = [
    secret.normalize('NFC'),
    secret.normalize('NFD'),
    base64,
    base64.replaceAll('+', '-').replaceAll('/', '_'),
    bytes.toString('hex'),
  ];
  return [...new Set(spellings.map(foldedCase))];
}

/**
 * `text` with each code unit in lower case, as the runs are kept (FragmentRuns), position for position: a stretch
 * found in it is the same stretch of the text. Lower-casing the whole text would not keep them: `İ` becomes two code
 * units, and `Σ` becomes `ς` or `σ` by what follows it, so the secret's run and the text's would differ (a user test:
 * one `İ` in an answer once had its whole text searched in its own case). Such a character keeps its own case, or
 * is lower-cased alone.
 */
function foldedCase(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length && !text.includes('Σ')) return lower;
  return text
    .replaceAll(/[^\0-\x7f]/g, (unit) => {
      const folded = unit.toLowerCase();
      return folded.length === 1 ? folded : unit;
    })
    .replaceAll(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The filter's size: with a few hundred runs, about one window in a hundred is compared for nothing. */
const hashBuckets = 1 << 16;
const hashBase = 31;
/** What the character that leaves a sliding window counts for in its hash: `hashBase ** 7`, modulo 2^32. */
const leavingFactor = Number(BigInt(hashBase) ** BigInt(shortestMaskedFragment - 1) % 2n ** 32n) | 0;

/** The polynomial hash of the shortestMaskedFragment code units of `text` from `at`, modulo 2^32. */
function windowHash(text: string, at: number): number {
  let hash = 0;
  for (let index = at; index < at + shortestMaskedFragment; index++)
    hash = (Math.imul(hash, hashBase) + text.charCodeAt(index)) | 0;
  return hash;
}

/** A hash's bucket in the filter: its bits mixed, so that every character counts, and the top 16 kept. */
function hashBucket(hash: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> 16;
}

/**
 * Where any run of a secret (FragmentRuns) occurs in a view of the text, case aside, as stretches of the text as
 * written; overlapping runs join into one (masked), and one that reads as a word is left (readsAsOneWord).
 */
function fragmentStretches(
  { runs, filter }: FragmentRuns,
  view: Partial<DecodedView> & { text: string },
): [number, number][] {
  const searched = foldedCase(view.text);
  const found: [number, number][] = [];
  const lastStart = searched.length - shortestMaskedFragment;
  if (lastStart < 0) return found;
  // The stretch of the view that overlapping runs found so far join into, [start, end): kept once the next is apart.
  let start = -1;
  let end = -1;
  const keep = () => {
    if (start < 0 || readsAsOneWord(view.text.slice(start, end))) return;
    found.push([view.from?.[start] ?? start, view.to?.[end - 1] ?? end]);
  };
  let hash = windowHash(searched, 0);
  for (let at = 0; ; at++) {
    const bucket = hashBucket(hash);
    const maybe = ((filter[bucket >>> 5] as number) & (1 << (bucket & 31))) !== 0;
    if (maybe && runs.has(searched.slice(at, at + shortestMaskedFragment))) {
      if (at >= end) {
        keep();
        start = at;
      }
      end = at + shortestMaskedFragment;
    }
    if (at === lastStart) break;
    const leaving = Math.imul(searched.charCodeAt(at), leavingFactor);
    hash = (Math.imul(hash - leaving, hashBase) + searched.charCodeAt(at + shortestMaskedFragment)) | 0;
  }
  keep();
  return found;
}

/**
 * Whether a run of a secret found in a text is one word, the punctuation around it aside: letters only, in a word's
 * case (`password`, `Senha`, `SECRET`). b2bctl's own words are masked in the same lines (`check the username and the
 * password piped to --password-stdin`, a trace's `ocp-apim-subscription-key:`), and a password holding a word
 * (`wrong-password`) hid it there. A random token's run of 8 letters is in a word's case once in a
 * few hundred; any run holding a digit, a mark inside or mixed case (`AbCdEfGh`, `FWDTOK-SECR`) is masked.
 */
function readsAsOneWord(run: string): boolean {
  return oneWord.test(run.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''));
}

const oneWord = /^(?:\p{Lu}?[\p{Ll}\p{M}]+|[\p{Lu}\p{M}]+)$/u;

/**
 * The text read without what splits no word (withoutWhitespace): once decoded, and decoded all the way when that
 * took more rounds (a JSON text in a JSON string, wrapped).
 */
function unsplitViews(text: string, views: readonly DecodedView[]): DecodedView[] {
  const first = views[0] ?? decodedViews(text)[0];
  const last = views.at(-1);
  return [first, last === first ? undefined : last]
    .filter((view): view is DecodedView => view !== undefined)
    .map(withoutWhitespace);
}

/** Base64 of 16 characters or more (a Basic credential b2bctl sent, a token): other encoders write it otherwise. */
const base64Secret = /^[A-Za-z0-9+/]{16,}={0,2}$/;

/**
 * The spellings of a secret that no decoding reads back to it: a space as a form's `+`; both Unicode normal forms
 * (an accent composed `ê`, as Java's and many validators normalize before quoting, or `e` and U+0302, as a macOS
 * file holds it); and base64 without its `=` padding and in the URL alphabet (`-` and `_` for `+` and `/`), as
 * JWT-minded frameworks and Go's RawURLEncoding write it.
 */
function spellingsOf(secret: string): string[] {
  const normalForms = [secret, secret.normalize('NFC'), secret.normalize('NFD')];
  const spellings = new Set(normalForms);
  if (secret.includes(' ')) for (const form of normalForms) spellings.add(form.replaceAll(' ', '+'));
  if (base64Secret.test(secret)) {
    const urlAlphabet = secret.replaceAll('+', '-').replaceAll('/', '_');
    for (const spelling of [secret, urlAlphabet]) spellings.add(spelling).add(spelling.replace(/=+$/, ''));
  }
  return [...spellings];
}

/**
 * Each `Basic <base64>` credential in the text whose decoded `user:password` holds a known secret: what `curl -v -u
 * erp:$ERP_TOKEN` prints of a secret b2bctl handed a command, which base64 hides from every spelling above (a user
 * test: the receiver's log and dead letters kept it). The user is not known, so the pair is decoded, not encoded.
 */
function basicCredentialsHolding(text: string, secrets: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  // The URL alphabet too (`-` and `_`), padded or not: Node's base64 reads both.
  for (const match of text.matchAll(/\bbasic\s+([A-Za-z0-9+/_-]{8,}={0,2})/gi)) {
    const credential = match[1] as string;
    const pair = Buffer.from(credential, 'base64').toString('utf8').normalize('NFC');
    const holds = (secret: string) =>
      [...secret].length >= shortestMaskedInsideWords && pair.includes(secret.normalize('NFC'));
    if (!secrets.some(holds)) continue;
    const start = match.index + match[0].length - credential.length;
    found.push([start, start + credential.length]);
  }
  return found;
}

/**
 * Secrets this long or longer are masked also when whitespace splits them (`PlainToken\nSecret…`): a message that
 * wraps at a fixed width breaks a token wherever the width ends, and b2bctl shows that line break as a space. Shorter
 * ones only whole: `ab cd` in a platform's words is more likely words than a password `abcd` wrapped.
 */
const shortestMaskedWhenSplit = 8;

/**
 * Where `spelling` occurs in a view of the text, as stretches of the text as written (a view without `from` and `to`
 * is the text itself). A short secret only where it stands alone (standsAlone).
 */
function stretchesOf(
  spelling: string,
  view: Partial<DecodedView> & { text: string },
  short: boolean,
): [number, number][] {
  const found: [number, number][] = [];
  if (spelling === '') return found;
  for (let at = view.text.indexOf(spelling); at >= 0; at = view.text.indexOf(spelling, at + spelling.length)) {
    if (short && !standsAlone(view.text, at, spelling)) continue;
    const last = at + spelling.length - 1;
    found.push([view.from?.[at] ?? at, view.to?.[last] ?? last + 1]);
  }
  return found;
}

/** Whether no letter or digit touches `spelling` at `at` (a text's edges, spaces, quotes, `=` and `:` do). */
function standsAlone(text: string, at: number, spelling: string): boolean {
  return !touches(text[at - 1], spelling.at(0)) && !touches(text[at + spelling.length], spelling.at(-1));
}

/** Whether a secret's first or last character and the one beside it are both letters or digits: one word. */
function touches(outside: string | undefined, inside: string | undefined): boolean {
  return wordCharacter.test(inside ?? '') && wordCharacter.test(outside ?? '');
}

/** The text with each stretch replaced by the mask; stretches that overlap are one. */
function masked(text: string, stretches: [number, number][]): string {
  if (stretches.length === 0) return text;
  stretches.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let safe = '';
  let written = 0;
  for (const [start, end] of stretches) {
    if (end <= written) continue;
    // Overlapping the one masked before it (a secret holding another): its rest joins that mask.
    safe += start < written ? '' : `${text.slice(written, start)}${redacted}`;
    written = end;
  }
  return safe + text.slice(written);
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
 * redactSecrets too, which masks more (a secret split by a line break, an HTML page's `&#x2f;`, a run of 8
 * characters of it).
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
  // A session's id or a refresh value opens the account as the access token does; `assinatura` and `hmac` sign.
  'session',
  'sessao',
  'sid',
  'refresh',
  'hmac',
  'assinatura',
]);

/** Words of a session: its id is the credential (`X-Session-Id`, `sessionId`), though `id` elsewhere only names one. */
const sessionWords = new Set(['session', 'sessao']);

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
 * `password_expires_at`, `passwordExpired`, `authStyle`, `tokenUrl`, `signatureAlgorithm`, `sessionStatus`.
 */
const describingWords = new Set([
  'type',
  'types',
  'expires',
  // A customer's `passwordExpired` flag (the platform's password expiry) was masked in a trace (a user test).
  'expired',
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
  'timeout',
  'ttl',
  // How a value is made or used, or whose it is: `signatureAlgorithm`, `sessionStatus`, `refreshInterval`,
  // `sessionUser` (a user name says who, as a login refusal names it).
  'algorithm',
  'alg',
  'status',
  'interval',
  'user',
  'username',
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
  if (last === 'id' && words.some((word) => sessionWords.has(word))) return true;
  if (last === undefined || describingWords.has(last)) return false;
  return words.some((word, index) => {
    if (word === 'key') return !plainKeyKinds.has(words[index - 1] ?? '');
    return secretWords.has(word) || secretWordInside.test(word);
  });
}

/**
 * Query parameters whose whole name says they carry a credential, though no secret word ends it: Google's API `key`,
 * Azure's SAS `sig` and its Functions' `code` (an OAuth authorization code too), a `jwt`, an `auth`, and AWS's
 * `AWSAccessKeyId` (with `Signature`, `sig` and `X-Goog-Signature`, OpenTelemetry's default list of query values to
 * redact), and Portuguese `chave` (key: as a field name it is also an NF-e's access key, no secret, so a query's
 * only). The whole name only: `key` ending another name (`invoiceKey`, `sortKey`) is no credential, and b2bctl's
 * own parameters (`limit`, `offset`, `status`, `email`, `updatedFrom`, `updatedTo`) are never one.
 */
const credentialQueryName = /^(key|sig|code|jwt|auth|awsaccesskeyid|chave)$/i;

/** A JSON Web Token, under whatever name (`?state=eyJ…`): its header and payload start `eyJ`, `{"` in base64url. */
const jsonWebToken = /^eyJ[\w-]*\.eyJ[\w-]*\.[\w-]*$/;

/**
 * Whether a query or form parameter, as written, carries a credential: by its name (a secret's, isSecretName, or one
 * of credentialQueryName) or by its value's shape (a JWT). The one rule for a URL's query: what a printed URL masks
 * (redactUrl), what is refused over plain HTTP to another machine, and what is warned about in the process list. Two
 * rules disagreed (a user test): `?code=` and `?jwt=` went in clear to another machine while the logs masked them,
 * and `?sortKey=` and `?author=` were refused as credentials.
 */
export function isCredentialParameter(name: string, value: string): boolean {
  const decoded = decodedSafely(name);
  return isSecretName(decoded) || credentialQueryName.test(decoded) || jsonWebToken.test(decodedSafely(value));
}

/** Whether one `name=value` pair of a query or form, as written, carries a credential; a bare `name` carries none. */
export function isCredentialPair(pair: string): boolean {
  // Only the first "=" ends the name; a value may hold more.
  const equals = pair.indexOf('=');
  return equals >= 0 && isCredentialParameter(pair.slice(0, equals), pair.slice(equals + 1));
}

/** Whether a URL's query (`url.search`, its `?` or not) holds a parameter that carries a credential (isCredentialPair). */
export function queryHoldsCredential(search: string): boolean {
  return search.replace(/^\?/, '').split('&').some(isCredentialPair);
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
