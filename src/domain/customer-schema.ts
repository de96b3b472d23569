/**
 * The customer rules as a zod schema: the reference that the plain rules of customer.ts follow
 * (test/unit/domain/customer-plain-rules.test.ts holds them to it on every kind of awkward value, message for
 * message, body for body). Nothing on the import path runs it: zod's object machinery on each row of a
 * 100,000-row file was most of the cost of validating it. Pure.
 */
import { z } from 'zod';
import { normalizeCep } from './cep.js';
import {
  addWholeRecordProblems,
  customerProblem,
  documentTypeCheck,
  givesNeitherCepNorNumber,
  isPlausibleEmail,
  numberTextReasonOfValue,
  sortCustomerProblems,
} from './customer.js';
import { addressFieldTypes, topFieldTypes, type FieldType } from './customer-fields.js';
import {
  booleanInput,
  coordinateLimits,
  customerReasons as reasons,
  isBlank,
  isObject,
  listInput,
  numberInput,
  shownValue,
  textInput,
} from './customer-values.js';
import { checkDocument, documentAsSent } from './documents.js';
import { normalizePhone } from './phone.js';
import type { FieldProblem, RecordVerdict } from './validation.js';

const missingOr = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? reasons.required : expected;

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

/** The record with every known field read as its type: text blank as undefined, "true" as true, "12" as 12. */
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

const requiredText = z.string({ error: missingOr(reasons.text) });
const optionalSchemas: Record<FieldType, z.ZodType> = {
  string: z.string({ error: reasons.text }).optional(),
  boolean: z.boolean({ error: reasons.boolean }).optional(),
  number: z.number({ error: (issue) => numberTextReasonOfValue(issue.input) ?? reasons.number }).optional(),
  integer: z
    .number({ error: (issue) => numberTextReasonOfValue(issue.input) ?? reasons.wholeNumber })
    .int({ error: reasons.wholeNumber })
    .optional(),
  list: z.array(z.string({ error: reasons.name }), { error: reasons.names }).optional(),
};

function withReason<T>(schema: z.ZodType<T>, check: (value: T) => { ok: true } | { ok: false; reason: string }) {
  return schema.superRefine((value, context) => {
    if (value === undefined) return;
    const result = check(value);
    if (!result.ok) context.addIssue({ code: 'custom', message: result.reason });
  });
}

const addressSchema = z.object(
  {
    ...Object.fromEntries(Object.entries(addressFieldTypes).map(([key, type]) => [key, optionalSchemas[type]])),
    zipcode: withReason(requiredText, normalizeCep),
    number: requiredText,
    ...Object.fromEntries(
      Object.entries(coordinateLimits).map(([key, { limit, reason }]) => [
        key,
        withReason(optionalSchemas.number as z.ZodType<number | undefined>, (value) =>
          value === undefined || Math.abs(value) <= limit ? { ok: true } : { ok: false, reason },
        ),
      ]),
    ),
  },
  { error: reasons.address },
);

/** An update's registration address that gives neither CEP nor number: both are kept as stored. */
const addressPartsSchema = addressSchema.omit({ zipcode: true, number: true });

function bodySchema(mode: 'create' | 'update', registration: z.ZodType = addressSchema) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, type] of Object.entries(topFieldTypes[mode])) shape[key] = optionalSchemas[type];
  if (Object.hasOwn(shape, 'active')) shape.active = z.boolean({ error: reasons.active }).optional();
  shape.document = withReason(requiredText, (value: string) => checkDocument(value)).transform((value) => {
    const check = checkDocument(value);
    return check.ok ? documentAsSent(value, check.normalized) : value;
  });
  shape.customerRegistrationAddress = registration.optional();
  if (mode === 'create') {
    shape.documentType = withReason(requiredText, documentTypeCheck);
    shape.username = withReason(requiredText, (value) =>
      isPlausibleEmail(value.trim()) ? { ok: true } : { ok: false, reason: reasons.email },
    );
    shape.phone = withReason(requiredText, (value: string) => normalizePhone(value));
    shape.password = requiredText;
    shape.addressList = z.array(addressSchema, { error: reasons.addresses }).optional();
  } else {
    shape.phone = withReason(optionalSchemas.string as z.ZodType<string | undefined>, (value) =>
      value === undefined ? { ok: true } : normalizePhone(value),
    );
  }
  return z.object(shape, { error: reasons.record });
}

/** The create and update bodies as zod schemas, over records read by readRecord. */
export const customerSchemas = {
  create: bodySchema('create'),
  update: bodySchema('update'),
  updateOfAddressParts: bodySchema('update', addressPartsSchema),
};

/** validateCustomerCreate/Update through the zod schema, as they were before the plain rules: the reference. */
export function judgeCustomerBySchema(record: unknown, mode: 'create' | 'update'): RecordVerdict<unknown> {
  const keepsPlace =
    mode === 'update' && isObject(record) && givesNeitherCepNorNumber(record.customerRegistrationAddress);
  const parsed = customerSchemas[keepsPlace ? 'updateOfAddressParts' : mode].safeParse(readRecord(record, mode));
  const problems: FieldProblem[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join('.') || 'record';
      problems.push(customerProblem(field, valueAt(record, issue.path), issue.message));
    }
  }
  if (isObject(record) && mode === 'create') {
    addWholeRecordProblems(record, problems);
  }
  if (problems.length > 0) return { ok: false, problems: sortCustomerProblems(problems, mode) };
  return { ok: true, value: withoutUndefined(parsed.data) };
}

/** validateAddress through the zod schema: the reference. */
export function judgeAddressBySchema(address: unknown): RecordVerdict<unknown> {
  const parsed = addressSchema.safeParse(readAddress(address));
  if (parsed.success) return { ok: true, value: withoutUndefined(parsed.data) };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) =>
      customerProblem(issue.path.map(String).join('.') || 'address', valueAt(address, issue.path), issue.message),
    ),
  };
}

function valueAt(record: unknown, path: readonly PropertyKey[]): string {
  let value: unknown = record;
  for (const key of path)
    value = isObject(value) || Array.isArray(value) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return shownValue(value);
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
