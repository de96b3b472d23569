/**
 * Where the platform's tax request carries what b2bctl needs, and the names of the answer's parts: a shape file
 * (`tax serve --shape`), since the platform's document does not show the callback's bodies. The default is the
 * sandbox's shape. docs/tax.md, "The callback's shape".
 */
import { valueAtPath } from '../domain/validation.js';

export interface TaxShape {
  request: {
    /** The list of items. The paths below are read inside each item. */
    items: string;
    sku: string;
    ncm: string;
    quantity: string;
    unitPrice: string;
    discount: string;
    freight: string;
    /** Read from the request's root. */
    from: string;
    to: string;
    buyerPaysIcms: string;
  };
  answer: {
    /** The name of the answer's list of items, and of its totals. */
    items: string;
    totals: string;
  };
}

export const sandboxTaxShape: TaxShape = {
  request: {
    items: 'items',
    sku: 'sku',
    ncm: 'ncm',
    quantity: 'quantity',
    unitPrice: 'unitPrice',
    discount: 'discount',
    freight: 'freight',
    from: 'origin.state',
    to: 'destination.state',
    buyerPaysIcms: 'customer.paysIcms',
  },
  answer: { items: 'items', totals: 'totals' },
};

/** The values every item and sale needs: a shape without a path for one cannot be answered. */
const required = ['items', 'ncm', 'quantity', 'unitPrice', 'from', 'to', 'buyerPaysIcms'] as const;

/**
 * A shape file's JSON over the default: each path a dot path (`cart.lines`, `0.ncm`). Problems as sentences that
 * name the key, for one usage error at start.
 */
export function readTaxShape(json: unknown): { shape: TaxShape } | { problems: string[] } {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { problems: ['the shape file must hold an object with "request" and "answer"'] };
  const given = json as { request?: Record<string, unknown>; answer?: Record<string, unknown> };
  const problems: string[] = [];
  const pick = <Part extends 'request' | 'answer'>(part: Part): TaxShape[Part] => {
    const defaults = sandboxTaxShape[part] as Record<string, string>;
    const result: Record<string, string> = { ...defaults };
    for (const [key, value] of Object.entries(given[part] ?? {})) {
      if (!Object.hasOwn(defaults, key))
        problems.push(`${part}.${key} is not a part of the shape (${Object.keys(defaults).join(', ')})`);
      else if (value === null && !(required as readonly string[]).includes(key)) result[key] = '';
      else if (typeof value !== 'string' || !/^[^.\s]+(\.[^.\s]+)*$/.test(value))
        problems.push(
          `${part}.${key} must be a dot path such as cart.items${value === null ? ` (it cannot be left out: every answer needs it)` : ''}`,
        );
      else result[key] = value;
    }
    return result as TaxShape[Part];
  };
  const shape = { request: pick('request'), answer: pick('answer') };
  // One name for both parts would write the totals over the items: every answer a 200 without its items' taxes.
  if (shape.answer.items === shape.answer.totals)
    problems.push(
      `answer.items and answer.totals are both "${shape.answer.items}": the answer's two parts need two names`,
    );
  return problems.length > 0 ? { problems } : { shape };
}

/** A request's sale through the shape: its items as they came, the states, the buyer's answer; or what is missing. */
export function readTaxSale(
  body: unknown,
  shape: TaxShape['request'],
): { from: string; to: string; paysIcms: unknown; items: readonly unknown[] } | string {
  const paths = requestReaders(shape);
  const items = paths.items(body);
  if (!Array.isArray(items)) return `the request has no list of items at "${shape.items}"`;
  // A cart of nothing is no sale: answered 200 with zero totals, it hid a platform (or a field) that lost the items.
  if (items.length === 0) return `the request has no list of items at "${shape.items}" (it is empty)`;
  return {
    from: String(paths.from(body) ?? ''),
    to: String(paths.to(body) ?? ''),
    paysIcms: paths.buyerPaysIcms(body),
    items,
  };
}

/** An item of a request as the text the table's checks read (checkTaxItem), through the shape. */
export function itemRecord(item: unknown, shape: TaxShape['request']): Record<string, string> {
  const paths = requestReaders(shape);
  return {
    sku: textOf(paths.sku(item)),
    ncm: textOf(paths.ncm(item)),
    quantity: textOf(paths.quantity(item)),
    unitPrice: textOf(paths.unitPrice(item)),
    discount: textOf(paths.discount(item)),
    freight: textOf(paths.freight(item)),
  };
}

/** The reader of one path of a shape: the value there, or undefined. */
export type Reader = (body: unknown) => unknown;

/** Each path of a shape split once into its steps: the callback reads a dozen paths for each item of each cart. */
const compiled = new WeakMap<TaxShape['request'], Record<keyof TaxShape['request'], Reader>>();

/** The readers of a shape's paths, made once per shape. */
export function requestReaders(shape: TaxShape['request']): Record<keyof TaxShape['request'], Reader> {
  let paths = compiled.get(shape);
  if (paths === undefined) {
    paths = Object.fromEntries(Object.entries(shape).map(([key, path]) => [key, readerOf(path)])) as Record<
      keyof TaxShape['request'],
      Reader
    >;
    compiled.set(shape, paths);
  }
  return paths;
}

/** The reader of a path's value; nothing where the shape leaves the part out (an empty path). */
function readerOf(path: string): Reader {
  const steps = path.split('.').filter((part) => part !== '');
  if (path === '') return () => undefined;
  if (steps.length === 1) {
    const [step] = steps as [string];
    return (body) => (body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[step] : undefined);
  }
  return (body) => valueAtPath(body, path);
}

/**
 * A JSON value as the text the table's checks read: numbers as JavaScript writes them, absent (or null) as empty, and
 * anything else (true, an object, a list) as its JSON, which no check takes: `{"amount":45.9}` where the shape says
 * a price is refused, never read as an empty cell and so a price of 0.
 */
export function textOf(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : JSON.stringify(value);
}
