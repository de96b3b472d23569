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
