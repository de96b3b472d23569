/**
 * Which SKU sent a result's words quote: the evidence that results matched by their place alone (no SKU, no index)
 * are not in the order sent. A queue worker finishing in another order answered `"SKU BAD-1 not found"` at GOOD-3's
 * place, and b2bctl reported BAD-1 applied and GOOD-3 refused, with no warning (a fresh user test).
 *
 * A SKU is quoted when it stands in the text as a whole word, as sent or in capitals: not inside a longer code
 * (`BAD-1` in `BAD-10` or `X-BAD-1`), nor inside another SKU sent that the text quotes (`10M` in `CABO 10M`). Two
 * characters holding a letter and a digit (`X1`, `P2`: sizes, colours) are a code no message word is, and were left
 * out: the platform's refusal of X1 at X3's place reported X1 applied and X3 refused (a fresh user test).
 *
 * A SKU too short to tell from the other words of a message (3 digits or fewer: a line, an HTTP code, a quantity, a
 * day or a month; one character; two that are not a letter and a digit, such as a word `OK` or `de`) is quoted only
 * where the message marks it as a code: after the word `SKU` (`SKU 12`, `sku: '12'`, `SKU #12`), or alone between
 * quotes or brackets (`"12"`, `'de'`, `[12]`). A bare `12 items`, `2026-12-01` or `Produto de teste` quotes nothing.
 * Such a SKU was never looked for, and `"SKU 12 not found"` at another item's place was matched by place (a
 * maintainer's round). A mark can still enclose something else (`quantity "12"`): then the items matched by place
 * are `unknown` when they may have been right, which costs a resume's sending them again; a quoted SKU missed costs
 * a refused item reported applied.
 */

/** The SKU sent, other than `ownSku`, that the texts quote; none when they quote `ownSku` itself (or nothing sent). */
export function otherSkuQuoted(texts: readonly string[], ownSku: string, skus: readonly string[]): string | undefined {
  const lookedFor = [...new Set(skus)].filter((sku) => sku.trim() !== '');
  const quoted = texts.flatMap((text) => outermost(lookedFor.flatMap((sku) => spansOf(text, sku))));
  if (quoted.some((span) => span.sku === ownSku)) return undefined;
  return quoted.find((span) => span.sku !== ownSku)?.sku;
}

/** Whether a SKU is long enough that its whole-word presence in a message is not a line, a quantity or a code. */
function distinctEnough(sku: string): boolean {
  const trimmed = sku.trim();
  if (trimmed.length === 2) return /\p{L}/u.test(trimmed) && /\p{N}/u.test(trimmed);
  return trimmed.length >= 3 && !/^\d{1,3}$/.test(trimmed);
}

interface Span {
  sku: string;
  from: number;
  to: number;
}

/**
 * Where a SKU stands in a text as a whole word, as sent or in capitals; one too short to tell from a message's other
 * words, only where the text marks it as a code (markedAsCode).
 */
function spansOf(text: string, sku: string): Span[] {
  const spans: Span[] = [];
  const distinct = distinctEnough(sku);
  for (const spelling of new Set([sku, sku.toUpperCase()]))
    for (let from = text.indexOf(spelling); from !== -1; from = text.indexOf(spelling, from + 1)) {
      const to = from + spelling.length;
      const whole = edgeAt(text, from - 1, -1) && edgeAt(text, to, 1);
      if (whole && (distinct || markedAsCode(text, from, to))) spans.push({ sku, from, to });
    }
  return spans;
}

/**
 * Whether the word at `from`..`to` is marked as a code: the word `SKU` before it (`SKU 12`, `sku: '12'`, `SKU #12`,
 * `sku=12`), or a quote or bracket on each side (`"12"`, `'12'`, `“12”`, `` `12` ``, `[12]`).
 */
function markedAsCode(text: string, from: number, to: number): boolean {
  const close = closingMarks()[text[from - 1] ?? ''];
  if (close !== undefined && text[to] === close) return true;
  // Only the few characters before it are read: a long message quoting a short SKU often is read once per quote.
  const before = text.slice(Math.max(0, from - 12), from);
  const label = /sku\s*[:#=]?\s*["'“‘`]?$/iu.exec(before);
  if (label === null) return false;
  // `SKU` a word of its own, not the end of one (`ASKU 12`).
  const at = from - before.length + label.index;
  return at === 0 || !isWordCharacter(text[at - 1] as string);
}

// Built at each call, in a function body, not once at module load: mutation testing switches its changes at run
// time, inside functions.
function closingMarks(): Readonly<Record<string, string>> {
  return { '"': '"', "'": "'", '“': '”', '‘': '’', '`': '`', '[': ']', '«': '»' };
}

/**
 * Whether the character at `at` (next to a SKU, on the side `away` points to) ends the word: the text's end, or a
 * character that is neither a letter nor a digit, nor a joiner (`-`, `_`, `.`, `/`) leading on to one (`BAD-1-X`,
 * `12.00`); a sentence's closing `.` or a `:` ends it.
 */
function edgeAt(text: string, at: number, away: 1 | -1): boolean {
  const next = text[at];
  if (next === undefined) return true;
  if (isWordCharacter(next)) return false;
  const beyond = text[at + away];
  return !(/[-_./]/.test(next) && beyond !== undefined && isWordCharacter(beyond));
}

function isWordCharacter(character: string): boolean {
  return /[\p{L}\p{N}]/u.test(character);
}

/**
 * The spans not inside a longer one: a SKU sent that is part of another SKU sent the text quotes is not quoted. One
 * sweep in the order of their starts (a message repeating a SKU 20,000 times took 8 s compared pair by pair): a span
 * is inside a longer one when one starting at or before it ends past it, or one starting before it ends with it.
 */
function outermost(spans: readonly Span[]): Span[] {
  const byStart = spans.toSorted((a, b) => a.from - b.from || b.to - a.to);
  const inside = new Set<Span>();
  let furthestEnd = -1;
  let furthestEndStartedBefore = -1;
  let start = -1;
  for (const span of byStart) {
    if (span.from !== start) {
      furthestEndStartedBefore = furthestEnd;
      start = span.from;
    }
    if (furthestEnd > span.to || furthestEndStartedBefore >= span.to) inside.add(span);
    furthestEnd = Math.max(furthestEnd, span.to);
  }
  return spans.filter((span) => !inside.has(span));
}
