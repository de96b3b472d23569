/** How deep and how wide a JSON text may be. */
export interface JsonShapeLimits {
  /** Levels of objects and arrays, the outermost being 1. */
  maxDepth: number;
  /** Object members over the whole text. */
  maxKeys: number;
}

/**
 * What makes a JSON text exceed the limits, or undefined: read from the text itself in one pass, before
 * anything parses it, so a hostile shape costs no more than its bytes (JSON.stringify overflows the stack on a few
 * thousand levels that JSON.parse takes). A text that is not JSON passes here and fails its parse.
 */
export function jsonShapeProblem(text: string, limits: JsonShapeLimits): string | undefined {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limits.maxDepth) return `nested deeper than ${limits.maxDepth} levels`;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    } else if (code === 0x3a && ++keys > limits.maxKeys) {
      return `more than ${limits.maxKeys.toLocaleString('en')} keys`;
    }
  }
  return undefined;
}

/**
 * How an already parsed JSON value is nested past `maxDepth`, or undefined: walked with a list of its own, not
 * recursion, so a value a few thousand levels deep (which JSON.parse takes) is measured without overflowing the
 * stack, as JSON.stringify or String() of it would.
 */
export function nestingProblem(value: unknown, maxDepth: number): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return `nested deeper than ${maxDepth} levels`;
    for (const member of Object.values(next.value)) pending.push({ value: member, depth });
  }
  return undefined;
}

/**
 * A key a JSON text's object holds twice, or undefined. JSON.parse keeps the last, another reader (an ERP's) may keep
 * the first: two programs reading one text would see two documents (RFC 8259 §4: names "SHOULD be unique"; I-JSON,
 * RFC 7493, requires it). Read from the text in one pass, as jsonShapeProblem reads it: a key is the string that
 * opens an object or follows a comma within one; escapes are decoded only in a key that holds one. On the tax
 * callback's every cart: strings are skipped with indexOf, and each object's few keys kept in a short list (a Set
 * per object cost as much again).
 */
export function duplicateKeyOf(text: string): string | undefined {
  // The keys seen in each open object (undefined for an array).
  const open: (string[] | undefined)[] = [];
  let keyNext = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      const start = index + 1;
      const end = stringEnd(text, start);
      index = end;
      if (!keyNext) continue;
      keyNext = false;
      const keys = open.at(-1);
      const raw = text.slice(start, end);
      const key = raw.includes('\\') ? decodedKey(raw) : raw;
      if (keys?.includes(key)) return key;
      keys?.push(key);
    } else if (code === 0x7b) {
      open.push([]);
      keyNext = true;
    } else if (code === 0x5b) {
      open.push(undefined);
    } else if (code === 0x7d || code === 0x5d) {
      open.pop();
    } else if (code === 0x2c) {
      keyNext = open.at(-1) !== undefined;
    }
  }
  return undefined;
}

/** Where the string opened before `start` ends: its closing quote, one an odd run of backslashes does not escape. */
function stringEnd(text: string, start: number): number {
  let quote = text.indexOf('"', start);
  while (quote > 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length; // Not closed: not JSON, which its parse says.
}

function decodedKey(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw; // Not JSON: its parse fails and says so.
  }
}
