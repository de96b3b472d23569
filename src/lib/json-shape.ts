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
