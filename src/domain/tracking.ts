/**
 * Tracking codes and links of a shipped order. Pure. A Correios object code (S10 of the Universal Postal Union) is
 * two letters, eight digits, a check digit and two letters; other carriers' codes are free text with a length cap.
 */
import { isSpreadsheetExponent, scientificNotationReason } from './spreadsheet-numbers.js';

/** The longest tracking code b2bctl sends for a carrier other than Correios. */
export const maximumTrackingCodeLength = 64;
/** The longest tracking link b2bctl sends. */
export const maximumTrackingUrlLength = 2048;

const correiosShape = /^([A-Z]{2})(\d{8})(\d)([A-Z]{2})$/;
const correiosWeights = [8, 6, 4, 2, 3, 5, 9, 7];

/** The S10 check digit of eight serial digits: weights 8 6 4 2 3 5 9 7, modulus 11; 0 gives 5 and 1 gives 0. */
export function correiosCheckDigit(serial: string): number {
  let sum = 0;
  for (let index = 0; index < 8; index++) sum += (serial.charCodeAt(index) - 48) * (correiosWeights[index] ?? 0);
  const remainder = sum % 11;
  return remainder === 0 ? 5 : remainder === 1 ? 0 : 11 - remainder;
}

/** True when the carrier named is the Brazilian post (or none is named and the code looks like one of its codes). */
export function isCorreios(carrier: string | undefined, code: string): boolean {
  if (carrier !== undefined && carrier.trim() !== '')
    return /^(empresa brasileira de correios|correios|ect|sedex|pac)\b/i.test(
      carrier.normalize('NFD').replace(/\p{M}/gu, '').trim(),
    );
  return correiosShape.test(code.trim().toUpperCase());
}

/** The reason a tracking code cannot be sent, or undefined. */
export function trackingCodeProblem(code: string, carrier?: string): string | undefined {
  const trimmed = code.trim();
  if (trimmed === '') return 'a shipped order needs its tracking code';
  if (isSpreadsheetExponent(trimmed)) return scientificNotationReason;
  if (isCorreios(carrier, trimmed)) {
    const match = correiosShape.exec(trimmed);
    if (!match)
      return 'a Correios code is two upper-case letters, eight digits, a check digit and two letters (AA123456785BR)';
    const expected = correiosCheckDigit(match[2] as string);
    if (Number(match[3]) !== expected)
      return `the Correios check digit (the 11th character) should be ${expected}; a digit was mistyped`;
    return undefined;
  }
  if (trimmed.length > maximumTrackingCodeLength)
    return `a tracking code has at most ${maximumTrackingCodeLength} characters`;
  if (/\p{Cc}/u.test(trimmed)) return 'a tracking code must not contain control characters';
  return undefined;
}

/** The reason a tracking link cannot be sent, or undefined: it must be an absolute https URL. */
export function trackingUrlProblem(url: string): string | undefined {
  if (url.length > maximumTrackingUrlLength)
    return `a tracking link has at most ${maximumTrackingUrlLength} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL; give the full link, https://…';
  }
  if (parsed.protocol !== 'https:') return 'a tracking link must be https://';
  if (parsed.username || parsed.password) return 'a tracking link must not carry a user name or password';
  return undefined;
}
