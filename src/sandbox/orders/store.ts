import { Exact } from '../../domain/tax/exact.js';
import { grossValue } from '../../domain/tax/terms.js';
import { compareByCreationNewestFirst, nextStatus, type OrderSummary } from './rules.js';

export interface OrderItem {
  sku: string;
  name: string;
  /** The product's NCM, for the tax callback. */
  ncm?: string;
  quantity: number;
  unitPrice: number;
  total: number;
}

/** The detail of an order: its summary plus what an ERP needs to book it (the sandbox's guess of the shape). */
export interface OrderDetail extends OrderSummary {
  customer: { document: string; name: string };
  items: OrderItem[];
  totals: { items: number; shipping: number; discount: number; total: number };
  deliveryAddress: { zipcode: string; street: string; number: string; city: string; state: string };
  payment: { method: string; installments: number };
  shipping: { method: string; price: number; deadlineDays: number };
  /** What the tax callback answered for the cart, when the sandbox runs with --tax-callback. */
  taxes?: unknown;
}

/**
 * A cart posted to `POST /_sandbox/orders`: what the buyer chose. Without items, the items, and a freight and
 * discount left out, are drawn at random; with items, a freight or discount left out is 0.
 */
export interface OrderCart {
  /** `paysIcms` defaults to whether the document is a CNPJ (a company) rather than a CPF. */
  customer?: { document: string; name?: string; paysIcms?: boolean };
  /** The delivery state (UF); the store's own state when absent. */
  state?: string;
  items?: { sku: string; name?: string; ncm?: string; quantity: number; unitPrice: number }[];
  shipping?: number;
  discount?: number;
}

/** An order before it is closed: the cart priced, with shipping and discount. */
export interface OrderDraft {
  customer: OrderMaterial['customers'][number];
  paysIcms: boolean;
  state: string;
  items: OrderItem[];
  shippingPrice: number;
  discount: number;
}

/** What the seed gives each new order: who buys and what. */
export interface OrderMaterial {
  customers: readonly { document: string; name: string; zipcode: string; number: string }[];
  products: readonly { sku: string; name: string; ncm?: string }[];
}

export type OrderListener = (order: OrderDetail, change: 'created' | 'updated') => void;

/**
 * The sandbox's orders. Every change goes through `create` or `update`, which stamp `lastUpdated` from the clock
 * minus the skew (`lastUpdatedSkewMs`: a late commit or a skewed platform clock puts an update behind "now") and
 * tell `listeners` (the webhook sender's hook).
 */
export class OrderStore {
  readonly orders = new Map<number, OrderDetail>();
  readonly onOrderChanged: OrderListener[] = [];
  /** Subtracted from the clock when an order is stamped. */
  lastUpdatedSkewMs = 0;
  /** Share of listing requests that first change a few orders (`--order-churn`). */
  churnProbability = 0;
  private nextId = 1;
  /** The orders newest first by creation, as the listing serves them; rebuilt after a creation (updates keep it). */
  private sortedCache: OrderDetail[] | undefined;

  private readonly material: OrderMaterial;
  private readonly random: () => number;
  constructor(material: OrderMaterial, random: () => number) {
    this.material = material;
    this.random = random;
  }

  /**
   * The cart priced: the given parts, the rest drawn at random (in the order the seed has always drawn them); a cart
   * with its items drawn at random only its buyer when left out.
   */
  draft(cart: OrderCart = {}): OrderDraft {
    const customer = cart.customer
      ? {
          zipcode: '01001-000',
          number: 'S/N',
          name: cart.customer.name ?? cart.customer.document,
          document: cart.customer.document,
        }
      : this.pick(this.material.customers);
    const items: OrderItem[] = (cart.items ?? []).map((item) => ({
      sku: item.sku,
      name: item.name ?? item.sku,
      ...(item.ncm === undefined ? {} : { ncm: item.ncm }),
      quantity: item.quantity,
      unitPrice: item.unitPrice,
      total: lineTotal(item.quantity, item.unitPrice),
    }));
    const lines = items.length > 0 ? 0 : 1 + Math.floor(this.random() * 4);
    for (let line = 0; line < lines; line++) {
      const product = this.pick(this.material.products);
      const quantity = 1 + Math.floor(this.random() * 20);
      const unitPrice = Math.round((5 + this.random() * 495) * 100) / 100;
      items.push({
        sku: product.sku,
        name: product.name,
        ...(product.ncm === undefined ? {} : { ncm: product.ncm }),
        quantity,
        unitPrice,
        total: lineTotal(quantity, unitPrice),
      });
    }
    const itemsTotal = totalOf(items.map((item) => item.total));
    // A cart posted with its items is the buyer's: a freight or discount it leaves out is none, so the taxes the
    // callback is asked for are those of the cart posted (a made-up 5 % discount taxed 459.00 as 436.05). Only a
    // cart drawn at random (the seed, churn, a post without items) gets a random freight and discount.
    const chosen = cart.items !== undefined;
    const shippingPrice = cents(cart.shipping ?? (chosen ? 0 : 10 + this.random() * 90));
    const discount = cents(cart.discount ?? (chosen ? 0 : Exact.of(itemsTotal).times(this.random() < 0.3 ? 0.05 : 0)));
    const paysIcms = cart.customer?.paysIcms ?? customer.document.replace(/[^\dA-Z]/gi, '').length === 14;
    return { customer, paysIcms, state: cart.state ?? storeState, items, shippingPrice, discount };
  }

  /** A new order created at `nowMs` (the seed passes past instants), from a draft or a random cart. */
  create(
    nowMs: number,
    options: { lastUpdatedMs?: number; status?: string; notify?: boolean; draft?: OrderDraft; taxes?: unknown } = {},
  ): OrderDetail {
    const id = this.nextId++;
    const { customer, state, items, shippingPrice, discount } = options.draft ?? this.draft();
    const itemsTotal = totalOf(items.map((item) => item.total));
    const created = new Date(nowMs).toISOString();
    const approvalWorkflow = this.random() < 0.2;
    const order: OrderDetail = {
      id,
      orderId: 100_000 + id,
      status: options.status ?? 'AWAITING_PAYMENT',
      approvalWorkflow,
      workflowIsApproved: !approvalWorkflow,
      dateCreated: created,
      lastUpdated: new Date(options.lastUpdatedMs ?? nowMs - this.lastUpdatedSkewMs).toISOString(),
      partnerCompanyName: customer.name,
      partnerDocument: customer.document,
      customer: { document: customer.document, name: customer.name },
      items,
      totals: {
        items: itemsTotal,
        shipping: shippingPrice,
        discount,
        total: totalOf([itemsTotal, shippingPrice, -discount]),
      },
      deliveryAddress: {
        zipcode: customer.zipcode,
        street: 'Rua do Comércio',
        number: customer.number,
        city: 'São Paulo',
        state,
      },
      payment: {
        method: this.random() < 0.5 ? 'BOLETO' : 'CREDIT_CARD',
        installments: 1 + Math.floor(this.random() * 3),
      },
      shipping: { method: 'TRANSPORTADORA', price: shippingPrice, deadlineDays: 2 + Math.floor(this.random() * 8) },
      ...(options.taxes === undefined ? {} : { taxes: options.taxes }),
    };
    this.orders.set(id, order);
    this.sortedCache = undefined;
    if (options.notify !== false) this.notify(order, 'created');
    return order;
  }

  /** Every order, newest creation first (the listing's order). */
  newestFirst(): readonly OrderDetail[] {
    this.sortedCache ??= [...this.orders.values()].toSorted(compareByCreationNewestFirst);
    return this.sortedCache;
  }

  /** Moves an order on: its status advances (sometimes it is canceled) and `lastUpdated` becomes now. */
  update(id: number, nowMs: number): OrderDetail | undefined {
    const order = this.orders.get(id);
    if (!order) return undefined;
    order.status = nextStatus(order.status, this.random() < 0.05);
    if (order.approvalWorkflow && !order.workflowIsApproved && this.random() < 0.5) order.workflowIsApproved = true;
    order.lastUpdated = nextStamp(order, nowMs - this.lastUpdatedSkewMs);
    this.notify(order, 'updated');
    return order;
  }

  /** Updates `updates` random orders and creates `creations` new ones: pages shift both ways. */
  churn(nowMs: number, updates: number, creations: number): { updated: number[]; created: number[] } {
    const updated: number[] = [];
    const ids = [...this.orders.keys()];
    for (let count = 0; count < updates && ids.length > 0; count++) {
      const id = ids[Math.floor(this.random() * ids.length)] as number;
      this.update(id, nowMs);
      updated.push(id);
    }
    const created: number[] = [];
    for (let count = 0; count < creations; count++) created.push(this.create(nowMs).id);
    return { updated, created };
  }

  /** What a listing request does first under `--order-churn`: with its probability, one to three updates and maybe a new order. */
  churnBeforeListing(nowMs: number): void {
    if (this.churnProbability <= 0 || this.random() >= this.churnProbability) return;
    this.churn(nowMs, 1 + Math.floor(this.random() * 3), this.random() < 0.5 ? 1 : 0);
  }

  /** Tells the listeners (the webhook outbox) that an order changed. */
  notify(order: OrderDetail, change: 'created' | 'updated'): void {
    for (const listener of this.onOrderChanged) listener(order, change);
  }

  private pick<T>(values: readonly T[]): T {
    return values[Math.floor(this.random() * values.length)] as T;
  }
}

/** The store's own state: where its orders leave from. */
export const storeState = 'SP';

/**
 * An amount in whole centavos, rounded half to even from its exact decimal value as b2bctl's taxes are (docs/tax.md):
 * in binary floating point 2.5 × 19.99 is 49.974999…, a centavo below the 49.975 the tax callback computes on.
 */
export function centavosOf(value: number | Exact): number {
  return Number(Exact.of(value).centavos().times(100).toString());
}

/** An amount rounded to centavos (half to even), as the order shows it. */
function cents(value: number | Exact): number {
  return centavosOf(value) / 100;
}

/** Quantity × unit price rounded to centavos: the item's gross value, by the function the taxes' bases start from. */
function lineTotal(quantity: number, unitPrice: number): number {
  return cents(grossValue(quantity, unitPrice));
}

/** The sum of amounts already in centavos, added as whole centavos. */
function totalOf(amounts: readonly number[]): number {
  return amounts.reduce((sum, amount) => sum + centavosOf(amount), 0) / 100;
}

/** The webhook's fields of an order (what the listing returns). */
export function summaryOf(order: OrderDetail): OrderSummary {
  return {
    id: order.id,
    orderId: order.orderId,
    status: order.status,
    approvalWorkflow: order.approvalWorkflow,
    workflowIsApproved: order.workflowIsApproved,
    dateCreated: order.dateCreated,
    lastUpdated: order.lastUpdated,
    partnerCompanyName: order.partnerCompanyName,
    partnerDocument: order.partnerDocument,
  };
}

/**
 * The `lastUpdated` of an order changed at `stampMs`: after the one it had when changes come within a millisecond
 * of each other. `lastUpdated` is an order's version: the poller and the receiver's redelivery check know a version
 * by it, so two changes under one stamp would be one version, and the second lost. A stamp well in the past (the
 * late commits `lastUpdatedSkewMs` plays) is kept as given.
 */
export function nextStamp(order: { lastUpdated: string }, stampMs: number): string {
  const previous = Date.parse(order.lastUpdated);
  const collides = stampMs <= previous && previous - stampMs < 1000;
  return new Date(collides ? previous + 1 : stampMs).toISOString();
}
