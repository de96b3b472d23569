/** Counts in words ("1 customer", "2 customers"): one rule, so no message says "1 records" again. Pure. */

/** The singular of an English plural noun as b2bctl uses them: records, items, retries, addresses, sales reps. */
export function singularOf(plural: string): string {
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ss|sh|ch|x)es$/.test(plural)) return plural.replace(/es$/, '');
  if (/[^su]s$/.test(plural)) return plural.slice(0, -1);
  return plural;
}

/** `count` followed by the noun in the right number; `plural` is the noun as it reads for many. */
export function countOf(count: number, plural: string): string {
  return `${count} ${count === 1 ? singularOf(plural) : plural}`;
}

/** Names in a sentence: `A`, `A and B`, `A, B and C`. */
export function namedList(names: readonly string[]): string {
  return names.join(' and ').replace(/ and (?=.* and )/g, ', ');
}
