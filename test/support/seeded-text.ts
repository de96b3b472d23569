/**
 * Repeatable randomness for tests that compare two ways of reading the same text: a seed names a case, so a
 * failure prints the seed that reproduces it.
 */

/** A linear congruential generator: numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The text cut into chunks of 1 to `largest` characters, as a stream may hand it over. */
export function cutAnywhere(text: string, next: () => number, largest: number): string[] {
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    const size = 1 + Math.floor(next() * largest);
    chunks.push(text.slice(start, start + size));
    start += size;
  }
  return chunks;
}
