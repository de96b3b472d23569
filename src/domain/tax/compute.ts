/**
 * The taxes of one sale item from its row of the tax table: IPI, the seller's own ICMS, ICMS-ST with the adjusted
 * MVA between states, and DIFAL with FCP for a final consumer in another state. Exact arithmetic: whole centavos in
 * safe integers where every step fits (fast-taxes.ts), else BigInt fractions (exact.ts); each value rounded to
 * centavos once, half to even (ABNT NBR 5891). Formulas and sources: docs/tax.md. Pure.
 */
import { Exact } from './exact.js';
import { fastItemTaxes } from './fast-taxes.js';
import type { TaxRule } from './rules.js';
import {
  appliedMva,
  destinationBaseShare,
  freightShare,
  grossValue,
  type ItemTaxes,
  owesDifal,
  percent,
  rateText,
  type TaxItem,
  type TaxSale,
} from './terms.js';
import { centavosOf, moneyText, scaledOf, sum as safeSum } from './scaled.js';

const one = Exact.of(1);
const centavos = (value: Exact): Exact => value.centavos();
const money = (value: Exact): string => value.toFixed(2);

/** The taxes of one item under its rule. */
export function computeItemTaxes(item: TaxItem, rule: TaxRule, sale: TaxSale): ItemTaxes {
  return fastItemTaxes(item, rule, sale) ?? exactItemTaxes(item, rule, sale);
}

/** The same taxes in BigInt fractions only: the path for amounts or rates too large for safe integers. */
export function exactItemTaxes(item: TaxItem, rule: TaxRule, sale: TaxSale): ItemTaxes {
  const merchandise = centavos(grossValue(item.quantity, item.unitPrice).minus(item.discount ?? '0'));
  const operation = merchandise.plus(freightShare(item.freight));
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
    // Rounded once (NBR 5891): the NF-e has no field for the ST debit, only for the value due (vICMSST).
    const stValue = Exact.max(0, centavos(stBase.times(destinationRate).minus(icmsValue)));
    taxes.icmsSt = { base: money(stBase), rate: rule.destinationRate, value: money(stValue), mva: mvaText };
    added = added.plus(stValue);
  }
  if (sale.buyer === 'non-taxpayer' && sale.interstate) {
    // Double base: the value without the origin's ICMS, grossed up by the destination's load and reduced as its
    // internal operation is (destinationBaseShare); the value before the origin's reduction, as the destination's.
    const destinationBase = centavos(operation.plus(ipiValue).minus(icmsValue).times(destinationBaseShare(rule)));
    const difalValue = owesDifal(rule)
      ? Exact.max(0, centavos(destinationBase.times(destinationRate).minus(icmsValue)))
      : Exact.of(0);
    const fcpValue = centavos(destinationBase.times(percent(rule.fcpRate)));
    taxes.difal = { base: money(destinationBase), rate: rule.destinationRate, value: money(difalValue) };
    taxes.fcp = { base: money(destinationBase), rate: rule.fcpRate, value: money(fcpValue) };
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
