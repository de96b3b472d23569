/**
 * The platform's customer rules over the sandbox store: the local rules of src/domain plus what
 * only the store knows (SSO ids, CEP lookup, lat/lng feature, links, duplicates).
 */
import { checkStateRegistration } from '../../domain/brazil-codes.js';
import {
  platformCheckedFields,
  platformFieldOf,
  validateAddress,
  validateCustomerCreate,
  validateCustomerUpdate,
} from '../../domain/customer.js';
import { type FieldProblem, validationMessage } from '../../domain/validation.js';
import { checkDocument, documentLookupKey, documentTypeOfKind } from '../../domain/documents.js';
import { normalizePhone } from '../../domain/phone.js';
import { addressFromDraft, resolveAddress, type AddressDraft } from './addresses.js';
import type { LinkTarget } from './settings.js';
import type { Address, Customer, CustomerStore, Link, StoredCustomer } from './store.js';

export type Outcome<T> =
  { ok: true; value: T } | { ok: false; status: 400 | 404 | 422; message: string; detail?: string };

const linkFields = ['priceRuleTags', 'customerTypeList', 'customerGroupList'] as const;
type LinkField = (typeof linkFields)[number];
/** The order in which the answer names the first failing field; unknown links come after the platform's own list. */
const rejectionOrder: readonly string[] = [...platformCheckedFields, ...linkFields];

interface Failure {
  value: string;
  detail: string;
}

/** POST /v1/customer. */
export function createCustomer(store: CustomerStore, body: unknown, now: Date): Outcome<Customer> {
  if (!isObject(body)) return badRequest('Body cannot be parsed: expected a JSON object of customer fields');
  const local = validateCustomerCreate(body);
  const failures = new Map<string, Failure>();
  const unparsable = collectFailures(local.ok ? [] : local.problems, failures);
  if (unparsable) return badRequest(`Body cannot be parsed: ${unparsable.message}`);

  const drafts: AddressDrafts = { deliveries: [] };
  const links = new Map<LinkField, Link[] | null>();
  const rejection = firstRejection(failures, {
    ssoConfigId: () => ssoConfigFailure(store, body.ssoConfigId),
    address: () => resolveAddresses(store, body, drafts),
    ...linkChecks(store, body, links),
  });
  if (rejection) return rejection;
  if (!local.ok) throw new Error('unreachable: a local problem without a rejection');

  const input = local.value;
  const document = checkDocument(input.document);
  if (!document.ok) throw new Error('unreachable: a valid document failed its check');
  if (store.find(document.normalized))
    return badRequest(`Document ${document.formatted} is already registered in the store`);
  const email = input.username.trim();
  if (store.hasEmail(email)) return badRequest(`E-mail ${email} is already registered in the store`);

  const nowIso = now.toISOString();
  const address = drafts.deliveries.map((draft) => addressFromDraft(draft, store.nextAddressId(), nowIso));
  // Only addressList: the registration address is a copy of the main item, as a record of its own.
  const registrationDraft = drafts.registration ?? drafts.deliveries.find((draft) => draft.principal);
  if (!registrationDraft) throw new Error('unreachable: no registration address after the combination check');
  const customer: Customer = {
    id: store.nextCustomerId(),
    document: document.formatted,
    documentType: documentTypeOfKind(document.kind),
    name: input.name ?? null,
    tradingName: input.tradingName ?? null,
    contactName: input.contactName ?? null,
    email,
    phone: formattedPhone(input.phone),
    dateCreated: nowIso,
    active: true,
    passwordExpired: input.passwordExpired ?? false,
    stateRegistration: stateRegistrationAnswer(input.stateRegistration),
    cnae: input.cnae ?? null,
    paysIcms: input.paysIcms ?? false,
    genre: null,
    birthdate: null,
    politicallyExposedPerson: input.politicallyExposedPerson ?? false,
    federalEmployee: input.federalEmployee ?? false,
    optinTracking: input.optinTracking ?? false,
    trackingPhone: input.trackingPhone === undefined ? null : formattedPhone(input.trackingPhone),
    optinPath: null,
    address,
    customerRegistrationAddress: addressFromDraft(registrationDraft, store.nextAddressId(), nowIso),
    priceRuleTag: links.get('priceRuleTags') ?? null,
    customerTypeList: links.get('customerTypeList') ?? null,
    customerGroupList: links.get('customerGroupList') ?? null,
  };
  const stored: StoredCustomer = {
    key: document.normalized,
    ssoConfigId: input.ssoConfigId ?? null,
    forceChangePassword: input.forceChangePassword ?? false,
    customer,
  };
  store.add(stored);
  if (input.sendEmailNewCustomer) store.sendNewCustomerEmail(stored, nowIso);
  return { ok: true, value: structuredClone(customer) };
}

/** The addresses of a create body, resolved against the store's ZIP codes. */
interface AddressDrafts {
  registration?: AddressDraft;
  deliveries: AddressDraft[];
}

/** Resolves the body's addresses into `drafts`; the first that does not resolve is the failure. */
function resolveAddresses(
  store: CustomerStore,
  body: Record<string, unknown>,
  drafts: AddressDrafts,
): Failure | undefined {
  const registrationInput = body.customerRegistrationAddress;
  const list = Array.isArray(body.addressList) ? body.addressList : [];
  const resolvedList: AddressDraft[] = [];
  for (const item of list) {
    const resolved = resolveRawAddress(store, item);
    if (typeof resolved === 'string') return { value: '', detail: resolved };
    resolvedList.push(resolved);
  }
  drafts.deliveries = resolvedList;
  if (registrationInput !== undefined && registrationInput !== null && registrationInput !== '') {
    const resolved = resolveRawAddress(store, registrationInput);
    if (typeof resolved === 'string') return { value: '', detail: resolved };
    drafts.registration = resolved;
  }
  return undefined;
}

/** PUT /v1/customer/:document: omitted fields unchanged, `{}` answers the current record, link lists replace. */
export function updateCustomer(
  store: CustomerStore,
  documentParameter: string,
  body: unknown,
  now: Date,
): Outcome<Customer> {
  const stored = store.find(documentLookupKey(documentParameter));
  if (!stored) return notFound(documentParameter);
  const patch = body === undefined || body === null ? {} : body;
  if (!isObject(patch)) return badRequest('Body cannot be parsed: expected a JSON object of customer fields');
  // The document is the path's; one in the body is not a change of key.
  const local = validateCustomerUpdate({ ...patch, document: stored.key });
  const failures = new Map<string, Failure>();
  const unparsable = collectFailures(local.ok ? [] : local.problems, failures);
  if (unparsable) return badRequest(`Body cannot be parsed: ${unparsable.message}`);

  let registration: AddressDraft | undefined;
  const links = new Map<LinkField, Link[] | null>();
  const rejection = firstRejection(failures, {
    ssoConfigId: () => ssoConfigFailure(store, patch.ssoConfigId),
    address: () => {
      const input = patch.customerRegistrationAddress;
      if (input === undefined || input === null || input === '') return undefined;
      const resolved = resolveRawAddress(store, input);
      if (typeof resolved === 'string') return { value: '', detail: resolved };
      registration = resolved;
      return undefined;
    },
    ...linkChecks(store, patch, links),
  });
  if (rejection) return rejection;
  if (!local.ok) throw new Error('unreachable: a local problem without a rejection');

  const input = local.value;
  const { customer } = stored;
  const nowIso = now.toISOString();
  if (input.name !== undefined) customer.name = input.name;
  if (input.tradingName !== undefined) customer.tradingName = input.tradingName;
  if (input.contactName !== undefined) customer.contactName = input.contactName;
  if (input.phone !== undefined) customer.phone = formattedPhone(input.phone);
  if (input.stateRegistration !== undefined)
    customer.stateRegistration = stateRegistrationAnswer(input.stateRegistration);
  if (input.cnae !== undefined) customer.cnae = input.cnae;
  if (input.paysIcms !== undefined) customer.paysIcms = input.paysIcms;
  if (input.politicallyExposedPerson !== undefined) customer.politicallyExposedPerson = input.politicallyExposedPerson;
  if (input.federalEmployee !== undefined) customer.federalEmployee = input.federalEmployee;
  if (input.optinTracking !== undefined) customer.optinTracking = input.optinTracking;
  if (input.trackingPhone !== undefined) customer.trackingPhone = formattedPhone(input.trackingPhone);
  if (input.active !== undefined) customer.active = input.active;
  if (input.passwordExpired !== undefined) customer.passwordExpired = input.passwordExpired;
  if (input.ssoConfigId !== undefined) stored.ssoConfigId = input.ssoConfigId;
  if (registration) {
    const current = customer.customerRegistrationAddress;
    customer.customerRegistrationAddress = addressFromDraft(registration, current.id, current.dateCreated, nowIso);
  }
  for (const [field, value] of links) {
    if (field === 'priceRuleTags') customer.priceRuleTag = value;
    else customer[field] = value;
  }
  if (input.sendEmailForgotPassword) store.sendForgotPasswordEmail(stored, nowIso);
  if (Object.keys(input).some((key) => key !== 'document')) store.changed(stored);
  return { ok: true, value: structuredClone(customer) };
}

/** PUT /v1/customer/updateStatus/:document/:active. */
export function setCustomerActive(
  store: CustomerStore,
  documentParameter: string,
  activeParameter: string,
): Outcome<Customer> {
  const stored = store.find(documentLookupKey(documentParameter));
  if (!stored) return notFound(documentParameter);
  const active = activeParameter.toLowerCase();
  if (active !== 'true' && active !== 'false')
    return badRequest(`Path parameter [active] with value [${activeParameter}] must be true or false`);
  stored.customer.active = active === 'true';
  store.changed(stored);
  return { ok: true, value: structuredClone(stored.customer) };
}

/** GET /v1/customer/addresses/:document: the delivery address array, items as in the Customer answer. */
export function customerAddresses(store: CustomerStore, documentParameter: string): Outcome<Address[]> {
  const stored = store.find(documentLookupKey(documentParameter));
  if (!stored) return notFound(documentParameter);
  return { ok: true, value: structuredClone(stored.customer.address) };
}

// ---- helpers --------------------------------------------------------------------------------

/**
 * Sorts local problems into the failures the platform names (documentType … address, and the link
 * lists) and returns the first problem of any other field: a wrong type there (paysIcms: "maybe")
 * is a body the platform's JSON reader cannot map, so a 400.
 */
function collectFailures(problems: readonly FieldProblem[], failures: Map<string, Failure>): FieldProblem | undefined {
  for (const problem of problems) {
    const field = platformFieldOf(problem.field);
    if (!rejectionOrder.includes(field)) return problem;
    if (!failures.has(field))
      failures.set(field, { value: field === 'address' ? '' : problem.value, detail: problem.message });
  }
  return undefined;
}

/**
 * Walks the fields in the platform's order and answers 422 for the first that failed, running the
 * store checks of a field only when every field before it passed.
 */
function firstRejection(
  failures: ReadonlyMap<string, Failure>,
  storeChecks: Partial<Record<string, () => Failure | undefined>>,
): Outcome<never> | undefined {
  for (const field of rejectionOrder) {
    const failure = failures.get(field) ?? storeChecks[field]?.();
    if (failure)
      return { ok: false, status: 422, message: validationMessage(field, failure.value), detail: failure.detail };
  }
  return undefined;
}

function ssoConfigFailure(store: CustomerStore, raw: unknown): Failure | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const id = Number(raw);
  return store.settings.ssoConfigIds.includes(id)
    ? undefined
    : { value: String(raw), detail: `the store has no SSO configuration ${String(raw)}` };
}

function resolveRawAddress(store: CustomerStore, raw: unknown): AddressDraft | string {
  const checked = validateAddress(raw);
  if (!checked.ok) return checked.problems[0]?.message ?? 'invalid address';
  const resolved = resolveAddress(checked.value, store.settings, store.ceps);
  return resolved.ok ? resolved.draft : resolved.reason;
}

/** Store checks of the three link lists: each name must be a known price tag (by name), or customer type or group (by name or externalId). */
function linkChecks(
  store: CustomerStore,
  body: Record<string, unknown>,
  resolved: Map<LinkField, Link[] | null>,
): Record<LinkField, () => Failure | undefined> {
  const check = (field: LinkField, targets: readonly LinkTarget[], byExternalId: boolean) => () => {
    const raw = body[field];
    if (raw === undefined || raw === null || raw === '' || !Array.isArray(raw)) return undefined;
    const links: Link[] = [];
    for (const item of raw) {
      const name = String(item).trim();
      const target = targets.find(
        (candidate) => candidate.name === name || (byExternalId && candidate.externalId === name),
      );
      if (!target) return { value: name, detail: `the store has no ${field} entry named ${name}` };
      if (links.some((link) => link.id === target.id)) continue;
      links.push(
        byExternalId
          ? { id: target.id, name: target.name, externalId: target.externalId }
          : { id: target.id, name: target.name },
      );
    }
    resolved.set(field, links.length > 0 ? links : null);
    return undefined;
  };
  return {
    priceRuleTags: check('priceRuleTags', store.settings.priceTags, false),
    customerTypeList: check('customerTypeList', store.settings.customerTypes, true),
    customerGroupList: check('customerGroupList', store.settings.customerGroups, true),
  };
}

/** `isento` when none was provided or when it says ISENTO; otherwise as sent. */
function stateRegistrationAnswer(raw: string | undefined): string {
  if (raw === undefined) return 'isento';
  const check = checkStateRegistration(raw);
  return check.ok && check.exempt ? 'isento' : raw.trim();
}

/** `(NN) NNNNN-NNNN` or `(NN) NNNN-NNNN`; a tracking phone the platform does not check stays as sent. */
function formattedPhone(raw: string): string {
  const check = normalizePhone(raw);
  return check.ok ? check.formatted : raw.trim();
}

function badRequest(message: string): Outcome<never> {
  return { ok: false, status: 400, message };
}

function notFound(documentParameter: string): Outcome<never> {
  return { ok: false, status: 404, message: `No customer with document ${documentParameter} in the store` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
