/**
 * A sentence of ours set inside another, in brackets or before a `;`: its closing full stop left out, which there
 * read `later.); a resume …` or `the request.; the order …`. An ellipsis is kept.
 */
export function asClause(sentence: string): string {
  return sentence.endsWith('.') && !sentence.endsWith('..') ? sentence.slice(0, -1) : sentence;
}

/**
 * A message of ours followed by another sentence: its closing full stop added when it has none (a platform's words
 * quoted last, `… failed with HTTP 403: Access Denied`), which otherwise read `Access Denied Then resume with: …`.
 */
export function asSentence(message: string): string {
  return /[.!?]$/.test(message.trimEnd()) ? message.trimEnd() : `${message.trimEnd()}.`;
}
