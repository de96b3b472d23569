import { RecordChecker, type UniqueValue } from '../../bulk/validation-pass.js';
import {
  customerEmailKey,
  customerFieldPaths,
  customerFieldType,
  customerKey,
  validateCustomerCreate,
  validateCustomerUpdate,
} from '../../domain/customer.js';
import type { InputRecord } from '../../io/input/open-input.js';
import type { FieldCatalogue } from '../../io/input/record-shape.js';

export type CustomerMode = 'create' | 'update';

/** The columns of a customer file: dot paths into the create or update body (`addressList.0.zipcode`). */
export function customerCatalogue(mode: CustomerMode): FieldCatalogue {
  return {
    typeOf: (path) => customerFieldType(path, mode),
    knownPaths: customerFieldPaths[mode],
    requiredColumns: ['document'],
  };
}

/** A fresh judge of customer records: the platform's rules, and one record per document (and per e-mail on create). */
export function newCustomerChecker<T extends { document?: unknown; username?: unknown }>(
  mode: CustomerMode,
): RecordChecker<T> {
  const validate = mode === 'create' ? validateCustomerCreate : validateCustomerUpdate;
  // The keys read the same from a validated customer and from the raw values of one invalid for another reason.
  const uniqueValues = (value: { document?: unknown; username?: unknown }) => {
    const unique: UniqueValue[] = [{ label: 'document', field: 'document', value: customerKey(value) }];
    if (mode === 'create') unique.push({ label: 'e-mail', field: 'username', value: customerEmailKey(value) });
    return unique;
  };
  return new RecordChecker<T>(
    (record) => validate(record.values) as ReturnType<RecordChecker<T>['judge']>,
    uniqueValues,
    (record) => uniqueValues(record.values),
  );
}

export function customerRecordKey(record: InputRecord): string {
  const document = record.values.document;
  return typeof document === 'string' || typeof document === 'number' ? String(document) : '';
}
