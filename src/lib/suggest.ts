/** "Did you mean" for mistyped names. Pure. */

/**
 * Edits between two strings (optimal string alignment): a swap of two neighbouring letters is one edit, as commander
 * counts it, so `mna` is one edit from `man`, as near as `ma`, not two.
 */
export function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        current[j] = Math.min(current[j] ?? 0, (beforePrevious[j - 2] ?? 0) + 1);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The candidate nearest to `name` (ignoring case), when near enough to be a typo: two edits from a name of four
 * characters or more (a third of a long one), one from a shorter one, since any name of one to three characters is two
 * edits from a two-letter field (`x`, `id`, `foo` were offered as `to` and `from`, the destination and origin states).
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  const nearEnough = name.length < 4 ? 1 : Math.max(2, Math.floor(name.length / 3));
  return best && best.distance <= nearEnough ? best.candidate : undefined;
}
