/**
 * Local validation of a customer record, in the platform's own wording (DESIGN.md §6). Pure.
 *
 * A record arrives typed (strings, booleans, numbers, string arrays); an absent field, null and a
 * blank string all mean "missing". Every problem of a record is reported, not just the first, with
 * the platform's field name where the platform names it (documentType, username, document, phone,
 * password, ssoConfigId, address) and the precise dot path for finer checks (addressList.1.zipcode).
 *
 * Never stricter than the platform: stateRegistration, cnae and trackingPhone formats, and an
 * address's state, are not errors (the platform does not reject them); customerAdvisories() lists
 * them as warnings. A JSON number is accepted where text is expected and "true"/"false" where a
 * boolean is, as the platform's JSON reader converts them.
 */
import { z } from 'zod';
import { checkCnae, checkStateRegistration, isFederativeUnit } from './brazil-codes.js';
import { normalizeCep } from './cep.js';
import {
  addressFieldTypes,
  topFieldTypes,
  type AddressInput,
  type CustomerCreateBody,
  type CustomerUpdateBody,
  type FieldType,
} from './customer-fields.js';
import { checkDocument, documentKindOfType, documentLookupKey } from './documents.js';
import { normalizePhone } from './phone.js';
import { type FieldProblem, type RecordVerdict, validationMessage } from './validation.js';

export {
  customerFieldPaths,
  customerFieldType,
  type AddressInput,
  type CustomerCreateBody,
  type CustomerUpdateBody,
  type FieldType,
} from './customer-fields.js';

/** The fields the platform names in its 422 answers, in the order it checks them. */
export const platformCheckedFields = [
  'documentType',
  'username',
  'document',
  'phone',
  'password',
  'ssoConfigId',
  'address',
] as const;

/** The field the platform would name for a problem at a dot path: `address` for any address part. */
export function platformFieldOf(path: string): string {
  const top = path.split('.')[0] ?? path;
  return top === 'customerRegistrationAddress' || top === 'addressList' ? 'address' : top;
}

/** Validates a create record: every problem, or the body to send. */
export function validateCustomerCreate(record: unknown): RecordVerdict<CustomerCreateBody> {
  return validate(record, 'create') as RecordVerdict<CustomerCreateBody>;
}

/** Validates an update record: `document` is the key, required and valid; every other field optional. */
export function validateCustomerUpdate(record: unknown): RecordVerdict<CustomerUpdateBody> {
  return validate(record, 'update') as RecordVerdict<CustomerUpdateBody>;
}

/** Validates one address input (customerRegistrationAddress or an addressList item) on its own. */
export function validateAddress(address: unknown): RecordVerdict<AddressInput> {
  const parsed = addressSchema.safeParse(readAddress(address));
  if (parsed.success) return { ok: true, value: withoutUndefined(parsed.data) as AddressInput };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) =>
      problem(issue.path.map(String).join('.') || 'address', valueAt(address, issue.path), issue.message),
    ),
  };
}

/** The normalized document, for duplicate detection and resume; the document without punctuation when it is invalid. */
export function customerKey(record: { document?: unknown }): string | undefined {
  const text = textOf(record.document);
  if (text === undefined) return undefined;
  const check = checkDocument(text);
  return check.ok ? check.normalized : documentLookupKey(text) || undefined;
}

/** The login e-mail in lower case, for duplicate detection (the platform treats e-mails case-insensitively). */
export function customerEmailKey(record: { username?: unknown }): string | undefined {
  const text = textOf(record.username);
  return text === undefined ? undefined : text.trim().toLowerCase();
}

/** A plausible e-mail address: a local part without spaces or stray dots, `@`, a domain with a top-level label of 2+ letters. */
export function isPlausibleEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!/^[^\s@"(),:;<>[\]\\]+$/u.test(local) || local.split('.').includes('')) return false;
  return /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)$/iu.test(domain);
}

/**
 * Warnings, not errors: values the platform accepts but that are probably wrong (stateRegistration,
 * cnae, trackingPhone formats; an address state that is not a UF).
 */
export function customerAdvisories(record: unknown): FieldProblem[] {
  if (!isObject(record)) return [];
  const warnings: FieldProblem[] = [];
  const warn = (field: string, value: string, reason: string) =>
    warnings.push({
      field,
      value,
      message: `Property [${field}] with value [${value}] may be wrong (${reason}); the platform does not check it`,
    });
  const stateRegistration = textOf(record.stateRegistration);
  if (stateRegistration !== undefined) {
    const check = checkStateRegistration(stateRegistration);
    if (!check.ok) warn('stateRegistration', stateRegistration, check.reason);
  }
  const cnae = textOf(record.cnae);
  if (cnae !== undefined) {
    const check = checkCnae(cnae);
    if (!check.ok) warn('cnae', cnae, check.reason);
  }
  const trackingPhone = textOf(record.trackingPhone);
  if (trackingPhone !== undefined) {
    const check = normalizePhone(trackingPhone);
    if (!check.ok) warn('trackingPhone', trackingPhone, check.reason);
  }
  const addresses: [string, unknown][] = [['customerRegistrationAddress', record.customerRegistrationAddress]];
  if (Array.isArray(record.addressList))
    record.addressList.forEach((item, index) => addresses.push([`addressList.${index}`, item]));
  for (const [path, address] of addresses) {
    const state = isObject(address) ? textOf(address.state) : undefined;
    if (state !== undefined && !isFederativeUnit(state))
      warn(`${path}.state`, state, 'not one of the 27 UFs, such as SP');
  }
  return warnings;
}

// ---- zod schemas ----------------------------------------------------------------------------

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

const textInput = (value: unknown) =>
  isBlank(value) ? undefined : typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
const booleanInput = (value: unknown) => {
  if (isBlank(value)) return undefined;
  const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  return word === 'true' ? true : word === 'false' ? false : value;
};
const numberInput = (value: unknown) => {
  if (isBlank(value)) return undefined;
  return typeof value === 'string' && /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/.test(value)
    ? Number(value)
    : value;
};
const listInput = (value: unknown) =>
  isBlank(value) ? undefined : Array.isArray(value) ? value.map(textInput) : value;
const missingOr = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'required' : expected;

/** How each field type's input is read before the rules see it; one plain pass, because zod's preprocess on ~30 fields a record was most of the cost of validating a large file. */
const inputOf: Record<FieldType, (value: unknown) => unknown> = {
  string: textInput,
  boolean: booleanInput,
  number: numberInput,
  integer: numberInput,
  list: listInput,
};

function readAddress(value: unknown): unknown {
  if (isBlank(value)) return undefined;
  if (!isObject(value)) return value;
  const read: Record<string, unknown> = {};
  for (const key in value) {
    const type = Object.hasOwn(addressFieldTypes, key)
      ? addressFieldTypes[key as keyof typeof addressFieldTypes]
      : undefined;
    read[key] = type ? inputOf[type](value[key]) : value[key];
  }
  return read;
}

/** The record with every known field read as its type: text trimmed to undefined when blank, "true" as true, "12" as 12. */
function readRecord(record: unknown, mode: 'create' | 'update'): unknown {
  if (!isObject(record)) return record;
  const types = topFieldTypes[mode];
  const read: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key];
    if (key === 'customerRegistrationAddress') read[key] = readAddress(value);
    else if (key === 'addressList' && mode === 'create')
      read[key] = isBlank(value) ? undefined : Array.isArray(value) ? value.map(readAddress) : value;
    else {
      const type = Object.hasOwn(types, key) ? types[key] : undefined;
      read[key] = type ? inputOf[type](value) : value;
    }
  }
  return read;
}

const requiredText = z.string({ error: missingOr('expected text') });
const optionalSchemas: Record<FieldType, z.ZodType> = {
  string: z.string({ error: 'expected text' }).optional(),
  boolean: z.boolean({ error: 'expected true or false' }).optional(),
  number: z.number({ error: 'expected a number' }).optional(),
  integer: z.number({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).optional(),
  list: z.array(z.string({ error: 'expected a name' }), { error: 'expected a list of names' }).optional(),
};

function withReason<T>(schema: z.ZodType<T>, check: (value: T) => { ok: true } | { ok: false; reason: string }) {
  return schema.superRefine((value, context) => {
    if (value === undefined) return;
    const result = check(value);
    if (!result.ok) context.addIssue({ code: 'custom', message: result.reason });
  });
}

const zipcodeSchema = withReason(requiredText, normalizeCep);
const phoneCheck = (value: string) => normalizePhone(value);
const documentCheck = (value: string) => checkDocument(value);

const addressSchema = z.object(
  {
    ...Object.fromEntries(Object.entries(addressFieldTypes).map(([key, type]) => [key, optionalSchemas[type]])),
    zipcode: zipcodeSchema,
    number: requiredText,
  },
  { error: 'expected an address object' },
);
const optionalAddress = addressSchema.optional();

function bodySchema(mode: 'create' | 'update') {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, type] of Object.entries(topFieldTypes[mode])) shape[key] = optionalSchemas[type];
  shape.document = withReason(requiredText, documentCheck);
  shape.customerRegistrationAddress = optionalAddress;
  if (mode === 'create') {
    shape.documentType = withReason(requiredText, (value) =>
      documentKindOfType(value)
        ? { ok: true }
        : { ok: false, reason: 'use cpf or pf for an individual, cnpj or pj for a company' },
    );
    shape.username = withReason(requiredText, (value) =>
      isPlausibleEmail(value.trim()) ? { ok: true } : { ok: false, reason: 'not a valid e-mail address' },
    );
    shape.phone = withReason(requiredText, phoneCheck);
    shape.password = requiredText;
    shape.addressList = z.array(addressSchema, { error: 'expected a list of addresses' }).optional();
  } else {
    shape.phone = withReason(optionalSchemas.string as z.ZodType<string | undefined>, (value) =>
      value === undefined ? { ok: true } : phoneCheck(value),
    );
  }
  return z.object(shape, { error: 'expected an object of customer fields' });
}

const schemas = { create: bodySchema('create'), update: bodySchema('update') };

// ---- validation -----------------------------------------------------------------------------

function validate(record: unknown, mode: 'create' | 'update'): RecordVerdict<CustomerCreateBody | CustomerUpdateBody> {
  const parsed = schemas[mode].safeParse(readRecord(record, mode));
  const problems: FieldProblem[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join('.') || 'record';
      problems.push(problem(field, valueAt(record, issue.path), issue.message));
    }
  }
  if (isObject(record)) {
    if (mode === 'create') {
      const mismatch = documentTypeMismatch(record);
      if (mismatch) problems.push(problem('document', textOf(record.document) ?? '', mismatch));
      const combination = addressCombinationProblem(record);
      if (combination) problems.push(problem('address', '', combination));
    }
  }
  if (problems.length > 0) return { ok: false, problems: sortProblems(problems, mode) };
  return { ok: true, value: withoutUndefined(parsed.data) as CustomerCreateBody | CustomerUpdateBody };
}

function problem(field: string, value: string, detail: string): FieldProblem {
  // The customer's password is a secret like any other: never echoed in a message or report.
  const shown = platformFieldOf(field) === 'password' && value !== '' ? '***' : value;
  return { field, value: shown, message: validationMessage(field, shown, detail) };
}

/** A valid document of the other kind than documentType says, or undefined. */
function documentTypeMismatch(record: Record<string, unknown>): string | undefined {
  const documentType = textOf(record.documentType);
  const document = textOf(record.document);
  if (documentType === undefined || document === undefined) return undefined;
  const wanted = documentKindOfType(documentType);
  const check = checkDocument(document);
  if (!wanted || !check.ok || check.kind === wanted) return undefined;
  return `documentType ${documentType} needs a ${wanted.toUpperCase()}, and this is a ${check.kind.toUpperCase()}`;
}

/**
 * The address combination table: registration address alone; addressList alone with exactly one
 * principal item; or both. More than one principal item is rejected in every case, as the main
 * address would be ambiguous.
 */
export function addressCombinationProblem(record: Record<string, unknown>): string | undefined {
  const hasRegistration = !isBlank(record.customerRegistrationAddress);
  const list = Array.isArray(record.addressList) ? record.addressList : undefined;
  const principals = list ? list.filter((item) => isObject(item) && booleanInput(item.principal) === true).length : 0;
  if (principals > 1) return `addressList has ${principals} items with principal true; mark only one`;
  if (hasRegistration) return undefined;
  if (!list) return 'send customerRegistrationAddress, or addressList with one item marked principal';
  if (principals === 0)
    return 'addressList has no item with principal true; mark the main address or send customerRegistrationAddress';
  return undefined;
}

const problemOrder = new Map<string, number>(
  [...platformCheckedFields, 'customerRegistrationAddress', 'addressList'].map((field, index) => [field, index]),
);

/** Platform-named fields first, in the platform's order (addresses with `address`), then the others in body order. */
function sortProblems(problems: FieldProblem[], mode: 'create' | 'update'): FieldProblem[] {
  const bodyOrder = Object.keys(topFieldTypes[mode]);
  const rank = (field: string) => {
    const top = platformFieldOf(field);
    return problemOrder.get(top) ?? 100 + bodyOrder.indexOf(top);
  };
  return problems
    .map((item, index) => ({ item, index, rank: rank(item.field) }))
    .toSorted((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ item }) => item);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text of a string or number field, trimmed; undefined when missing or blank. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.trim();
}

/** The value at a path as the message shows it: text as is, missing as empty, objects as JSON (cut at 80 characters). */
function valueAt(record: unknown, path: readonly PropertyKey[]): string {
  let value: unknown = record;
  for (const key of path)
    value = isObject(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

/** The parsed body without the keys zod left undefined (absent or blank fields). */
function withoutUndefined(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(withoutUndefined);
  const result: Record<string, unknown> = {};
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) result[key] = typeof item === 'object' ? withoutUndefined(item) : item;
  }
  return result;
}
