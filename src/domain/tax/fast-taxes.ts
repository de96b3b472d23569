/**
 * The taxes of one item in whole centavos held in safe integers (scaled.ts): the same formulas and roundings as
 * compute.ts's BigInt fractions, with everything a table row fixes (each rate as a reduced fraction, the ICMS-ST
 * factor with the adjusted MVA, the DIFAL gross-up) worked out once per row. Undefined whenever a value or an
 * intermediate does not fit, so the caller computes the item in fractions instead. Pure.
 */
import { Exact } from './exact.js';
import type { TaxRule } from './rules.js';
import {
  appliedMva,
  destinationBaseShare,
  type ItemTaxes,
  owesDifal,
  percent,
  rateText,
  type TaxItem,
  type TaxSale,
} from './terms.js';
import { applied, appliedLess, centavosOf, moneyText, product, type Ratio, rescaled, scaledOf, sum } from './scaled.js';

/** What a row fixes for every item; undefined parts are not computable in safe integers (or at all). */
export interface PreparedRule {
  ipi?: Ratio;
  icms?: Ratio;
  /** 1 − the base reduction. */
  kept?: Ratio;
  destination?: Ratio;
  fcp?: Ratio;
  underSt: boolean;
  /** (1 + MVA applied) × (1 − reduction), inside a state and between states, with the MVA's text. */
  stInside?: { factor?: Ratio; mva: string };
  stBetween?: { factor?: Ratio; mva: string };
  /** (1 − r) / (1 − destination rate × (1 − r)), r the destination's reduction: the double base's share (terms.ts). */
  grossUp?: Ratio;
  /** The destination's internal rate is above the interstate one: else no DIFAL (terms.ts's owesDifal). */
  owesDifal: boolean;
}

const one = Exact.of(1);
/** Rows are prepared on first use and dropped with their table. */
const prepared = new WeakMap<TaxRule, PreparedRule>();

function attempt<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    // A division by zero (a destination rate of 100%): the fractions' path raises it where it applies.
    return undefined;
  }
}

function prepare(rule: TaxRule): PreparedRule {
  const kept = one.minus(percent(rule.icmsBaseReduction));
  const st = (interstate: boolean): PreparedRule['stInside'] =>
    attempt(() => {
      const mva = appliedMva(rule, interstate);
      return { factor: mva.plus(1).times(kept).ratio(), mva: rateText(mva) };
    });
  return {
    ipi: percent(rule.ipiRate).ratio(),
    icms: percent(rule.icmsRate).ratio(),
    kept: kept.ratio(),
    destination: percent(rule.destinationRate).ratio(),
    fcp: percent(rule.fcpRate).ratio(),
    underSt: percent(rule.mva).gt(0),
    stInside: st(false),
    stBetween: st(true),
    grossUp: attempt(() => destinationBaseShare(rule).ratio()),
    owesDifal: owesDifal(rule),
  };
}

/** The row's fixed parts, worked out on first use. */
export function preparedRule(rule: TaxRule): PreparedRule {
  let row = prepared.get(rule);
  if (row === undefined) {
    row = prepare(rule);
    prepared.set(rule, row);
  }
  return row;
}

/**
 * The gross value (quantity × unit price, rounded half to even, as terms.ts's grossValue) − discount, in centavos,
 * rounded half to even where the discount has more than 2 decimals; NaN when it does not fit.
 */
function merchandiseOf(item: TaxItem): number {
  const price = scaledOf(item.unitPrice);
  const quantity = scaledOf(String(item.quantity));
  const discount = scaledOf(item.discount ?? '0');
  const gross = centavosOf({ whole: product(price.whole, quantity.whole), scale: price.scale + quantity.scale });
  const scale = Math.max(2, discount.scale);
  return centavosOf({ whole: sum(rescaled({ whole: gross, scale: 2 }, scale), -rescaled(discount, scale)), scale });
}

/** An item's taxes in whole centavos; the optional parts as the sale calls for them. */
export interface CentavoTaxes {
  merchandise: number;
  /** The merchandise and the freight share: the base of IPI. */
  operation: number;
  ipi: number;
  icmsBase: number;
  icms: number;
  st?: { base: number; value: number; mva: string };
  /** The double base of DIFAL and FCP. */
  destinationBase?: number;
  difal?: number;
  fcp?: number;
  added: number;
}

/**
 * The taxes of an item in whole centavos from its merchandise and freight share (both in centavos) under a prepared
 * row; undefined when the row or any value does not fit safe integers, for the fractions' path.
 */
export function centavoTaxes(
  row: PreparedRule,
  merchandise: number,
  freight: number,
  sale: TaxSale,
): CentavoTaxes | undefined {
  const { ipi, icms, kept, destination, fcp } = row;
  if (!ipi || !icms || !kept || !destination || !fcp) return undefined;
  const operation = sum(merchandise, freight);
  const ipiValue = applied(operation, ipi);
  const icmsBase = applied(sale.buyer === 'non-taxpayer' ? sum(operation, ipiValue) : operation, kept);
  const icmsValue = applied(icmsBase, icms);
  const taxes: CentavoTaxes = { merchandise, operation, ipi: ipiValue, icmsBase, icms: icmsValue, added: ipiValue };
  let checked = merchandise + operation + ipiValue + icmsBase + icmsValue;
  if (sale.buyer === 'taxpayer' && row.underSt) {
    const st = sale.interstate ? row.stBetween : row.stInside;
    if (st?.factor === undefined) return undefined;
    const stBase = applied(sum(operation, ipiValue), st.factor);
    // Rounded once (NBR 5891): the NF-e has no field for the ST debit, only for the value due (vICMSST).
    const stValue = Math.max(0, appliedLess(stBase, destination, icmsValue));
    checked += stBase + stValue;
    taxes.st = { base: stBase, value: stValue, mva: st.mva };
    taxes.added = sum(taxes.added, stValue);
  }
  if (sale.buyer === 'non-taxpayer' && sale.interstate) {
    if (row.grossUp === undefined) return undefined;
    // From the value before the origin's reduction (a non-taxpayer's: operation and IPI), as compute.ts.
    const destinationBase = applied(sum(sum(operation, ipiValue), -icmsValue), row.grossUp);
    const difalValue = row.owesDifal ? Math.max(0, appliedLess(destinationBase, destination, icmsValue)) : 0;
    const fcpValue = applied(destinationBase, fcp);
    checked += destinationBase + difalValue + fcpValue;
    taxes.destinationBase = destinationBase;
    taxes.difal = difalValue;
    taxes.fcp = fcpValue;
  }
  // NaN anywhere above (a value that did not fit) makes the sum NaN: one check for the whole item.
  return Number.isNaN(checked + taxes.added) ? undefined : taxes;
}

/** The item's taxes in safe integers, or undefined for the fractions' path. */
export function fastItemTaxes(item: TaxItem, rule: TaxRule, sale: TaxSale): ItemTaxes | undefined {
  // The freight share rounded to centavos (vFrete) before any base, as terms.ts's freightShare rounds it.
  const freight = centavosOf(scaledOf(item.freight ?? '0'));
  const taxes = centavoTaxes(preparedRule(rule), merchandiseOf(item), freight, sale);
  if (taxes === undefined) return undefined;
  const ipi = { base: moneyText(taxes.operation), rate: rule.ipiRate, value: moneyText(taxes.ipi) };
  const icms = { base: moneyText(taxes.icmsBase), rate: rule.icmsRate, value: moneyText(taxes.icms) };
  // Two literal shapes rather than a spread: a spread builds each item's object on V8's slow path.
  const answer: ItemTaxes =
    item.sku === undefined
      ? { ncm: item.ncm, merchandise: moneyText(taxes.merchandise), ipi, icms, added: '' }
      : { sku: item.sku, ncm: item.ncm, merchandise: moneyText(taxes.merchandise), ipi, icms, added: '' };
  if (taxes.st !== undefined)
    answer.icmsSt = {
      base: moneyText(taxes.st.base),
      rate: rule.destinationRate,
      value: moneyText(taxes.st.value),
      mva: taxes.st.mva,
    };
  if (taxes.destinationBase !== undefined) {
    const base = moneyText(taxes.destinationBase);
    answer.difal = { base, rate: rule.destinationRate, value: moneyText(taxes.difal as number) };
    answer.fcp = { base, rate: rule.fcpRate, value: moneyText(taxes.fcp as number) };
  }
  answer.added = moneyText(taxes.added);
  return answer;
}
