import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type OrderMaterial, OrderStore } from './store.js';
import { orderStatuses } from './rules.js';

/** How many orders the sandbox seeds without --orders (its help says the same figure). */
export const defaultSeededOrders = 300;
const thirtyDaysMs = 30 * 24 * 60 * 60 * 1000;

/** A small seeded random generator (mulberry32): the same seed gives the same orders on every start. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Buyers from customers.json and products from products.json of the seed folder. */
export function loadOrderMaterial(seedDirectory: string): OrderMaterial {
  const customers = JSON.parse(readFileSync(join(seedDirectory, 'customers.json'), 'utf8')) as {
    document: string;
    name?: string;
    customerRegistrationAddress?: { zipcode?: string; number?: string };
    addressList?: { zipcode?: string; number?: string }[];
  }[];
  const products = JSON.parse(readFileSync(join(seedDirectory, 'products.json'), 'utf8')) as {
    sku: string;
    name: string;
  }[];
  return {
    customers: customers.map((customer) => {
      const address = customer.customerRegistrationAddress ?? customer.addressList?.[0] ?? {};
      return {
        document: customer.document,
        name: customer.name ?? customer.document,
        zipcode: address.zipcode ?? '01001-000',
        number: address.number ?? 'S/N',
      };
    }),
    products,
  };
}

/**
 * The orders of a fresh sandbox: `count` orders created over the 30 days before `nowMs`, each updated some time
 * after its creation (older orders further along), deterministic for a given seed and instant.
 */
export function seedOrders(material: OrderMaterial, nowMs: number, count: number, seed = 12): OrderStore {
  const random = seededRandom(seed);
  const store = new OrderStore(material, random);
  const creations = Array.from({ length: count }, () => nowMs - Math.floor(random() * thirtyDaysMs)).toSorted(
    (left, right) => left - right,
  );
  for (const createdAt of creations) {
    const age = nowMs - createdAt;
    const stage = Math.min(4, Math.floor((age / thirtyDaysMs) * 5 * random() * 1.5));
    const lastUpdatedMs = createdAt + Math.floor(random() * Math.min(age, 3 * 24 * 60 * 60 * 1000));
    store.create(createdAt, { lastUpdatedMs, status: orderStatuses[stage], notify: false });
  }
  return store;
}
