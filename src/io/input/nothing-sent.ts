/**
 * How a reader's refusal says the file stopped the run before anything went out: `; nothing was sent` (or the
 * `clause` given) for a command that sends. A command that never sends (`validate`, the tax commands: `sends: false`)
 * gets nothing: there the words read as if it could have sent.
 */
export function nothingSent(sends: boolean | undefined, clause = '; nothing was sent'): string {
  return sends === false ? '' : clause;
}
