/** The fields of the customer create and update bodies (docs/platform.md), with their types. Pure. */
import type { TextKind } from './spreadsheet-numbers.js';
import { pathSegments } from './validation.js';

export type FieldType = 'string' | 'boolean' | 'number' | 'integer' | 'list';

/** Address input: customerRegistrationAddress and each addressList item. */
export interface AddressInput {
  zipcode: string;
  number: string;
  complement?: string;
  street?: string;
  quarter?: string;
  city?: string;
  state?: string;
  addressType?: string;
  farmerStateRegistration?: string;
  principal?: boolean;
  name?: string;
  lat?: number;
  lng?: number;
}

interface CustomerOptionalFields {
  name?: string;
  tradingName?: string;
  contactName?: string;
  stateRegistration?: string;
  cnae?: string;
  paysIcms?: boolean;
  politicallyExposedPerson?: boolean;
  federalEmployee?: boolean;
  optinTracking?: boolean;
  trackingPhone?: string;
  passwordExpired?: boolean;
  ssoConfigId?: number;
  priceRuleTags?: string[];
  customerTypeList?: string[];
  customerGroupList?: string[];
}

/** Body of POST /v1/customer. */
export interface CustomerCreateBody extends CustomerOptionalFields {
  documentType: string;
  document: string;
  username: string;
  phone: string;
  password: string;
  customerRegistrationAddress?: AddressInput;
  addressList?: AddressInput[];
  forceChangePassword?: boolean;
  sendEmailNewCustomer?: boolean;
}

/**
 * A record of `customer update`: `document` is the key (it goes in the path of
 * PUT /v1/customer/:document, not in the body); every other field is optional.
 */
export interface CustomerUpdateBody extends CustomerOptionalFields {
  document: string;
  phone?: string;
  customerRegistrationAddress?: AddressInput | AddressPartsInput;
  active?: boolean;
  sendEmailForgotPassword?: boolean;
}

/**
 * An update's registration address that gives neither CEP nor number (a new complement alone): both, and the rest
 * of the place, are taken from the stored record before it is sent (commands/customer/kept-address.ts).
 */
export type AddressPartsInput = Omit<AddressInput, 'zipcode' | 'number'> & { zipcode?: undefined; number?: undefined };

export const addressFieldTypes: Readonly<Record<keyof AddressInput, FieldType>> = {
  zipcode: 'string',
  number: 'string',
  complement: 'string',
  street: 'string',
  quarter: 'string',
  city: 'string',
  state: 'string',
  addressType: 'string',
  farmerStateRegistration: 'string',
  principal: 'boolean',
  name: 'string',
  lat: 'number',
  lng: 'number',
};

/** The kinds of the address fields whose text a spreadsheet's cell can spoil (see TextKind); any other is plain text. */
const addressTextKinds: Readonly<Partial<Record<keyof AddressInput, TextKind>>> = {
  zipcode: 'code',
  number: 'address number',
  farmerStateRegistration: 'code',
};

/** The same for the fields at the top of either body. */
const topTextKinds: Readonly<Partial<Record<keyof CustomerCreateBody | keyof CustomerUpdateBody, TextKind>>> = {
  document: 'code',
  stateRegistration: 'code',
  cnae: 'code',
};

/** The text kind of a dot path of the create/update body (see TextKind); undefined for any other path. */
export function customerTextKind(path: string, mode: 'create' | 'update'): TextKind | undefined {
  if (customerFieldType(path, mode) === undefined) return undefined;
  const parts = pathSegments(path);
  const field = parts.at(-1);
  if (typeof field !== 'string') return undefined;
  if (parts.length === 1)
    return Object.hasOwn(topTextKinds, field) ? topTextKinds[field as keyof typeof topTextKinds] : undefined;
  const inAddress =
    (parts.length === 2 && parts[0] === 'customerRegistrationAddress') ||
    (parts.length === 3 && parts[0] === 'addressList');
  return inAddress && Object.hasOwn(addressTextKinds, field)
    ? addressTextKinds[field as keyof AddressInput]
    : undefined;
}

const optionalFieldTypes: Readonly<Record<keyof CustomerOptionalFields, FieldType>> = {
  name: 'string',
  tradingName: 'string',
  contactName: 'string',
  stateRegistration: 'string',
  cnae: 'string',
  paysIcms: 'boolean',
  politicallyExposedPerson: 'boolean',
  federalEmployee: 'boolean',
  optinTracking: 'boolean',
  trackingPhone: 'string',
  passwordExpired: 'boolean',
  ssoConfigId: 'integer',
  priceRuleTags: 'list',
  customerTypeList: 'list',
  customerGroupList: 'list',
};

/** Scalar and list fields at the top of each body (the address objects are described apart). */
export const topFieldTypes: Readonly<Record<'create' | 'update', Readonly<Record<string, FieldType>>>> = {
  create: {
    documentType: 'string',
    document: 'string',
    username: 'string',
    phone: 'string',
    password: 'string',
    ...optionalFieldTypes,
    forceChangePassword: 'boolean',
    sendEmailNewCustomer: 'boolean',
  },
  update: {
    document: 'string',
    phone: 'string',
    ...optionalFieldTypes,
    active: 'boolean',
    sendEmailForgotPassword: 'boolean',
  },
};

/**
 * Type of a dot path of the create/update body, e.g. 'customerRegistrationAddress.zipcode' ->
 * 'string', 'addressList.0.principal' -> 'boolean', 'addressList.3.lat' -> 'number',
 * 'customerGroupList' -> 'list'; undefined for an unknown path. The list index is a number, never `*`: the record
 * shaping builds a list only from numeric indexes, so a `*` header would become an object and fail every row.
 */
export function customerFieldType(path: string, mode: 'create' | 'update'): FieldType | undefined {
  const parts = pathSegments(path);
  if (parts.length === 1) return ownValue(topFieldTypes[mode], path);
  if (parts[0] === 'customerRegistrationAddress' && parts.length === 2 && typeof parts[1] === 'string')
    return ownValue(addressFieldTypes, parts[1]);
  if (mode === 'create' && parts[0] === 'addressList' && parts.length === 3 && typeof parts[1] === 'number') {
    return typeof parts[2] === 'string' ? ownValue(addressFieldTypes, parts[2]) : undefined;
  }
  return undefined;
}

function ownValue(table: Readonly<Record<string, FieldType>>, key: string): FieldType | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

const addressKeys = Object.keys(addressFieldTypes);

/** Every known path, with list items written as the first one (`addressList.0.`), for "did you mean" suggestions. */
export const customerFieldPaths: { create: readonly string[]; update: readonly string[] } = {
  create: [
    ...Object.keys(topFieldTypes.create),
    ...addressKeys.map((key) => `customerRegistrationAddress.${key}`),
    ...addressKeys.map((key) => `addressList.0.${key}`),
  ],
  update: [...Object.keys(topFieldTypes.update), ...addressKeys.map((key) => `customerRegistrationAddress.${key}`)],
};
