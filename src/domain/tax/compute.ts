/**
 * The taxes of one sale item from its row of the tax table: IPI, the seller's own ICMS, ICMS-ST with the adjusted
 * MVA between states, and DIFAL with FCP for a final consumer in another state. Exact arithmetic: whole centavos in
 * safe integers where every step fits (fast-taxes.ts), else BigInt fractions (exact.ts); each value rounded to
 * centavos once, half to even (ABNT NBR 5891). Formulas and sources: docs/tax.md. Pure.
 */
import { Exact } from './exact.js';
import { fastItemTaxes } from './fast-taxes.js';
import type { BuyerKind, TaxRule } from './rules.js';
import { centavosOf, moneyText, scaledOf, sum as safeSum } from './scaled.js';

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
  /** Quantity × unit price − discount. */
  merchandise: string;
  ipi: TaxLine;
  icms: TaxLine;
  /** Only for a taxpayer buyer of a product with an MVA: the substitution's base, the MVA applied and the value due. */
  icmsSt?: TaxLine & { mva: string };
  /** Only for a non-taxpayer buyer in another state: the share due to the destination (base, internal rate, value). */
  difal?: TaxLine;
  fcp?: TaxLine;
  /** Every tax the item adds over its merchandise and freight: IPI, ICMS-ST, DIFAL and FCP (own ICMS is inside the price). */
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
const centavos = (value: Exact): Exact => value.centavos();
const money = (value: Exact): string => value.toFixed(2);
/** A fraction as a percentage's text, to 4 decimals (the MVA applied). */
export const rateText = (rate: Exact): string => rate.times(100).toDecimalPlaces(4).toString();

/** The taxes of one item under its rule. */
export function computeItemTaxes(item: TaxItem, rule: TaxRule, sale: TaxSale): ItemTaxes {
  return fastItemTaxes(item, rule, sale) ?? exactItemTaxes(item, rule, sale);
}

/** The same taxes in BigInt fractions only: the path for amounts or rates too large for safe integers. */
export function exactItemTaxes(item: TaxItem, rule: TaxRule, sale: TaxSale): ItemTaxes {
  const merchandise = centavos(
    Exact.of(item.unitPrice)
      .times(item.quantity)
      .minus(item.discount ?? '0'),
  );
  const operation = merchandise.plus(item.freight ?? '0');
  const reduction = one.minus(percent(rule.icmsBaseReduction));
  const ipiValue = centavos(operation.times(percent(rule.ipiRate)));
  // IPI is part of the ICMS base unless the buyer resells or industrialises (a taxpayer here).
  const icmsBase = centavos(operation.plus(sale.buyer === 'non-taxpayer' ? ipiValue : 0).times(reduction));
  const icmsValue = centavos(icmsBase.times(percent(rule.icmsRate)));
  const destinationRate = percent(rule.destinationRate);
  const taxes: ItemTaxes = {
    ...(item.sku === undefined ? {} : { sku: item.sku }),
    ncm: item.ncm,
    merchandise: money(merchandise),
    ipi: { base: money(operation), rate: rule.ipiRate, value: money(ipiValue) },
    icms: { base: money(icmsBase), rate: rule.icmsRate, value: money(icmsValue) },
    added: '',
  };
  let added = ipiValue;
  if (sale.buyer === 'taxpayer' && percent(rule.mva).gt(0)) {
    const { mva, text: mvaText } = mvaOf(rule, sale.interstate);
    const stBase = centavos(operation.plus(ipiValue).times(mva.plus(1)).times(reduction));
    const stValue = Exact.max(0, centavos(stBase.times(destinationRate)).minus(icmsValue));
    taxes.icmsSt = { base: money(stBase), rate: rule.destinationRate, value: money(stValue), mva: mvaText };
    added = added.plus(stValue);
  }
  if (sale.buyer === 'non-taxpayer' && sale.interstate) {
    // Double base: the value without the origin's ICMS, grossed up by the destination's internal rate.
    const destinationBase = centavos(icmsBase.minus(icmsValue).div(one.minus(destinationRate)));
    const difalValue = Exact.max(0, centavos(destinationBase.times(destinationRate)).minus(icmsValue));
    const fcpValue = centavos(destinationBase.times(percent(rule.fcpRate)));
    taxes.difal = { base: money(destinationBase), rate: rule.destinationRate, value: money(difalValue) };
    taxes.fcp = { base: money(destinationBase), rate: rule.fcpRate, value: money(fcpValue) };
    added = added.plus(difalValue).plus(fcpValue);
  }
  taxes.added = money(added);
  return taxes;
}

/** A table's rows repeat a few MVAs and rates: each applied MVA (and its text) is worked out once. */
const appliedMvas = new Map<string, { mva: Exact; text: string }>();
function mvaOf(rule: TaxRule, interstate: boolean): { mva: Exact; text: string } {
  const key = `${rule.mva}|${rule.icmsRate}|${rule.destinationRate}|${interstate}`;
  let applied = appliedMvas.get(key);
  if (applied === undefined) {
    const mva = appliedMva(rule, interstate);
    applied = { mva, text: rateText(mva) };
    if (appliedMvas.size < 10_000) appliedMvas.set(key, applied);
  }
  return applied;
}

/**
 * The MVA applied: the original inside a state; between states the adjusted one, which keeps the burden of a
 * product bought in another state equal to one bought inside: (1 + MVA) × (1 − interstate) / (1 − internal) − 1.
 */
export function appliedMva(rule: Pick<TaxRule, 'mva' | 'icmsRate' | 'destinationRate'>, interstate: boolean): Exact {
  const original = percent(rule.mva);
  if (!interstate) return original;
  return original
    .plus(1)
    .times(one.minus(percent(rule.icmsRate)))
    .div(one.minus(percent(rule.destinationRate)))
    .minus(1);
}

/** The sums of a cart's items, per tax. */
export function taxTotals(
  items: readonly ItemTaxes[],
): Record<'merchandise' | 'ipi' | 'icms' | 'icmsSt' | 'difal' | 'fcp' | 'added', string> {
  const sum = (pick: (item: ItemTaxes) => string | undefined): string => {
    // Centavos in safe integers, as the items were computed; BigInt fractions when a total is larger.
    let total = 0;
    for (const item of items) {
      total = safeSum(total, centavosOf(scaledOf(pick(item) ?? '0')));
    }
    if (!Number.isNaN(total)) return moneyText(total);
    return money(items.reduce((exact, item) => exact.plus(pick(item) ?? '0'), Exact.of(0)));
  };
  return {
    merchandise: sum((item) => item.merchandise),
    ipi: sum((item) => item.ipi.value),
    icms: sum((item) => item.icms.value),
    icmsSt: sum((item) => item.icmsSt?.value),
    difal: sum((item) => item.difal?.value),
    fcp: sum((item) => item.fcp?.value),
    added: sum((item) => item.added),
  };
}
