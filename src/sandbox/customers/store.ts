import { randomBytes } from 'node:crypto';
import type { EventOutbox } from '../events.js';
import type { CepTable } from './cep-table.js';
import { defaultStoreSettings, type StoreSettings } from './settings.js';

/** An address as the platform returns it (docs/platform.md, "What the document shows"). */
export interface Address {
  id: number;
  name: string | null;
  zipcode: string;
  street: string;
  number: string;
  complement: string | null;
  quarter: string;
  city: string | null;
  state: string | null;
  principal: boolean;
  addressType: 'RESIDENTIAL' | 'BUSINESS';
  farmerStateRegistration: string | null;
  howToReachLocationDescription: null;
  responsibleContact: null;
  attributes: Record<string, never>;
  /** Only when the store's lat/lng feature is on and the address was sent with them. */
  lat?: number;
  lng?: number;
  dateCreated: string;
  lastUpdated: string;
}

/** A linked price tag ({id, name}), customer type or group ({id, name, externalId}); the document does not show the shape. */
export interface Link {
  id: number;
  name: string;
  externalId?: string | null;
}

/** The Customer object of the create and update answers, fields in the document's order. */
export interface Customer {
  id: number;
  document: string;
  documentType: 'pf' | 'pj';
  name: string | null;
  tradingName: string | null;
  contactName: string | null;
  email: string;
  phone: string;
  dateCreated: string;
  active: boolean;
  passwordExpired: boolean;
  stateRegistration: string;
  cnae: string | null;
  paysIcms: boolean;
  genre: string | null;
  birthdate: string | null;
  politicallyExposedPerson: boolean;
  federalEmployee: boolean;
  optinTracking: boolean;
  trackingPhone: string | null;
  optinPath: string | null;
  /** The delivery address list. */
  address: Address[];
  customerRegistrationAddress: Address;
  priceRuleTag: Link[] | null;
  customerTypeList: Link[] | null;
  customerGroupList: Link[] | null;
}

/** A customer with what the platform keeps but does not return. The password is not kept at all. */
export interface StoredCustomer {
  /** The document without punctuation. */
  key: string;
  ssoConfigId: number | null;
  forceChangePassword: boolean;
  customer: Customer;
}

/** An e-mail the platform would have sent; never holds the password. */
export interface OutboxEmail {
  id: number;
  template: 'newCustomer' | 'forgotPassword';
  to: string;
  document: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** The customers of the simulated store, its settings, its CEP lookup table and its e-mail outbox. */
export class CustomerStore {
  settings: StoreSettings = defaultStoreSettings;
  ceps: CepTable = new Map();
  readonly outbox: OutboxEmail[] = [];
  private readonly byKey = new Map<string, StoredCustomer>();
  /** Lower-cased e-mail to document key. */
  private readonly byEmail = new Map<string, string>();
  private lastCustomerId = 0;
  private lastAddressId = 0;
  private lastEmailId = 0;

  private readonly events?: EventOutbox;
  /** `events` receives the customers webhook's payload after each create and update. */
  constructor(events?: EventOutbox) {
    this.events = events;
  }

  get size(): number {
    return this.byKey.size;
  }

  find(key: string): StoredCustomer | undefined {
    return this.byKey.get(key);
  }

  hasEmail(email: string): boolean {
    return this.byEmail.has(email.toLowerCase());
  }

  list(): StoredCustomer[] {
    return [...this.byKey.values()];
  }

  nextCustomerId(): number {
    return ++this.lastCustomerId;
  }

  nextAddressId(): number {
    return ++this.lastAddressId;
  }

  add(stored: StoredCustomer): void {
    this.byKey.set(stored.key, stored);
    this.byEmail.set(stored.customer.email.toLowerCase(), stored.key);
    this.publish(stored.customer);
  }

  /** Publishes the customers webhook for a stored customer that changed (its record is changed in place). */
  changed(stored: StoredCustomer): void {
    this.publish(stored.customer);
  }

  sendNewCustomerEmail(stored: StoredCustomer, nowIso: string): void {
    const { customer } = stored;
    const passwordNote = stored.forceChangePassword
      ? ' You will be asked to choose a new password at your first access.'
      : '';
    this.send(
      'newCustomer',
      customer,
      'Your access to the store',
      `Hello ${customer.name ?? customer.email}, your access to the store is ready. Sign in with ${customer.email} and the password you were given.${passwordNote}`,
      nowIso,
    );
  }

  sendForgotPasswordEmail(stored: StoredCustomer, nowIso: string): void {
    const { customer } = stored;
    const link = `https://store.sandbox.invalid/reset-password/${randomBytes(12).toString('base64url')}`;
    this.send(
      'forgotPassword',
      customer,
      'Choose a new password',
      `Hello ${customer.name ?? customer.email}, follow ${link} to choose a new password.`,
      nowIso,
    );
  }

  /** Forgets every customer and e-mail; settings and the CEP table stay. */
  clear(): void {
    this.byKey.clear();
    this.byEmail.clear();
    this.outbox.length = 0;
  }

  private send(
    template: OutboxEmail['template'],
    customer: Customer,
    subject: string,
    text: string,
    sentAt: string,
  ): void {
    this.outbox.push({
      id: ++this.lastEmailId,
      template,
      to: customer.email,
      document: customer.document,
      subject,
      text,
      sentAt,
    });
  }

  private publish(customer: Customer): void {
    this.events?.publish({ kind: 'customers', payload: customerWebhookPayload(customer) });
  }
}

/** The customers webhook's body: the customers webhook's fields (docs/platform.md, "What the document shows"), from the stored customer. */
export function customerWebhookPayload(customer: Customer): Record<string, unknown> {
  return {
    id: customer.id,
    document: customer.document,
    name: customer.name,
    tradingName: customer.tradingName,
    contactName: customer.contactName,
    documentType: customer.documentType,
    dateCreated: customer.dateCreated,
    email: customer.email,
    phone: customer.phone,
    address: customer.address.map((address) => ({
      id: address.id,
      name: address.name,
      street: address.street,
      number: address.number,
      complement: address.complement,
      quarter: address.quarter,
      city: address.city,
      state: address.state,
      zipcode: address.zipcode,
      principal: address.principal,
    })),
  };
}
