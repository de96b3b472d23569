import { RecordChecker, type UniqueValue } from '../../bulk/validation-pass.js';
import { secretCellsOf } from '../../bulk/record-secrets.js';
import {
  customerEmailKey,
  customerFieldPaths,
  customerFieldType,
  customerKey,
  customerTextKind,
  isCustomerSecretField,
  requiredCustomerFields,
  validateCustomerCreate,
  validateCustomerUpdate,
} from '../../domain/customer.js';
import { isObject } from '../../domain/customer-values.js';
import { spreadsheetExponentProblem } from '../../domain/spreadsheet-numbers.js';
import { type FieldProblem, type RecordVerdict, withProblems } from '../../domain/validation.js';
import type { InputRecord } from '../../io/input/open-input.js';
import { type CellReading, type FieldCatalogue, kindsByField } from '../../io/input/record-shape.js';

export type CustomerMode = 'create' | 'update';

/** The columns of a customer file: dot paths into the create or update body (`addressList.0.zipcode`). */
export function customerCatalogue(mode: CustomerMode): FieldCatalogue {
  return {
    typeOf: (path) => customerFieldType(path, mode),
    textKindOf: (path) => customerTextKind(path, mode),
    readingOf: customerReadingOf,
    // Its problems come from the reader too (an invisible character, a formula's error), which quote the cell.
    isSecret: isCustomerSecretField,
    knownPaths: customerFieldPaths[mode],
    // A header without one of them is one error at the header, not the same problem on every row.
    requiredColumns: requiredCustomerFields[mode],
    notTaken: mode === 'update' ? notUpdated : notCreated,
    // Names, complements, phones: a workbook's 1500.5 there was typed 1500,5 as text, sent neither way (a user test).
    refusesFractionCellsInText: true,
  };
}

/**
 * How the cells of these fields are read beyond their type (see CellReading): a password exactly as typed, spaces and
 * all; the active flag as `customer status` reads a state. Both are top-level fields, each of one mode.
 */
const customerReadingOf = kindsByField<CellReading>({ password: 'exact text', active: 'active state' });

/** The create's fields the update route does not take, with what to do instead: a create file reused for updates. */
const notUpdated: Readonly<Record<string, string>> = {
  username: 'the update route does not change the e-mail a customer logs in with',
  password: 'the update route sets no password: passwordExpired true makes the customer choose one',
  documentType: 'the document a customer is found by keeps its type',
};

/**
 * The customer's fields the create route does not take, with what to do instead: an ERP's export carries the
 * customer's state, and an operator importing blocked customers must learn how to keep them blocked, not be offered a
 * --map to a field that does not exist.
 */
const notCreated: Readonly<Record<string, string>> = {
  active:
    'the create route takes no active flag; after the create, `b2bctl customer status FILE` sets it from a file of the document and active columns',
};

/**
 * A fresh judge of customer records: the platform's rules, and one record per document (every record of a repeated one
 * is invalid) and per e-mail on create.
 */
export function newCustomerChecker<T extends { document?: unknown; username?: unknown }>(
  mode: CustomerMode,
): RecordChecker<T> {
  const validate = mode === 'create' ? validateCustomerCreate : validateCustomerUpdate;
  // The keys read the same from a validated customer and from the raw values of one invalid for another reason.
  const uniqueValues = (value: { document?: unknown; username?: unknown }) => {
    const unique: UniqueValue[] = [customerDocumentValue(value)];
    if (mode === 'create') unique.push({ label: 'e-mail', field: 'username', value: customerEmailKey(value) });
    return unique;
  };
  const catalogue = customerCatalogue(mode);
  const judged = (record: InputRecord) =>
    withProblems(validate(record.values) as RecordVerdict<T>, mangledCodes(record.values));
  return new RecordChecker<T>(
    (record) => (mode === 'update' ? withClearedComplement(judged(record), record) : judged(record)),
    uniqueValues,
    (record) => uniqueValues(record.values),
  ).maskingCells((record) => secretCellsOf(record, catalogue));
}

/**
 * An update's JSON record holding `"complement": ""` or `null` in its registration address says "no complement" (a
 * user test: there was no way to say so): the body carries `"complement": ""`, so the stored one is neither kept by
 * b2bctl (kept-address.ts) nor left in place by a platform that merges the address. A CSV's or workbook's empty cell
 * is a field left out, as everywhere in an update.
 */
function withClearedComplement<T>(verdict: RecordVerdict<T>, record: InputRecord): RecordVerdict<T> {
  if (!verdict.ok || record.cells !== undefined || !clearsComplement(record)) return verdict;
  const value = verdict.value as Record<string, unknown>;
  const address = isObject(value.customerRegistrationAddress) ? value.customerRegistrationAddress : {};
  return { ...verdict, value: { ...value, customerRegistrationAddress: { ...address, complement: '' } } as T };
}

function clearsComplement(record: InputRecord): boolean {
  if (record.emptyFields?.includes('customerRegistrationAddress.complement') === true) return true;
  const address = record.values.customerRegistrationAddress;
  return isObject(address) && Object.hasOwn(address, 'complement') && (address.complement ?? '') === '';
}

/** A customer's document, once per file: two rows for one customer leave both out (UniqueValue.everyRepeatInvalid). */
export function customerDocumentValue(value: { document?: unknown }): UniqueValue {
  return { label: 'document', field: 'document', value: customerKey(value), everyRepeatInvalid: true };
}

/**
 * The state registrations a spreadsheet wrote in scientific notation (a 12-digit IE in a "General" column): the
 * platform takes any text there, so without this check the mangled value would be sent. The document's own rule
 * already refuses it in the document.
 */
function mangledCodes(values: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const check = (field: string, value: unknown) => {
    const problem = spreadsheetExponentProblem(field, value);
    if (problem !== undefined) problems.push(problem);
  };
  check('stateRegistration', values.stateRegistration);
  const registration = values.customerRegistrationAddress;
  if (isObject(registration))
    check('customerRegistrationAddress.farmerStateRegistration', registration.farmerStateRegistration);
  const addresses = values.addressList;
  if (Array.isArray(addresses))
    addresses.forEach((address: unknown, index) => {
      if (isObject(address)) check(`addressList.${index}.farmerStateRegistration`, address.farmerStateRegistration);
    });
  return problems;
}

export function customerRecordKey(record: InputRecord): string {
  const document = record.values.document;
  return typeof document === 'string' || typeof document === 'number' ? String(document) : '';
}
