/**
 * The flags of the sale a `tax quote` prices, on one line: written out flag by flag, each sale took nine lines of a
 * test once formatted, and the same nine lines stood in every test that quotes one.
 */

/** `--from FROM --to TO --buyer BUYER`, then `rest` as given (the `--item`/`--items` flags and any other). */
export function saleFlags(from: string, to: string, buyer: string, ...rest: string[]): string[] {
  return ['--from', from, '--to', to, '--buyer', buyer, ...rest];
}
