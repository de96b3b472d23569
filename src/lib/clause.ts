/**
 * A sentence of ours set inside another, in brackets or before a `;`: its closing full stop left out, which there
 * read `later.); a resume …` or `the request.; the order …`. An ellipsis is kept.
 */
export function asClause(sentence: string): string {
  return sentence.endsWith('.') && !sentence.endsWith('..') ? sentence.slice(0, -1) : sentence;
}
