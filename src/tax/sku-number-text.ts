/**
 * A SKU sent as a JSON number is answered as the same JSON number, written as JavaScript writes it (String(n)): a
 * number's value is what JSON carries (RFC 8259, section 6), and a typed comparison on the platform's side (`123 ===
 * 123`, a Long, a BigDecimal's compareTo) matches it. Its text is not kept: `1.50` comes back `1.5`, `1.0` as `1`,
 * `1E3` as `1000`. Keeping it would mean reading the text of every cart with a SKU number again (a JSON.parse
 * reviver, which gives each number's text, took 123 µs for a ten-item cart the parse reads in 12 µs, on every such
 * cart, fast path or not), so a platform that compares the answer's SKU as text is told once in the log instead,
 * the first time a cart's SKU number is written otherwise than it comes back. Until then a cart with a SKU number
 * costs a search of its text for the SKU's key (15 µs for 50 whole SKU numbers where the cart's parse took 55 µs, on
 * a loaded machine); a cart without one, a read of each item's SKU.
 */
import { jsonSkuProblem } from './json-amounts.js';
import { requestReaders, type TaxShape } from './shape.js';

/** A SKU number as the cart wrote it, and as the answer writes it. */
export interface RewrittenSku {
  item: number;
  sent: string;
  answered: string;
}

/**
 * Watches the carts as they are read for the first SKU number whose text the answer writes otherwise, and says it
 * once. Carts without a SKU number cost a read of each item's SKU; the text is searched only in carts with one.
 */
export function skuNumberWatch(
  shape: TaxShape['request'],
  warn: (line: string) => void,
): (body: unknown, text: string) => void {
  const readers = requestReaders(shape);
  const key = shape.sku.split('.').at(-1) ?? '';
  let said = false;
  return (body, text) => {
    if (said || key === '') return;
    const items = readers.items(body);
    if (!Array.isArray(items)) return;
    // Every cart passes here: the common one, its SKUs text, is told without building a list.
    if (!items.some((item) => typeof readers.sku(item) === 'number')) return;
    const rewritten = rewrittenSku(
      text,
      key,
      items.map((item) => readers.sku(item)),
    );
    if (rewritten === undefined) return;
    said = true;
    warn(
      `tax callback: a cart's item ${rewritten.item} has the SKU ${rewritten.sent} as a JSON number; the answer gives ` +
        `it back as ${rewritten.answered}, the same number, not the same text. Where the platform compares SKUs as ` +
        `text, send them as text ("${rewritten.sent}"). Said once.`,
    );
  };
}

/** A JSON number's text: an optional minus, digits, an optional fraction and exponent. */
const numberToken = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first of a cart's numeric SKUs whose text, after its key in the cart's text, is not the text String() writes
 * for its value. Found by the key's name alone (`"sku":`), not its whole path: a number under another key of that
 * name counts only with the value of one of the items' SKUs.
 */
export function rewrittenSku(text: string, key: string, skus: readonly unknown[]): RewrittenSku | undefined {
  const quotedKey = JSON.stringify(key);
  for (let at = text.indexOf(quotedKey); at !== -1; at = text.indexOf(quotedKey, at + quotedKey.length)) {
    const index = afterSpace(text, at + quotedKey.length);
    if (text[index] !== ':') continue;
    const start = afterSpace(text, index + 1);
    // The common SKU number, whole digits, is passed over without reading its value: a cart may hold hundreds.
    if (isPlainWholeNumber(text, start)) continue;
    numberToken.lastIndex = start;
    const token = numberToken.exec(text)?.[0];
    if (token === undefined) continue;
    const value = Number(token);
    const answered = String(value);
    if (answered === token) continue;
    // A SKU refused for its digits (past 15) is not answered at all; -0 === 0, the SKU it is answered as.
    const item = skus.findIndex((sku) => sku === value && jsonSkuProblem(sku) === undefined);
    if (item !== -1) return { item: item + 1, sent: token, answered };
  }
  return undefined;
}

/**
 * Whether the text at `start` is a whole number of at most 15 digits, not -0: written as String() writes its value
 * (JSON has no leading zeros). A longer one is refused (jsonSkuProblem), never answered.
 */
function isPlainWholeNumber(text: string, start: number): boolean {
  const first = text.charCodeAt(start) === 45 ? start + 1 : start;
  let end = first;
  while (isDigit(text.charCodeAt(end))) end++;
  const next = text.charCodeAt(end);
  // 46, 101, 69: a point or an exponent follows (`1.0`, `1e2`), written otherwise as a value.
  if (end === first || next === 46 || next === 101 || next === 69 || end - first > 15) return false;
  return !(first > start && end - first === 1 && text.charCodeAt(first) === 48);
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The index of the first character at or after `index` that is not JSON's white space. */
function afterSpace(text: string, index: number): number {
  let at = index;
  while (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t') at++;
  return at;
}
