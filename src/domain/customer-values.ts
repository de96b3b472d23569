/**
 * How a customer record's values are read before the rules judge them, and the reasons the rules give. Shared by
 * the plain rules (customer.ts, what runs) and the zod schema they follow (customer-schema.ts, the reference),
 * so both read a cell and word a problem the same way. Pure.
 */

/** The reasons of the type rules, word for word as the platform-style messages show them. */
export const customerReasons = {
  required: 'required',
  text: 'expected text',
  // A cell also takes the words people type (cell-values.ts); a JSON value is true or false.
  boolean: 'expected true or false; a cell also takes sim/não, s/n, 1/0, verdadeiro/falso',
  // The active flag reads a state's words too (cell-values.ts, parseActiveState), as customer status does.
  active:
    'expected true or false; a cell also takes active/inactive, ativo/inativo, liberado/bloqueado, sim/não, s/n, 1/0, verdadeiro/falso',
  number: 'expected a number',
  wholeNumber: 'expected a whole number',
  name: 'expected a name',
  names: 'expected a list of names',
  address: 'expected an address object',
  addresses: 'expected a list of addresses',
  record: 'expected an object of customer fields',
  documentType: 'use cpf or pf for an individual, cnpj or pj for a company',
  email: 'not a valid e-mail address',
  latitude: 'a latitude is between -90 and 90 degrees',
  longitude: 'a longitude is between -180 and 180 degrees',
} as const;

/** The largest magnitude of a coordinate, and the reason past it. */
export const coordinateLimits = {
  lat: { limit: 90, reason: customerReasons.latitude },
  lng: { limit: 180, reason: customerReasons.longitude },
} as const;

/** Absent, null and blank text all mean "missing". */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text field's input: missing as undefined, a JSON number as its text (the platform's JSON reader converts it). */
export function textInput(value: unknown): unknown {
  return isBlank(value) ? undefined : typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

/** A boolean field's input: "true" and "false" (any case, spaces around) as booleans. */
export function booleanInput(value: unknown): unknown {
  if (isBlank(value)) return undefined;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return word === 'true' ? true : word === 'false' ? false : value;
}

const numberText = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** A number field's input: text that is a decimal number as that number. */
export function numberInput(value: unknown): unknown {
  if (isBlank(value)) return undefined;
  return typeof value === 'string' && numberText.test(value) ? Number(value) : value;
}

/** A list field's input: missing as undefined, each item read as text. */
export function listInput(value: unknown): unknown {
  return isBlank(value) ? undefined : Array.isArray(value) ? value.map(textInput) : value;
}

/** Text of a string or number field, trimmed; undefined when missing or blank. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.trim();
}

/** A value as a message shows it: text as is, missing as empty, objects as JSON (cut at 80 characters). */
export function shownValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}
