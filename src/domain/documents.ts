import { isScientificNotation, scientificNotationReason } from './spreadsheet-numbers.js';

/**
 * CPF and CNPJ (numeric and alphanumeric), checked and formatted. Pure.
 * Facts and test vectors: docs/brazil.md. The arithmetic is written here on purpose: libraries either reject
 * the alphanumeric CNPJ or add blocklists (cpf-cnpj-validator rejects 123.456.789-09, whose check
 * digits are valid), and local validation must not be stricter than the platform.
 */

export type DocumentKind = 'cpf' | 'cnpj';

export type DocumentCheck =
  { ok: true; kind: DocumentKind; normalized: string; formatted: string } | { ok: false; reason: string };

/**
 * A valid document as it is sent: as written, unless white space stands in it, when it is sent as read, without
 * punctuation. The platform takes a document with its punctuation `.`, `-`, `/` or without it, but says nothing
 * of spaces, and the no-break space of a spreadsheet's number format would otherwise reach the customer's key.
 */
export function documentAsSent(written: string, normalized: string): string {
  return /\s/.test(written) ? normalized : written;
}

/** How a document is written in a route's path (the customer.documentInPath setting). */
export type DocumentInPath = 'as-written' | 'digits';

/**
 * A document as a route's path carries it: as sent in a body, or with `digits` its digits and letters alone. A
 * formatted CNPJ's `/` goes into a path as `%2F`, which servers such as Tomcat and Spring Security's firewall refuse
 * before the platform sees the request; the platform returns documents formatted and shows the path only as
 * `:document`, so which it takes is the store's: the setting chooses.
 */
export function documentInPath(document: string, spelling: DocumentInPath): string {
  if (spelling === 'as-written') return document;
  const bare = document.replace(/[^0-9A-Za-z]/g, '');
  // Nothing but punctuation is no document to send bare: as written, the platform answers it as it would.
  return bare === '' ? document : bare;
}

/** Punctuation people write around documents; anything else (letters aside) makes the value invalid. */
const punctuation = /[.\-/\s]/g;
const cpfWeightsFirst = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const cpfWeightsSecond = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const cnpjWeightsFirst = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const cnpjWeightsSecond = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * Checks a CPF (11 digits) or CNPJ (14 characters, the first 12 digits or upper-case letters). The
 * punctuation `.`, `-`, `/` and spaces is ignored wherever it stands, as the platform accepts the
 * document both with and without it.
 */
export function checkDocument(raw: string): DocumentCheck {
  if (isScientificNotation(raw)) return { ok: false, reason: scientificNotationReason };
  // One pass over the characters: this runs for every row of a 100,000-row import.
  let normalized = '';
  let lowerCase = 0;
  let other = false;
  let letters = false;
  for (let index = 0; index < raw.length; index++) {
    const code = raw.charCodeAt(index);
    if (code >= 48 && code <= 57) normalized += raw[index];
    else if (code >= 65 && code <= 90) {
      normalized += raw[index];
      letters = true;
    } else if (code >= 97 && code <= 122) lowerCase++;
    else if (!isPunctuation(code)) other = true;
  }
  if (normalized === '' && lowerCase === 0 && !other) return { ok: false, reason: 'empty' };
  if (lowerCase > 0) return { ok: false, reason: lowerCaseReason(normalized, letters, normalized.length + lowerCase) };
  if (other) return { ok: false, reason: 'a document holds only digits, upper-case letters and the punctuation . - /' };
  if (normalized.length === 11) return letters ? { ok: false, reason: 'a CPF has only digits' } : checkCpf(normalized);
  if (normalized.length === 14) return checkCnpj(normalized);
  return { ok: false, reason: `a CPF has 11 digits and a CNPJ 14 characters${lostZeroHint(normalized, letters)}` };
}

/**
 * Why a document with lower-case letters is refused, in the words of the kind it is: 11 digits besides them is a
 * CPF (`cpf 123.456.789-09`), else its length says which.
 */
function lowerCaseReason(normalized: string, upperLetters: boolean, characters: number): string {
  if (!upperLetters && normalized.length === 11) return 'a CPF has only digits: take the letters out';
  if (characters === 14) return 'CNPJ letters must be upper case';
  if (characters === 11) return 'a CPF has only digits';
  return 'a CPF has 11 digits and a CNPJ 14 characters (digits and upper-case letters)';
}

/**
 * A document typed as a number loses its leading zeros in a spreadsheet (`01234567890` becomes
 * `1234567890`, `00000000191` becomes `191`): when putting them back gives a valid CPF (3 to 10 digits) or CNPJ (12 or 13
 * digits), say so, as the CEP check does.
 */
function lostZeroHint(normalized: string, letters: boolean): string {
  const length = normalized.length;
  if (letters || length < 3 || length === 11) return '';
  // Short numbers can be either (191 is 000.000.001-91 and 00.000.000/0001-91): each that checks is named.
  const valid = [
    ...(length <= 10 ? [checkCpf(normalized.padStart(11, '0'))] : []),
    // A CNPJ short of 9 zeros is no typing slip, but a tiny number (a bank's 191) may be one.
    ...(length >= 12 || length <= 5 ? [checkCnpj(normalized.padStart(14, '0'))] : []),
  ].flatMap((check) => (check.ok ? [check.formatted] : []));
  return lostZeroSentence(valid);
}

/** The hint's words, after a reason: `; a leading zero was probably lost … 00.078.057/0001-03 would be valid`. */
export function lostZeroSentence(valid: readonly string[]): string {
  return valid.length === 0
    ? ''
    : `; a leading zero was probably lost in a spreadsheet: ${valid.join(' or ')} would be valid`;
}

/**
 * The document of `kind` that digits short of that kind's length are once the leading zeros a spreadsheet took
 * are put back, or undefined. For a record that names its kind (documentType `cnpj`): the CNPJ 00078057000103
 * typed as a number is 78057000103, 11 digits that checkDocument alone takes for a CPF with wrong check digits.
 */
export function documentWithLostZeros(raw: string, kind: DocumentKind): string | undefined {
  const digits = documentLookupKey(raw);
  const length = kind === 'cpf' ? 11 : 14;
  if (digits.length === 0 || digits.length >= length || !/^\d+$/.test(digits)) return undefined;
  const check = kind === 'cpf' ? checkCpf(digits.padStart(length, '0')) : checkCnpj(digits.padStart(length, '0'));
  return check.ok ? check.formatted : undefined;
}

/** Why a document that documentWithLostZeros put right is refused as typed, in the words of its kind. */
export function lostZeroReason(kind: DocumentKind, valid: string): string {
  return `${kind === 'cpf' ? 'a CPF has 11 digits' : 'a CNPJ has 14 characters'}${lostZeroSentence([valid])}`;
}

/**
 * `.`, `-`, `/` and white space: what `\s` matches, as in `punctuation`, so the no-break (U+00A0), narrow no-break
 * (U+202F) and figure (U+2007) spaces of a web page's or a spreadsheet's number format are ignored like a space.
 */
function isPunctuation(code: number): boolean {
  if (code === 46 || code === 45 || code === 47 || code === 32 || (code >= 9 && code <= 13)) return true;
  return code >= 160 && whiteSpace.test(String.fromCharCode(code));
}

const whiteSpace = /^\s$/;

function allSame(characters: string): boolean {
  for (let index = 1; index < characters.length; index++) if (characters[index] !== characters[0]) return false;
  return true;
}

function checkCpf(digits: string): DocumentCheck {
  if (allSame(digits)) return { ok: false, reason: 'repeated digits are not a valid CPF' };
  const first = checkDigit(digits, cpfWeightsFirst);
  const second = checkDigit(digits, cpfWeightsSecond, first);
  if (valueAt(digits, 9) !== first || valueAt(digits, 10) !== second)
    return { ok: false, reason: 'CPF check digits do not match' };
  return { ok: true, kind: 'cpf', normalized: digits, formatted: formatCpf(digits) };
}

function checkCnpj(characters: string): DocumentCheck {
  if (valueAt(characters, 12) > 9 || valueAt(characters, 13) > 9)
    return { ok: false, reason: 'CNPJ check digits are always digits' };
  if (allSame(characters)) return { ok: false, reason: 'repeated digits are not a valid CNPJ' };
  const first = checkDigit(characters, cnpjWeightsFirst);
  const second = checkDigit(characters, cnpjWeightsSecond, first);
  if (valueAt(characters, 12) !== first || valueAt(characters, 13) !== second)
    return { ok: false, reason: 'CNPJ check digits do not match' };
  return { ok: true, kind: 'cnpj', normalized: characters, formatted: formatCnpj(characters) };
}

/**
 * The mod-11 rule shared by CPF and CNPJ over the first characters (and, for the second check digit,
 * the first one computed): 0 when the remainder is below 2, else 11 minus it.
 */
function checkDigit(characters: string, weights: readonly number[], firstCheckDigit?: number): number {
  const last = weights.length - 1;
  let sum = 0;
  for (let index = 0; index < last; index++) sum += valueAt(characters, index) * (weights[index] ?? 0);
  sum += (firstCheckDigit ?? valueAt(characters, last)) * (weights[last] ?? 0);
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/**
 * A character's value: its ASCII code minus 48 (Receita Federal IN 2.229/2024), so digits keep their
 * value and A is 17 (not 10, as some libraries have it).
 */
function valueAt(characters: string, index: number): number {
  return characters.charCodeAt(index) - 48;
}

function formatCpf(digits: string): string {
  return `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`;
}

function formatCnpj(characters: string): string {
  return `${characters.slice(0, 2)}.${characters.slice(2, 5)}.${characters.slice(5, 8)}/${characters.slice(8, 12)}-${characters.slice(12)}`;
}

/**
 * The document kind a `documentType` names: `cpf`/`pf` an individual, `cnpj`/`pj` a legal entity.
 * Exact lower case only: the platform says "no other value accepted" and, unlike addressType, does
 * not say case-insensitive, so `CPF` is another value.
 */
export function documentKindOfType(documentType: string): DocumentKind | undefined {
  switch (documentType) {
    case 'cpf':
    case 'pf':
      return 'cpf';
    case 'cnpj':
    case 'pj':
      return 'cnpj';
    default:
      return undefined;
  }
}

/** The platform's answer value for a kind: `pf` or `pj`. */
export function documentTypeOfKind(kind: DocumentKind): 'pf' | 'pj' {
  return kind === 'cpf' ? 'pf' : 'pj';
}

/**
 * A word typed where a CPF or CNPJ or a file name may stand that is meant as a document, valid or not: digits with
 * the punctuation `.` `/` `-`, or once that punctuation is out an alphanumeric CNPJ's shape (12 digits or upper-case
 * letters, then its 2 check digits). A file name has a letter, a space or another mark the CNPJ's shape refuses.
 */
export function looksLikeDocument(text: string): boolean {
  return /^[\d./-]*\d[\d./-]*$/.test(text) || /^[0-9A-Z]{12}\d{2}$/.test(text.replace(/[./-]/g, ''));
}

/** A document without its punctuation, valid or not: the key to look a customer up by. */
export function documentLookupKey(raw: string): string {
  return raw.replace(punctuation, '');
}
