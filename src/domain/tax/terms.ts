/**
 * The words of a tax computation, shared by its exact and its fast path: an item as the platform sends it, the
 * sale, an item's taxes as answered, and the rates as fractions (a percentage's text read once). Pure.
 */
import { Exact } from './exact.js';
import { type BuyerKind, destinationReduction, type TaxRule } from './rules.js';

/** One item of a cart: what the platform sends for it. Money as decimal text (`1234.50`). */
export interface TaxItem {
  sku?: string;
  ncm: string;
  quantity: number;
  unitPrice: string;
  /** The item's unconditional discount, for the whole line. */
  discount?: string;
  /** The item's share of the freight. */
  freight?: string;
}

/** One tax of an item: the base it was computed on, the rate (percent) and the value, each as text. */
export interface TaxLine {
  base: string;
  rate: string;
  value: string;
}

export interface ItemTaxes {
  sku?: string;
  ncm: string;
  /** The gross value (quantity × unit price, rounded: an NF-e's vProd) − discount. */
  merchandise: string;
  ipi: TaxLine;
  icms: TaxLine;
  /** Only for a taxpayer buyer of a product with an MVA: the substitution's base, the MVA applied and the value due. */
  icmsSt?: TaxLine & { mva: string };
  /** Only for a non-taxpayer buyer in another state: the share due to the destination (base, internal rate, value). */
  difal?: TaxLine;
  fcp?: TaxLine;
  /**
   * What the taxes add to the invoice over merchandise and freight, as the NF-e's total sums them: IPI and ICMS-ST. Own
   * ICMS is inside the price; DIFAL and FCP are the seller's to pay, outside the invoice's total (docs/tax.md).
   */
  added: string;
}

/** The sale as a whole: who buys and the states it goes between. */
export interface TaxSale {
  buyer: BuyerKind;
  interstate: boolean;
}

const one = Exact.of(1);
/** A table's rates are few and repeat on every item: each percentage is read once. */
const percents = new Map<string, Exact>();
/** A percentage's text as the fraction it stands for (`18` is 0.18). */
export function percent(rate: string): Exact {
  let share = percents.get(rate);
  if (share === undefined) {
    share = Exact.of(rate).div(100);
    if (percents.size < 10_000) percents.set(rate, share);
  }
  return share;
}
/** A fraction as a percentage's text, to 4 decimals (the MVA applied). */
export const rateText = (rate: Exact): string => rate.times(100).toDecimalPlaces(4).toString();

/**
 * The MVA applied: the original inside a state; between states the adjusted one, which keeps the burden of a
 * product bought in another state equal to one bought inside: (1 + MVA) × (1 − interstate) / (1 − internal) − 1.
 * Adjusted only where the destination's internal rate is above the interstate rate: below it the adjustment would
 * lower the margin, and the agreements that carry the formula apply the original MVA then (docs/tax.md, formula 4;
 * a user test).
 */
export function appliedMva(rule: Pick<TaxRule, 'mva' | 'icmsRate' | 'destinationRate'>, interstate: boolean): Exact {
  const original = percent(rule.mva);
  if (!interstate || !percent(rule.destinationRate).gt(percent(rule.icmsRate))) return original;
  return original
    .plus(1)
    .times(one.minus(percent(rule.icmsRate)))
    .div(one.minus(percent(rule.destinationRate)))
    .minus(1);
}

/**
 * An item's gross value as its NF-e writes it (vProd): quantity × unit price rounded to centavos, half to even. An
 * NF-e builds its bases from vProd, minus vDesc, plus vFrete, so a 3-decimal price is rounded here, before the
 * discount, or the taxes would differ by a centavo from those the document's own fields give (decision 0033).
 */
export function grossValue(quantity: number, unitPrice: string | number): Exact {
  return Exact.of(unitPrice).times(quantity).centavos();
}

/**
 * The item's freight share as the NF-e writes it (vFrete, two decimals): rounded to centavos, half to even, before
 * any base is built, so IPI, ICMS, ICMS-ST and DIFAL all start from the operation the answer shows and the NF-e's
 * own fields give (a share of 0.005 taken whole would put the IPI a centavo off its own base × rate). The fast path
 * (fast-taxes.ts, answer-bytes.ts) rounds the same way with scaled.ts's centavosOf.
 */
export function freightShare(freight: string | undefined): Exact {
  return Exact.of(freight ?? '0').centavos();
}

/**
 * Whether the destination owes a DIFAL at all: only where its internal rate is above the interstate one. With equal
 * rates there is no difference of rates to owe (Constituição Federal, art. 155, §2º, VII and VIII), but the double
 * base, grossed up from an own ICMS already rounded, can exceed the operation by a centavo and answer a DIFAL of
 * R$ 0.01 (a user test): the formula is not let to invent it.
 */
export function owesDifal(
  rule: Pick<TaxRule, 'icmsRate' | 'destinationRate' | 'icmsBaseReduction' | 'destinationBaseReduction'>,
): boolean {
  // The loads, each rate on its reduced base: Convênio ICMS 52/91's equal loads owe none, whatever the two rates.
  const originLoad = percent(rule.icmsRate).times(one.minus(percent(rule.icmsBaseReduction)));
  return percent(rule.destinationRate).times(destinationKept(rule)).gt(originLoad);
}

/** 1 − the destination's base reduction (rules.ts's destinationReduction). */
export function destinationKept(rule: Pick<TaxRule, 'icmsBaseReduction' | 'destinationBaseReduction'>): Exact {
  return one.minus(percent(destinationReduction(rule)));
}

/**
 * The DIFAL's destination base per unit of the value less the own ICMS: the double base grossed up by the
 * destination's load, as its ICMS is inside its own base, then reduced by its reduction: (1 − r) / (1 − rate × (1 − r)).
 * Without a reduction it is 1 / (1 − rate), the double base of EC 87/2015 and Convênio ICMS 236/2021.
 */
export function destinationBaseShare(
  rule: Pick<TaxRule, 'destinationRate' | 'icmsBaseReduction' | 'destinationBaseReduction'>,
): Exact {
  const kept = destinationKept(rule);
  return kept.div(one.minus(percent(rule.destinationRate).times(kept)));
}
