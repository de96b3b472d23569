/**
 * The interstate ICMS rate a pair of states has, to warn of a table row whose `icmsRate` between two states is
 * another: most often the internal rate typed in the interstate column (18 or 20 where 12 belongs), which doubles the
 * seller's ICMS and erases the DIFAL with no error (a user test). Resolução do Senado Federal 22/1989: 12% between
 * states, but 7% from the South and the Southeast, Espírito Santo aside, to the North, the Northeast, the
 * Centre-West and Espírito Santo; Resolução 13/2012: 4% for imported goods whatever the pair. Only warned of, never
 * refused: a state's special rule or a court's decision may set another. Pure.
 */
import type { TaxRule } from './rules.js';

/** The South and the Southeast but Espírito Santo: their sales to the states below are at 7%. */
const southAndSoutheast = new Set(['PR', 'SC', 'RS', 'SP', 'RJ', 'MG']);
/** The North, the Northeast, the Centre-West and Espírito Santo. */
const sevenPercentDestinations = new Set(
  // The North; the Northeast; the Centre-West and Espírito Santo.
  'AC AP AM PA RO RR TO AL BA CE MA PB PE PI RN SE DF GO MT MS ES'.split(' '),
);

/** The interstate rate of national goods from `from` to `to`, percent. */
export function interstateRate(from: string, to: string): number {
  return southAndSoutheast.has(from) && sevenPercentDestinations.has(to) ? 7 : 12;
}

/** Why a row between two states has an `icmsRate` that is not the pair's interstate rate (nor 4%), if it has one. */
export function unexpectedInterstateRate(rule: Pick<TaxRule, 'from' | 'to' | 'icmsRate'>): string | undefined {
  if (rule.from === rule.to) return undefined;
  const expected = interstateRate(rule.from, rule.to);
  const written = Number(rule.icmsRate);
  if (written === expected || written === 4) return undefined;
  return `icmsRate "${rule.icmsRate}" is not the interstate rate from ${rule.from} to ${rule.to}, which is ${expected} (4 for imported goods; Resoluções do Senado Federal 22/1989 and 13/2012): taken as written, as a special rule may set it, but if it is the destination's internal rate it belongs in destinationRate`;
}
