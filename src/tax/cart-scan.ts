/**
 * A cart's values read straight from its JSON bytes, with no string, object or number made for what the answer
 * does not need: the callback's common cart, read through its shape, without `JSON.parse` building every item's
 * object and the text decoded before it (together the largest part of a cart's CPU beside the taxes and their
 * answer). The scan vouches only for what it is sure of: the whole body is JSON that `JSON.parse` reads to the same
 * values (its grammar checked to the last byte), with no prototype's key anywhere, no key of the shape twice, and
 * every value the answer needs in a plain form (text of printable ASCII without escapes, a number, a literal).
 * Anything else (an escape in a key, a value nested past 64 levels, a key of the shape sent twice, a BOM) is
 * declined, and the cart is read as before: `JSON.parse` and the shape's readers. So a cart has one answer, whichever
 * reads it; test/unit/tax/cart-scan.test.ts holds the two to it on random carts and on broken ones.
 * docs/decisions/0048-the-cart-scanned-as-bytes.md.
 */
import type { TaxShape } from './shape.js';

/** What a value of the shape was, as the scan recorded it. */
export const Token = {
  Absent: 0,
  /** Text of printable ASCII, no escape: its bytes between the quotes. */
  Text: 1,
  /** A JSON number: its bytes. */
  Number: 2,
  True: 3,
  False: 4,
  Null: 5,
  /** Anything else (an object, a list, text with an escape or outside ASCII): the answer cannot read it here. */
  Other: 6,
} as const;
type Token = (typeof Token)[keyof typeof Token];

/** The item's values, in this order, three slots each (token, start, end). */
const itemFields = ['sku', 'ncm', 'quantity', 'unitPrice', 'discount', 'freight'] as const;
/** The sale's values read from the cart's root. */
const saleFields = ['from', 'to', 'buyerPaysIcms'] as const;

/** Where each item's value starts among its slots (its token; its bytes' start and end follow). */
export const itemSlot = slotsOf(itemFields);
/** The slots an item takes. */
export const itemSlots = itemFields.length * 3;
/** Where each of the sale's values starts among `sale`'s slots. */
export const saleSlot = slotsOf(saleFields);

function slotsOf<Field extends string>(fields: readonly Field[]): Readonly<Record<Field, number>> {
  return Object.fromEntries(fields.map((field, index) => [field, index * 3])) as Record<Field, number>;
}

/** Where a key of an object the scan walks leads: a value to record, the items, or an object to walk. */
type Step = { kind: 'value'; slot: number } | { kind: 'items' } | { kind: 'object'; node: KeyNode };

/** An object on the shape's paths: the keys it reads, each with where it leads. */
interface KeyNode {
  keys: Uint8Array[];
  steps: Step[];
  /** Some path from here has more than one step: a key holding a dot could be such a path read whole. */
  dottedPaths: boolean;
}

/** Keys JSON.parse makes own properties of but the shape's readers read otherwise (inherited, or refused). */
const prototypeKeys = new Set(Object.getOwnPropertyNames(Object.prototype));

const maxDepth = 64;

export class CartScan {
  /** The sale's values: token, start, end for from, to, buyerPaysIcms. */
  readonly sale = new Int32Array(saleFields.length * 3);
  /** Each item's values: token, start, end for each of itemFields, item after item. */
  items = new Int32Array(64 * itemSlots);
  itemCount = 0;

  private readonly root: KeyNode | undefined;
  private readonly item: KeyNode | undefined;
  private bytes: Uint8Array = new Uint8Array(0);
  private itemsSeen = false;

  constructor(shape: TaxShape['request']) {
    this.root = plannedNode([
      [shape.items, { kind: 'items' }],
      ...saleFields.map((field, index): [string, Step] => [shape[field], { kind: 'value', slot: index }]),
    ]);
    this.item = plannedNode(
      itemFields.map((field, index): [string, Step] => [shape[field], { kind: 'value', slot: index }]),
    );
  }

  /** Whether the shape's paths are all plain keys, which the scan can follow; else every cart is parsed. */
  get usable(): boolean {
    return this.root !== undefined && this.item !== undefined;
  }

  /** Reads the cart; false when the scan declines it (the cart is then parsed). */
  scan(bytes: Uint8Array): boolean {
    if (this.root === undefined) return false;
    this.bytes = bytes;
    this.itemCount = 0;
    this.itemsSeen = false;
    this.sale.fill(0);
    let at = whitespace(bytes, 0);
    if (bytes[at] !== 123) return false;
    at = this.object(bytes, at, this.root, this.sale, 0);
    return at >= 0 && whitespace(bytes, at) === bytes.length && this.itemsSeen;
  }

  /** The text of a value recorded as Text or Number, from its bytes. */
  textOf(start: number, end: number): string {
    return asciiText(this.bytes, start, end);
  }

  /** The bytes the last scan read. */
  get source(): Uint8Array {
    return this.bytes;
  }

  /**
   * An object on the shape's paths, at its `{`: its keys of the shape recorded into `slots` from `base`, the others'
   * values checked and passed over. Where it ends, or -1 to decline.
   */
  private object(bytes: Uint8Array, from: number, node: KeyNode, slots: Int32Array, base: number): number {
    let at = whitespace(bytes, from + 1);
    if (bytes[at] === 125) return at + 1;
    let seen = 0;
    for (;;) {
      if (bytes[at] !== 34) return -1;
      const keyStart = at + 1;
      const keyEnd = plainTextEnd(bytes, keyStart);
      // A key with an escape may spell one of the shape's, or a prototype's: the parse reads it.
      if (keyEnd < 0) return -1;
      at = keyEnd + 1;
      if (bytes[at] !== 58) {
        at = whitespace(bytes, at);
        if (bytes[at] !== 58) return -1;
      }
      at = whitespace(bytes, at + 1);
      const index = keyIndex(node.keys, bytes, keyStart, keyEnd);
      if (index < 0) {
        if (isPrototypeKey(bytes, keyStart, keyEnd)) return -1;
        if (node.dottedPaths && bytes.subarray(keyStart, keyEnd).includes(46)) return -1;
        at = skipValue(bytes, at);
      } else {
        // A key of the shape twice: JSON.parse keeps the last, another reader the first; the parse answers.
        if ((seen & (1 << index)) !== 0) return -1;
        seen |= 1 << index;
        const step = node.steps[index] as Step;
        if (step.kind === 'value') at = recordedValue(bytes, at, slots, base + step.slot * 3);
        else if (step.kind === 'items') at = bytes[at] === 91 ? this.itemList(bytes, at) : -1;
        else at = bytes[at] === 123 ? this.object(bytes, at, step.node, slots, base) : -1;
      }
      if (at < 0) return -1;
      let next = bytes[at];
      if (next !== 44 && next !== 125) {
        at = whitespace(bytes, at);
        next = bytes[at];
      }
      if (next === 125) return at + 1;
      if (next !== 44) return -1;
      at = whitespace(bytes, at + 1);
    }
  }

  /** The list of items, at its `[`: each an object of the item's shape. Where it ends, or -1. */
  private itemList(bytes: Uint8Array, from: number): number {
    const node = this.item as KeyNode;
    this.itemsSeen = true;
    let at = whitespace(bytes, from + 1);
    if (bytes[at] === 93) return at + 1;
    for (;;) {
      if (bytes[at] !== 123) return -1;
      const base = this.itemCount * itemSlots;
      if (base + itemSlots > this.items.length) {
        const grown = new Int32Array(this.items.length * 2);
        grown.set(this.items);
        this.items = grown;
      }
      const slots = this.items;
      for (let slot = base; slot < base + itemSlots; slot += 3) slots[slot] = Token.Absent;
      this.itemCount++;
      at = this.object(bytes, at, node, slots, base);
      if (at < 0) return -1;
      let next = bytes[at];
      if (next !== 44 && next !== 93) {
        at = whitespace(bytes, at);
        next = bytes[at];
      }
      if (next === 93) return at + 1;
      if (next !== 44) return -1;
      at = whitespace(bytes, at + 1);
    }
  }
}

/** Past the JSON whitespace at `at`. */
function whitespace(bytes: Uint8Array, at: number): number {
  for (;;) {
    const byte = bytes[at];
    if (byte !== 32 && byte !== 10 && byte !== 13 && byte !== 9) return at;
    at++;
  }
}

/** A value the shape reads, at `at`, recorded as its token and bytes: where it ends, or -1. */
function recordedValue(bytes: Uint8Array, at: number, slots: Int32Array, slot: number): number {
  const first = bytes[at] as number;
  let token: Token;
  let end: number;
  if (first === 34) {
    const close = plainTextEnd(bytes, at + 1);
    if (close >= 0) {
      slots[slot] = Token.Text;
      slots[slot + 1] = at + 1;
      slots[slot + 2] = close;
      return close + 1;
    }
    token = Token.Other;
    end = skipValue(bytes, at);
  } else if (first === 45 || (first >= 48 && first <= 57)) {
    token = Token.Number;
    end = numberEnd(bytes, at);
  } else if (first === 116) {
    token = Token.True;
    end = literalEnd(bytes, at, trueBytes);
  } else if (first === 102) {
    token = Token.False;
    end = literalEnd(bytes, at, falseBytes);
  } else if (first === 110) {
    token = Token.Null;
    end = literalEnd(bytes, at, nullBytes);
  } else {
    token = Token.Other;
    end = skipValue(bytes, at);
  }
  slots[slot] = token;
  slots[slot + 1] = at;
  slots[slot + 2] = end;
  return end;
}

/**
 * Text from `at` (after its quote) to its closing quote, when all of it is printable ASCII with no escape: the
 * closing quote's place; else -1 (the text may still be JSON: see textEnd).
 */
function plainTextEnd(bytes: Uint8Array, at: number): number {
  for (;;) {
    const byte = bytes[at];
    if (byte === 34) return at;
    // Past the end too: undefined fails the test.
    if (!(byte !== undefined && byte >= 32 && byte <= 126 && byte !== 92)) return -1;
    at++;
  }
}

/** Any JSON text at its quote, as JSON.parse reads it: where it ends; -1 when it is not JSON or holds a `\u`. */
function textEnd(bytes: Uint8Array, from: number): number {
  let at = from + 1;
  for (;;) {
    const byte = bytes[at];
    if (byte === undefined || byte < 32) return -1;
    if (byte === 34) return at + 1;
    if (byte === 92) {
      // \u may spell a prototype's key, or a key of the shape: such a cart is left to the parse.
      if (!simpleEscapes.has(bytes[at + 1] as number)) return -1;
      at += 2;
    } else at++;
  }
}

/** A JSON number at `at`, its grammar checked (no leading zero, digits after a point and an exponent): its end or -1. */
function numberEnd(bytes: Uint8Array, from: number): number {
  let at = from;
  if (bytes[at] === 45) at++;
  if (bytes[at] === 48) at++;
  else {
    const digits = at;
    while (isDigit(bytes[at])) at++;
    if (at === digits) return -1;
  }
  if (bytes[at] === 46) {
    const digits = ++at;
    while (isDigit(bytes[at])) at++;
    if (at === digits) return -1;
  }
  if (bytes[at] === 101 || bytes[at] === 69) {
    at++;
    if (bytes[at] === 43 || bytes[at] === 45) at++;
    const digits = at;
    while (isDigit(bytes[at])) at++;
    if (at === digits) return -1;
  }
  return at;
}

function literalEnd(bytes: Uint8Array, at: number, expected: Uint8Array): number {
  for (let index = 0; index < expected.length; index++) if (bytes[at + index] !== expected[index]) return -1;
  return at + expected.length;
}

/** Containers open in skipValue: `{` or `[` at each depth. */
const open = new Uint8Array(maxDepth + 1);

/**
 * Any JSON value the shape does not read, at `at`, checked to its end without recursion; its keys neither a
 * prototype's nor escaped. Where it ends; -1 when it is not JSON, or nested past 64 levels.
 */
function skipValue(bytes: Uint8Array, from: number): number {
  let at = from;
  let depth = 0;
  for (;;) {
    // A value.
    const first = bytes[at] as number;
    if (first === 123 || first === 91) {
      if (++depth > maxDepth) return -1;
      open[depth] = first;
      at = whitespace(bytes, at + 1);
      if (bytes[at] === (first === 123 ? 125 : 93)) {
        at++;
        depth--;
      } else {
        if (first === 123) at = afterKey(bytes, at);
        if (at < 0) return -1;
        continue;
      }
    } else if (first === 34) at = textEnd(bytes, at);
    else if (first === 45 || (first >= 48 && first <= 57)) at = numberEnd(bytes, at);
    else if (first === 116) at = literalEnd(bytes, at, trueBytes);
    else if (first === 102) at = literalEnd(bytes, at, falseBytes);
    else if (first === 110) at = literalEnd(bytes, at, nullBytes);
    else return -1;
    if (at < 0) return -1;
    // After a value: the next of its container, or the container's end.
    for (;;) {
      if (depth === 0) return at;
      at = whitespace(bytes, at);
      const next = bytes[at];
      const container = open[depth];
      if (next === 44) {
        at = whitespace(bytes, at + 1);
        if (container === 123) at = afterKey(bytes, at);
        if (at < 0) return -1;
        break;
      }
      if (next !== (container === 123 ? 125 : 93)) return -1;
      at++;
      depth--;
    }
  }
}

/**
 * An object's key and its colon at `at`, inside a value the shape does not read: no prototype's key, no escape.
 * Where its value starts, or -1.
 */
function afterKey(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== 34) return -1;
  const start = at + 1;
  let end = plainTextEnd(bytes, start);
  if (end < 0) {
    // A key outside ASCII is JSON too; an escape is left to the parse.
    const after = textEnd(bytes, at);
    if (after < 0 || bytes.subarray(start, after).includes(92)) return -1;
    end = after - 1;
  } else if (isPrototypeKey(bytes, start, end)) return -1;
  at = whitespace(bytes, end + 1);
  if (bytes[at] !== 58) return -1;
  return whitespace(bytes, at + 1);
}

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (character) => character.charCodeAt(0));
const trueBytes = ascii('true');
const falseBytes = ascii('false');
const nullBytes = ascii('null');
/** The escapes JSON allows but \u. */
const simpleEscapes = new Set([34, 92, 47, 98, 102, 110, 114, 116]);

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 48 && byte <= 57;

function keyIndex(keys: Uint8Array[], bytes: Uint8Array, start: number, end: number): number {
  const length = end - start;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as Uint8Array;
    if (key.length !== length) continue;
    let at = 0;
    while (at < length && bytes[start + at] === key[at]) at++;
    if (at === length) return index;
  }
  return -1;
}

/** Bytes the scan took for ASCII (a key, a plain text or number), of any length, as text: one character a byte. */
export function asciiText(bytes: Uint8Array, start: number, end: number): string {
  return asciiDecoder.decode(bytes.subarray(start, end));
}

// 'latin1' is windows-1252 to a TextDecoder: the same as ASCII below 0x80, where every byte given to it lies.
const asciiDecoder = new TextDecoder('latin1');

/** `__proto__`, `constructor` or another of Object.prototype's names: read by the parse. */
function isPrototypeKey(bytes: Uint8Array, start: number, end: number): boolean {
  const length = end - start;
  // The shortest is `valueOf`, the longest `__lookupGetter__` and `propertyIsEnumerable`.
  if (length < 7 || length > 20) return false;
  return prototypeKeys.has(asciiText(bytes, start, end));
}

/**
 * The walk of a shape's paths from one object: undefined when a path is not a chain of plain keys (an index step,
 * a prototype's name, a path that is also the start of another), which the scan cannot follow.
 */
function plannedNode(paths: [string, Step][]): KeyNode | undefined {
  const node: KeyNode = { keys: [], steps: [], dottedPaths: false };
  for (const [path, step] of paths) {
    // A part the shape leaves out is read by no one.
    if (path === '') continue;
    const parts = path.split('.');
    if (parts.length > 1) node.dottedPaths = true;
    let at = node;
    for (const [index, part] of parts.entries()) {
      if (/^\d+$/.test(part) || prototypeKeys.has(part) || !/^[\x20-\x7e]+$/.test(part) || /["\\]/.test(part))
        return undefined;
      const key = ascii(part);
      const found = at.keys.findIndex((known) => known.length === key.length && known.every((b, i) => b === key[i]));
      const last = index === parts.length - 1;
      if (found >= 0) {
        const existing = at.steps[found] as Step;
        if (last || existing.kind !== 'object') return undefined;
        at = existing.node;
      } else if (last) {
        at.keys.push(key);
        at.steps.push(step);
      } else {
        const inner: KeyNode = { keys: [], steps: [], dottedPaths: false };
        at.keys.push(key);
        at.steps.push({ kind: 'object', node: inner });
        at = inner;
      }
    }
  }
  // One bit a key in the objects walked.
  return node.keys.length <= 30 ? node : undefined;
}
