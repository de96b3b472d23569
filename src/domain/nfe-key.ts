import { isScientificNotation, scientificNotationReason } from './spreadsheet-numbers.js';

/**
 * The NF-e access key (chave de acesso): 44 characters, `cUF AAMM CNPJ mod serie nNF tpEmis cNF cDV`. Pure.
 * Since the alphanumeric CNPJ (technical note 2025.001), the 12 first characters of the CNPJ part may be upper-case
 * letters; every character then counts as its ASCII code minus 48, as in the CNPJ's own check digits.
 */
import { checkDocument } from './documents.js';

/** The IBGE codes of the 27 federative units, the key's first two digits. */
export const ibgeStateCodes: ReadonlyMap<string, string> = new Map([
  ['11', 'RO'], ['12', 'AC'], ['13', 'AM'], ['14', 'RR'], ['15', 'PA'], ['16', 'AP'], ['17', 'TO'],
  ['21', 'MA'], ['22', 'PI'], ['23', 'CE'], ['24', 'RN'], ['25', 'PB'], ['26', 'PE'], ['27', 'AL'],
  ['28', 'SE'], ['29', 'BA'], ['31', 'MG'], ['32', 'ES'], ['33', 'RJ'], ['35', 'SP'], ['41', 'PR'],
  ['42', 'SC'], ['43', 'RS'], ['50', 'MS'], ['51', 'MT'], ['52', 'GO'], ['53', 'DF'],
]); // prettier-ignore

/** The parts of a key that passed every check. */
export interface NfeAccessKey {
  key: string;
  state: string;
  /** `2026-11`: the year and month of issue. */
  yearMonth: string;
  /** The emitter: a CNPJ, or `000` and a CPF. */
  emitter: string;
  model: '55' | '65';
  series: string;
  number: string;
}

export type NfeKeyCheck = { ok: true; key: NfeAccessKey; warnings: string[] } | { ok: false; reason: string };

/** NF-e's first month: no NF-e was issued before it, so an older key's year or month is a slip (AAMM is 20AA). */
const firstNfeMonth = '2006-01';

const keyShape = /^\d{6}[0-9A-Z]{12}\d{26}$/;

/** The key's check digit over its first 43 characters: modulus 11, weights 2 to 9 from the right. */
export function accessKeyCheckDigit(first43: string): number {
  let sum = 0;
  let weight = 2;
  for (let index = first43.length - 1; index >= 0; index--) {
    sum += (first43.charCodeAt(index) - 48) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const remainder = sum % 11;
  return remainder < 2 ? 0 : 11 - remainder;
}

/**
 * Checks an access key's shape, check digit, state, month (from NF-e's first, not after `nowMs`), model and emitter
 * document.
 */
export function checkNfeAccessKey(raw: string, nowMs: number): NfeKeyCheck {
  if (isScientificNotation(raw)) return { ok: false, reason: scientificNotationReason };
  const key = raw.replace(/[\s.-]/g, '');
  // What people copy instead of the key: infNFe's Id (`NFe` and the key) and the XML file's name (the key, `.xml`).
  if (/^NFe[0-9A-Z]{44}$/i.test(key))
    return { ok: false, reason: `that is the XML's infNFe Id: the key is what follows NFe, ${key.slice(3)}` };
  if (/^[0-9A-Z]{44}xml$/i.test(key) && /\.xml\s*$/i.test(raw))
    return {
      ok: false,
      reason: `that is a file's name: give the file with --xml, or the key alone, ${key.slice(0, 44)}`,
    };
  if (/[a-z]/.test(key)) return { ok: false, reason: 'access key letters (alphanumeric CNPJ) must be upper case' };
  if (key.length !== 44) return { ok: false, reason: `an access key has 44 characters, this one has ${key.length}` };
  if (!keyShape.test(key))
    return {
      ok: false,
      reason: 'an access key has digits only, except upper-case letters in its CNPJ part (13th to 26th)',
    };
  if (accessKeyCheckDigit(key.slice(0, 43)) !== key.charCodeAt(43) - 48)
    return { ok: false, reason: 'the access key check digit (the last one) does not match; a digit was mistyped' };
  const state = ibgeStateCodes.get(key.slice(0, 2));
  if (!state) return { ok: false, reason: `${key.slice(0, 2)} is not the IBGE code of a Brazilian state` };
  const month = Number(key.slice(4, 6));
  if (month < 1 || month > 12) return { ok: false, reason: `the month of issue ${key.slice(4, 6)} is not 01 to 12` };
  const yearMonth = `20${key.slice(2, 4)}-${key.slice(4, 6)}`;
  // Brasília time (UTC-3): the first hours of a month in Brazil are still the last month in UTC-3's eyes.
  const now = new Date(nowMs - 3 * 3_600_000).toISOString().slice(0, 7);
  if (yearMonth > now) return { ok: false, reason: `the month of issue ${yearMonth} is in the future` };
  if (yearMonth < firstNfeMonth)
    return {
      ok: false,
      reason: `the month of issue ${yearMonth} is before the first NF-e (${firstNfeMonth}): not the key of an NF-e`,
    };
  const model = key.slice(20, 22);
  if (model !== '55' && model !== '65')
    return { ok: false, reason: `model ${model} is not an NF-e (55) or an NFC-e (65)` };
  const emitter = key.slice(6, 20);
  const emitterProblem = checkKeyEmitter(emitter);
  if (emitterProblem) return { ok: false, reason: emitterProblem };
  const warnings =
    model === '65'
      ? ['model 65 is an NFC-e, a consumer invoice; a B2B order is usually invoiced with an NF-e (55)']
      : [];
  const parts = {
    key,
    state,
    yearMonth,
    emitter,
    model,
    series: key.slice(22, 25),
    number: key.slice(25, 34),
  } as const;
  return { ok: true, key: parts, warnings };
}

/** The emitter part: a valid CNPJ (numeric or alphanumeric), or `000` and a valid CPF (rural producers). */
function checkKeyEmitter(emitter: string): string | undefined {
  const cnpj = checkDocument(emitter);
  if (cnpj.ok) return undefined;
  if (emitter.startsWith('000') && checkDocument(emitter.slice(3)).ok) return undefined;
  return `the emitter CNPJ in the access key (${emitter}) is not valid: ${cnpj.reason}`;
}
