/**
 * A cart's body read as both callback routes read it (the own route and fastify's), and every refusal of what
 * arrived in the callback's error shape, `{"error":"…","message":…}`: a platform parses one shape for every refusal
 * (`not-json`, `too-large`, `bad-request`, `no-tax-row`…), not fastify's `{"statusCode","code","error":"Bad
 * Request"}` for some of them, whose message said "not valid JSON" of a gzip body or of valid JSON with a prototype's
 * key.
 */
import { parse as parseJsonSafely } from 'secure-json-parse';
import { declaredCharset, decoderOf } from '../lib/declared-charset.js';
import { duplicateKeyOf } from '../lib/json-shape.js';
import { printable } from '../lib/printable.js';

/** A refused request: the answer, its log line's reason, and the connection closed when its rest is not trusted. */
export interface CartRefusal {
  status: number;
  body: { error: string; message: string };
  /** Why, for the log line `tax callback refused a cart from ADDRESS: …`. */
  reason: string;
  headers?: Record<string, string>;
}

/** A refusal raised inside fastify's body parser, for the callback scope's error handler to answer as it is. */
export class CartRefusalError extends Error {
  readonly statusCode: number;

  readonly refusal: CartRefusal;
  constructor(refusal: CartRefusal) {
    super(refusal.body.message);
    this.refusal = refusal;

    this.statusCode = refusal.status;
  }
}

/**
 * The cart's text in the charset its `Content-Type` declares (declared-charset.ts, the rule an ERP's answer is read
 * by), or a 415 for a charset no decoder knows. A Latin-1 cart read as UTF-8 had its SKU answered, and forwarded to
 * the ERP, as U+FFFD (a user test): the platform matches the answer's SKUs to its cart's. No charset, or UTF-8, is
 * read as before; the answer, and a cart forwarded to an ERP, are UTF-8, as their Content-Type says.
 */
export function cartText(bytes: Buffer, contentType: string | undefined): { text: string } | { refusal: CartRefusal } {
  const charset = declaredCharset(contentType);
  if (charset === undefined) return { text: bytes.toString('utf8') };
  const decoder = decoderOf(charset);
  if (decoder !== undefined) return { text: decoder.decode(bytes) };
  const shown = JSON.stringify(printable(charset.slice(0, 40)));
  const message = `the body is in charset ${shown}, which b2bctl cannot decode: send the cart in UTF-8 (or ISO-8859-1 declared as such)`;
  return { refusal: { status: 415, body: { error: 'unsupported-charset', message }, reason: `${message}.` } };
}

/**
 * The body's JSON, or why it is refused. `size` says how much arrived, as the route knows it (characters read, or
 * the Content-Length). The parser is fastify's own (secure-json-parse), prototype keys refused: `__proto__` in a
 * cart would be a value that changes what its other values read as. With `refusesKeysTwice` (a server forwarding the
 * text to an ERP, which may read a key twice otherwise: the first where b2bctl reads the last), a key twice in one
 * object is refused, anywhere in the cart.
 */
export function readCartBody(
  text: string,
  contentType: string | undefined,
  size: string,
  refusesKeysTwice = false,
): { body: unknown } | { refusal: CartRefusal } {
  const type = contentType?.slice(0, 100) ?? 'none';
  if (text.length === 0) {
    const message = 'the body is empty: send the cart as JSON';
    return {
      refusal: {
        status: 400,
        body: { error: 'not-json', message },
        reason: `its body is empty (content-type ${type}).`,
      },
    };
  }
  let body: unknown;
  try {
    body = mayHoldPrototypeKey(text)
      ? parseJsonSafely(text, { protoAction: 'error', constructorAction: 'error' })
      : JSON.parse(text);
  } catch {
    const prototypeKey = prototypeKeyOf(text);
    if (prototypeKey !== undefined) {
      const message = `the cart holds ${prototypeKey}, refused for safety (a prototype's key could change what the cart's other values read as): leave it out`;
      return { refusal: { status: 400, body: { error: 'bad-request', message }, reason: message } };
    }
    const message = 'the body is not JSON: send the cart as JSON';
    return { refusal: { status: 400, body: { error: 'not-json', message }, reason: notJson(contentType, size) } };
  }
  // The parse keeps a key's last value; an ERP behind --forward-to may keep its first (`"items":[…],"items":[]`,
  // `"quantity":1,"quantity":5` in an item): the two would answer for two different carts. The whole text is looked
  // through on every forwarded cart: a quick count of the cart's own keys missed a key twice inside an item (a user
  // test), and the look (~16 µs of a 50-item cart) is nothing beside the ERP's answer.
  const twice = refusesKeysTwice ? duplicateKeyOf(text) : undefined;
  if (twice !== undefined) {
    const message = `the cart holds the key ${JSON.stringify(printable(twice.slice(0, 100)))} twice in one object, which readers take differently (the first or the last): send it once`;
    return { refusal: { status: 400, body: { error: 'bad-request', message }, reason: message } };
  }
  return { body };
}

/**
 * Whether the text may hold a prototype's key: `__proto__` or `constructor` written out, or any `\u` escape, the
 * only other way to spell a key. Text without them parses to the same safe value with JSON.parse alone, which spares
 * secure-json-parse's two looks through the whole text for an escaped spelling (a fifth of a 50-item cart's parse).
 */
function mayHoldPrototypeKey(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
}

/** Why a cart whose body did not parse as JSON was refused, as both routes log it. */
function notJson(contentType: string | undefined, size: string): string {
  return `its body is not JSON (${size}, content-type ${contentType ?? 'none'}).`;
}

/**
 * The prototype key a body that JSON.parse reads holds (`"__proto__"`, or `"prototype"` in `"constructor"`, named
 * with where it is), or undefined: the body then is no JSON at all. Walked without recursion: JSON.parse takes
 * a value nested 100,000 levels deep.
 */
function prototypeKeyOf(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const waiting: { value: unknown; path: string }[] = [{ value: parsed, path: '' }];
  for (let next = waiting.pop(); next !== undefined; next = waiting.pop()) {
    const { value, path } = next;
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Object.keys(value)) {
      const inner = (value as Record<string, unknown>)[key];
      const at = path === '' ? key : `${path}.${key}`;
      const within = path === '' ? '' : ` at ${JSON.stringify(printable(path.slice(0, 100)))}`;
      if (key === '__proto__') return `the key "__proto__"${within}`;
      if (key === 'constructor' && typeof inner === 'object' && inner !== null && Object.hasOwn(inner, 'prototype'))
        return `the key "prototype" in "constructor"${within}`;
      waiting.push({ value: inner, path: at });
    }
  }
  return "a prototype's key";
}

/** The answer to a failure no rule foresaw, in the callback's error shape (logged and counted where it happened). */
export function internalErrorBody(error: unknown): { error: string; message: string } {
  return { error: 'internal-error', message: error instanceof Error ? error.message : String(error) };
}
