/**
 * Local validation of a customer record, in the platform's own wording (docs/input-files.md, "Local validation"). Pure.
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
import { checkCnae, checkStateRegistration, isFederativeUnit, stateAdvice } from './brazil-codes.js';
import { normalizeCep } from './cep.js';
import {
  addressFieldTypes,
  topFieldTypes,
  type AddressInput,
  type CustomerCreateBody,
  type CustomerUpdateBody,
  type FieldType,
} from './customer-fields.js';
import {
  booleanInput,
  coordinateLimits,
  customerReasons as reasons,
  isBlank,
  isObject,
  numberInput,
  shownValue,
  textInput,
  textOf,
} from './customer-values.js';
import {
  checkDocument,
  documentAsSent,
  type DocumentCheck,
  documentKindOfType,
  documentLookupKey,
  documentWithLostZeros,
  lostZeroReason,
  lostZeroSentence,
} from './documents.js';
import { normalizePhone } from './phone.js';
import { isSpreadsheetExponent, numberTextReason } from './spreadsheet-numbers.js';
import { type FieldProblem, type RecordVerdict, validationMessage } from './validation.js';

export {
  customerFieldPaths,
  customerFieldType,
  customerTextKind,
  type AddressInput,
  type AddressPartsInput,
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
  const problems: FieldProblem[] = [];
  const value = readAddress(address, '', true, problems, addressRules);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: value as unknown as AddressInput };
}

/** The normalized document, for duplicate detection and resume; the document without punctuation when it is invalid. */
export function customerKey(record: { document?: unknown }): string | undefined {
  const text = textOf(record.document);
  if (text === undefined) return undefined;
  const check = checkedDocument(text);
  return check.ok ? check.normalized : documentLookupKey(text) || undefined;
}

/** The login e-mail in lower case, for duplicate detection (the platform treats e-mails case-insensitively). */
export function customerEmailKey(record: { username?: unknown }): string | undefined {
  const text = textOf(record.username);
  return text === undefined ? undefined : text.trim().toLowerCase();
}

const emailLocalPart = /^[^\s@"(),:;<>[\]\\]+$/u;
const emailDomain = /^(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+(?:\p{L}{2,}|xn--[a-z0-9-]+)$/iu;

/** A plausible e-mail address: a local part without spaces or stray dots, `@`, a domain with a top-level label of 2+ letters. */
export function isPlausibleEmail(text: string): boolean {
  if (text.length > 254) return false;
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const local = text.slice(0, at);
  // No empty part between dots (checked without splitting: this runs on every row).
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  return emailLocalPart.test(local) && emailDomain.test(text.slice(at + 1));
}

/** The address types the platform knows; it stores any other as RESIDENTIAL. */
const addressTypes: readonly string[] = ['RESIDENTIAL', 'BUSINESS'];

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
  // One in scientific notation is refused by the CLI's own check (its digits are gone): no warning beside it.
  if (stateRegistration !== undefined && !isSpreadsheetExponent(stateRegistration)) {
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
  // Runs on every row: the addresses are walked without a list of them (their paths are built for a warning only).
  const checkState = (address: unknown, path: () => string) => {
    if (!isObject(address)) return;
    const state = textOf(address.state);
    if (state !== undefined && !isFederativeUnit(state)) warn(`${path()}.state`, state, stateAdvice(state));
    const type = textOf(address.addressType);
    // The platform takes any other value and stores RESIDENTIAL: a "Comercial" address would become a home. It reads
    // the two in any case (the platform takes "RESIDENTIAL or BUSINESS, case-insensitive"), so `business` is BUSINESS.
    if (type !== undefined && !addressTypes.includes(type.toUpperCase()))
      warn(
        `${path()}.addressType`,
        type,
        'the platform knows RESIDENTIAL and BUSINESS, and stores any other value as RESIDENTIAL',
      );
  };
  checkState(record.customerRegistrationAddress, () => 'customerRegistrationAddress');
  const list = record.addressList;
  if (Array.isArray(list))
    for (let index = 0; index < list.length; index++) checkState(list[index], () => `addressList.${index}`);
  return warnings;
}

// ---- the rules --------------------------------------------------------------------------------
//
// Plain functions that follow the zod schema of customer-schema.ts, reason for reason and in its order: zod's
// object machinery on each row of a 100,000-row file was most of the cost of validating it.
// test/unit/domain/customer-plain-rules.test.ts holds them to the schema.

/** A field's rule on its text; `sent` is what goes in the body when that is not the text as written. */
type TextCheck = (text: string) => { ok: true; sent?: string } | { ok: false; reason: string };

interface FieldRule {
  key: string;
  type: FieldType;
  /** Missing is a problem ('required'); only text fields are required. */
  required: boolean;
  /** The field's own rule, on text that passed the type rule. */
  check?: TextCheck;
  /** A number's largest magnitude (a coordinate's degrees), and the reason past it. */
  limit?: { limit: number; reason: string };
}

export const documentTypeCheck: TextCheck = (text) => {
  if (documentKindOfType(text)) return { ok: true };
  // `CPF` from an ERP's export: said how to write it, not changed behind the operator's back (docs/input-files.md).
  const lower = text.trim().toLowerCase();
  if (documentKindOfType(lower))
    return { ok: false, reason: `write it in lower case, ${lower}: the platform takes no other spelling` };
  return { ok: false, reason: reasons.documentType };
};
const emailCheck: TextCheck = (text) =>
  isPlausibleEmail(text.trim()) ? { ok: true } : { ok: false, reason: reasons.email };

function fieldRules(
  types: Readonly<Record<string, FieldType>>,
  special: Readonly<Record<string, Omit<FieldRule, 'key' | 'type'>>>,
): FieldRule[] {
  return Object.entries(types).map(([key, type]) => ({ key, type, required: false, ...special[key] }));
}

/** The top fields of each body in the schema's order (the order problems of one rank are listed in). */
const topRules: Record<'create' | 'update', readonly FieldRule[]> = {
  create: fieldRules(topFieldTypes.create, {
    documentType: { required: true, check: documentTypeCheck },
    document: { required: true, check: documentRule },
    username: { required: true, check: emailCheck },
    phone: { required: true, check: normalizePhone },
    password: { required: true },
  }),
  update: fieldRules(topFieldTypes.update, {
    document: { required: true, check: documentRule },
    phone: { required: false, check: normalizePhone },
  }),
};
/** The fields every record must give, in body order: the create body's required ones; an update's document. */
export const requiredCustomerFields: Readonly<Record<'create' | 'update', readonly string[]>> = {
  create: topRules.create.filter((rule) => rule.required).map((rule) => rule.key),
  update: topRules.update.filter((rule) => rule.required).map((rule) => rule.key),
};

const addressRules = fieldRules(addressFieldTypes, {
  zipcode: { required: true, check: normalizeCep },
  number: { required: true },
  lat: { required: false, limit: coordinateLimits.lat },
  lng: { required: false, limit: coordinateLimits.lng },
});
/** An update's registration address without CEP and number: both come from the stored record (AddressPartsInput). */
const addressPartsRules = addressRules.filter((rule) => rule.key !== 'zipcode' && rule.key !== 'number');

/**
 * Whether an update's registration address gives neither CEP nor number, only parts such as the complement: it is
 * completed from the stored record, so neither is required. One of them alone is a new place, and needs the other.
 */
export function givesNeitherCepNorNumber(address: unknown): boolean {
  return isObject(address) && isBlank(address.zipcode) && isBlank(address.number);
}

function validate(record: unknown, mode: 'create' | 'update'): RecordVerdict<CustomerCreateBody | CustomerUpdateBody> {
  if (!isObject(record))
    return { ok: false, problems: [customerProblem('record', shownValue(record), reasons.record)] };
  const problems: FieldProblem[] = [];
  const body: Record<string, unknown> = {};
  readFields(topRules[mode], record, '', body, problems);
  const given = record.customerRegistrationAddress;
  const rules = mode === 'update' && givesNeitherCepNorNumber(given) ? addressPartsRules : addressRules;
  const registration = readAddress(given, 'customerRegistrationAddress', false, problems, rules);
  if (registration !== undefined) body.customerRegistrationAddress = registration;
  if (mode === 'create') {
    const list = record.addressList;
    if (Array.isArray(list)) {
      const items: unknown[] = [];
      for (let index = 0; index < list.length; index++)
        items.push(readAddress(list[index], `addressList.${index}`, true, problems, addressRules));
      body.addressList = items;
    } else if (!isBlank(list)) problems.push(customerProblem('addressList', shownValue(list), reasons.addresses));
    addWholeRecordProblems(record, problems);
  }
  if (problems.length > 0) return { ok: false, problems: sortCustomerProblems(problems, mode) };
  return { ok: true, value: body as unknown as CustomerCreateBody | CustomerUpdateBody };
}

/** An address read into its body, or undefined when absent or wrong (its problems added); `path` '' for a lone address. */
function readAddress(
  raw: unknown,
  path: string,
  required: boolean,
  problems: FieldProblem[],
  rules: readonly FieldRule[],
): Record<string, unknown> | undefined {
  if (!isObject(raw)) {
    // A blank address is an absent one: fine for customerRegistrationAddress, not for an item of addressList.
    if (required || !isBlank(raw)) problems.push(customerProblem(path || 'address', shownValue(raw), reasons.address));
    return undefined;
  }
  const body: Record<string, unknown> = {};
  readFields(rules, raw, path, body, problems);
  return body;
}

/**
 * Reads each field of `rules` from `raw` into `body` when present and right, else adds its problem; the paths of
 * problems are built only then (`prefix` '' for the top of the record).
 */
function readFields(
  rules: readonly FieldRule[],
  raw: Record<string, unknown>,
  prefix: string,
  body: Record<string, unknown>,
  problems: FieldProblem[],
): void {
  for (const rule of rules) {
    const value = raw[rule.key];
    // Most optional fields of a row are absent: nothing to read, nothing wrong.
    if (value === undefined && !rule.required) continue;
    const reason = readField(rule, value, prefix, body, problems);
    if (reason !== undefined)
      problems.push(customerProblem(prefix === '' ? rule.key : `${prefix}.${rule.key}`, shownValue(value), reason));
  }
}

/** Reads one field into `body`; answers the reason it is wrong (a list adds the problems of its items itself). */
function readField(
  rule: FieldRule,
  raw: unknown,
  prefix: string,
  body: Record<string, unknown>,
  problems: FieldProblem[],
): string | undefined {
  switch (rule.type) {
    case 'string': {
      const text = textInput(raw);
      if (text === undefined) return rule.required ? reasons.required : undefined;
      if (typeof text !== 'string') return reasons.text;
      let sent = text;
      if (rule.check !== undefined) {
        const checked = rule.check(text);
        if (!checked.ok) return checked.reason;
        sent = checked.sent ?? text;
      }
      body[rule.key] = sent;
      return undefined;
    }
    case 'boolean': {
      const value = booleanInput(raw);
      if (typeof value === 'boolean') body[rule.key] = value;
      else if (value !== undefined) return prefix === '' && rule.key === 'active' ? reasons.active : reasons.boolean;
      return undefined;
    }
    case 'number':
    case 'integer': {
      const value = numberInput(raw);
      if (value === undefined) return undefined;
      const whole = rule.type === 'integer';
      if (typeof value !== 'number' || !(whole ? Number.isSafeInteger(value) : Number.isFinite(value)))
        return numberTextReasonOfValue(value) ?? (whole ? reasons.wholeNumber : reasons.number);
      if (rule.limit !== undefined && Math.abs(value) > rule.limit.limit) return rule.limit.reason;
      body[rule.key] = value;
      return undefined;
    }
    case 'list': {
      if (isBlank(raw)) return undefined;
      if (!Array.isArray(raw)) return reasons.names;
      const names: string[] = [];
      let good = true;
      for (let index = 0; index < raw.length; index++) {
        const name = textInput(raw[index]);
        if (typeof name === 'string') names.push(name);
        else {
          good = false;
          const path = prefix === '' ? rule.key : `${prefix}.${rule.key}`;
          problems.push(customerProblem(`${path}.${index}`, shownValue(raw[index]), reasons.name));
        }
      }
      if (good) body[rule.key] = names;
      return undefined;
    }
  }
}

/** A document's rule: valid, and sent as documentAsSent says. */
function documentRule(text: string): ReturnType<TextCheck> {
  const check = checkedDocument(text);
  return check.ok ? { ok: true, sent: documentAsSent(text, check.normalized) } : check;
}

let lastDocumentText: string | undefined;
let lastDocumentCheck: DocumentCheck | undefined;

/**
 * checkDocument, remembering the last answer: a row's document is checked by its rule, again for the documentType
 * match, and again for its duplicate key (customerKey), the same text each time.
 */
function checkedDocument(text: string): DocumentCheck {
  if (text !== lastDocumentText || lastDocumentCheck === undefined) {
    lastDocumentCheck = checkDocument(text);
    lastDocumentText = text;
  }
  return lastDocumentCheck;
}

/** Why a number field's text is no number (too many digits, beyond the largest), said of "it", or undefined. */
export function numberTextReasonOfValue(value: unknown): string | undefined {
  const reason = numberTextReason(value);
  return reason === undefined ? undefined : `it ${reason}`;
}

/** Whether a customer field holds a secret: the password, never echoed in a problem, a log line or an output. */
export function isCustomerSecretField(path: string): boolean {
  return platformFieldOf(path) === 'password';
}

/** A problem of a customer field; the customer's password is a secret like any other, never echoed. */
export function customerProblem(field: string, value: string, detail: string): FieldProblem {
  const shown = isCustomerSecretField(field) && value !== '' ? '***' : value;
  return { field, value: shown, message: validationMessage(field, shown, detail) };
}

/**
 * The problems of a new customer that no single field shows: a document of the other kind than documentType says,
 * an address combination the platform refuses, and a document problem that is a spreadsheet's lost zeros. Both
 * validations, the plain rules and the schema, end a new customer's checks with these.
 */
export function addWholeRecordProblems(record: Record<string, unknown>, problems: FieldProblem[]): void {
  const mismatch = documentTypeMismatch(record);
  if (mismatch) problems.push(customerProblem('document', textOf(record.document) ?? '', mismatch));
  const combination = addressCombinationProblem(record);
  if (combination) problems.push(customerProblem('address', '', combination));
  hintLostZeros(record, problems);
}

/** A valid document of the other kind than documentType says, or undefined. */
function documentTypeMismatch(record: Record<string, unknown>): string | undefined {
  const documentType = textOf(record.documentType);
  const document = textOf(record.document);
  if (documentType === undefined || document === undefined) return undefined;
  const wanted = documentKindOfType(documentType);
  const check = checkedDocument(document);
  if (!wanted || !check.ok || check.kind === wanted) return undefined;
  const lostZeros = documentWithLostZeros(document, wanted);
  return `documentType ${documentType} needs a ${wanted.toUpperCase()}, and this is a ${check.kind.toUpperCase()}${lostZeroSentence(lostZeros === undefined ? [] : [lostZeros])}`;
}

/**
 * The document problem of a record whose documentType names the kind its document was before a spreadsheet took
 * its leading zeros: said as the lost zeros, not as the check the digits fail as typed (a `cnpj` row's 78057000103
 * is 11 digits, read alone as a CPF whose check digits do not match). A reason that names that document already
 * (a 13-digit CNPJ's) is kept. It ends a new customer's whole-record checks.
 */
function hintLostZeros(record: Record<string, unknown>, problems: FieldProblem[]): void {
  const kind = documentKindOfType(textOf(record.documentType) ?? '');
  const document = textOf(record.document);
  if (kind === undefined || document === undefined || checkedDocument(document).ok) return;
  const valid = documentWithLostZeros(document, kind);
  const index = problems.findIndex((problem) => problem.field === 'document');
  const problem = problems[index];
  if (valid === undefined || problem === undefined || problem.message.includes(valid)) return;
  problems[index] = customerProblem('document', problem.value, lostZeroReason(kind, valid));
}

/**
 * The address combination table: registration address alone; addressList alone with exactly one
 * principal item; or both. More than one principal item is rejected in every case, as the main
 * address would be ambiguous.
 */
function addressCombinationProblem(record: Record<string, unknown>): string | undefined {
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
export function sortCustomerProblems(problems: FieldProblem[], mode: 'create' | 'update'): FieldProblem[] {
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
