import { isScientificNotation, scientificNotationReason } from './spreadsheet-numbers.js';

/** Brazilian phone numbers: area code (DDD) plus a mobile or landline number. Pure. */

export type PhoneCheck = { ok: true; digits: string; formatted: string } | { ok: false; reason: string };

/** The 67 area codes in use (docs/brazil.md). */
const areaCode = /^(?:[14689][1-9]|2[12478]|3[1-578]|5[13-5]|7[13-579])$/;
/** What people write around the digits: spaces, ( ) - . and a leading +. */
const separators = /[\s().\-+]/g;

/**
 * Checks a phone number and formats it `(NN) NNNNN-NNNN` (mobile: DDD, 9, 8 digits) or
 * `(NN) NNNN-NNNN` (landline: DDD, a digit 2–5, 7 digits). A leading country code 55 is dropped
 * only when the digits are 12 or 13 long, because 55 is also an area code of Rio Grande do Sul.
 */
export function normalizePhone(raw: string): PhoneCheck {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: 'empty' };
  if (isScientificNotation(text)) return { ok: false, reason: scientificNotationReason };
  if (/[^\d\s().\-+]/.test(text)) return { ok: false, reason: 'a phone holds only digits, spaces and + ( ) - .' };
  let digits = text.replace(separators, '');
  if (text.startsWith('+') && !digits.startsWith('55'))
    return { ok: false, reason: 'not a Brazilian number: the country code is +55' };
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) digits = digits.slice(2);
  const trunk = trunkPrefixReason(digits);
  if (trunk !== undefined) return { ok: false, reason: trunk };
  if (digits.length !== 10 && digits.length !== 11)
    return { ok: false, reason: 'a phone has 10 or 11 digits with the area code (DDD)' };
  const ddd = digits.slice(0, 2);
  if (!areaCode.test(ddd)) return { ok: false, reason: `${ddd} is not a Brazilian area code (DDD)` };
  const number = digits.slice(2);
  if (digits.length === 11) {
    if (!number.startsWith('9')) return { ok: false, reason: 'a mobile number has 9 digits and starts with 9' };
    return { ok: true, digits, formatted: `(${ddd}) ${number.slice(0, 5)}-${number.slice(5)}` };
  }
  if (!/^[2-5]/.test(number)) return { ok: false, reason: 'a landline number has 8 digits and starts with 2 to 5' };
  return { ok: true, digits, formatted: `(${ddd}) ${number.slice(0, 4)}-${number.slice(4)}` };
}

/**
 * `(011) 3333-4444`, `011 98765-4321`: the long-distance prefix 0 before the area code, as ERPs keep it. The platform
 * writes phones `(NN) NNNNN-NNNN`, so the reason shows the number without it rather than "01 is not an area code".
 */
function trunkPrefixReason(digits: string): string | undefined {
  if (!digits.startsWith('0') || (digits.length !== 11 && digits.length !== 12)) return undefined;
  const national = normalizePhone(digits.slice(1));
  if (!national.ok) return undefined;
  return `the leading 0 is the long-distance prefix, which the number does not take: write ${national.formatted}`;
}
