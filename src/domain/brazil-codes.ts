/** Brazilian codes: federative units, state registration, CNAE. Pure. */

export const federativeUnits = [
  'AC',
  'AL',
  'AM',
  'AP',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MG',
  'MS',
  'MT',
  'PA',
  'PB',
  'PE',
  'PI',
  'PR',
  'RJ',
  'RN',
  'RO',
  'RR',
  'RS',
  'SC',
  'SE',
  'SP',
  'TO',
] as const;

export type FederativeUnit = (typeof federativeUnits)[number];

const unitSet: ReadonlySet<string> = new Set(federativeUnits);

/** True for one of the 27 UFs, in upper case as the Correios write them. */
export function isFederativeUnit(value: string): value is FederativeUnit {
  return unitSet.has(value);
}

/** Each UF's state, as written in an address (`São Paulo`, `Distrito Federal`). */
const stateNames: Readonly<Record<FederativeUnit, string>> = {
  AC: 'Acre',
  AL: 'Alagoas',
  AM: 'Amazonas',
  AP: 'Amapá',
  BA: 'Bahia',
  CE: 'Ceará',
  DF: 'Distrito Federal',
  ES: 'Espírito Santo',
  GO: 'Goiás',
  MA: 'Maranhão',
  MG: 'Minas Gerais',
  MS: 'Mato Grosso do Sul',
  MT: 'Mato Grosso',
  PA: 'Pará',
  PB: 'Paraíba',
  PE: 'Pernambuco',
  PI: 'Piauí',
  PR: 'Paraná',
  RJ: 'Rio de Janeiro',
  RN: 'Rio Grande do Norte',
  RO: 'Rondônia',
  RR: 'Roraima',
  RS: 'Rio Grande do Sul',
  SC: 'Santa Catarina',
  SE: 'Sergipe',
  SP: 'São Paulo',
  TO: 'Tocantins',
};

/** A state's name with case, accents and spacing set aside: `sao  paulo` is `São Paulo`. */
const plainName = (name: string) =>
  name.normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toLowerCase();
const unitOfName: ReadonlyMap<string, FederativeUnit> = new Map(
  federativeUnits.map((unit) => [plainName(stateNames[unit]), unit]),
);

/**
 * Why a state that is no UF may be wrong, in words that lead to the UF (a user test): `sp` is SP in lower case
 * ("write it in capitals (SP)"), `Sao Paulo` the state's name ("the UF of São Paulo is SP"); anything else is not one
 * of the 27.
 */
export function stateAdvice(state: string): string {
  const upper = state.trim().toUpperCase();
  if (isFederativeUnit(upper)) return `write it in capitals (${upper})`;
  const named = unitOfName.get(plainName(state));
  if (named !== undefined) return `the UF of ${stateNames[named]} is ${named}`;
  return 'not one of the 27 UFs, such as SP';
}

export type StateRegistrationCheck = { ok: true; exempt: boolean; digits: string } | { ok: false; reason: string };

/** A state registration: 2–14 digits once `.`, `-`, `/` and spaces are removed, or `ISENTO` (exempt, any case). */
export function checkStateRegistration(raw: string): StateRegistrationCheck {
  const text = raw.trim();
  if (text.toUpperCase() === 'ISENTO') return { ok: true, exempt: true, digits: '' };
  const digits = text.replace(/[.\-/\s]/g, '');
  if (!/^\d{2,14}$/.test(digits)) return { ok: false, reason: 'a state registration has 2 to 14 digits, or is ISENTO' };
  return { ok: true, exempt: false, digits };
}

export type CnaeCheck = { ok: true; formatted: string } | { ok: false; reason: string };

/** A CNAE subclass: 7 digits, written `NNNN-N/NN`; accepts that form or the 7 bare digits. */
export function checkCnae(raw: string): CnaeCheck {
  const match = /^(\d{4})-?(\d)\/?(\d{2})$/.exec(raw.trim());
  if (!match) return { ok: false, reason: 'a CNAE subclass has 7 digits, written NNNN-N/NN' };
  return { ok: true, formatted: `${match[1]}-${match[2]}/${match[3]}` };
}
