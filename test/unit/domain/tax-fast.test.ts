/**
 * The two paths of the tax arithmetic held to decimal.js (the reference) on random items and rows: whole centavos
 * in safe integers where every step fits, BigInt fractions where one does not (large amounts, quantities with many
 * decimals, rates whose fractions grow). Both paths must be taken often.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { computeItemTaxes, exactItemTaxes, taxTotals } from '../../../src/domain/tax/compute.js';
import type { ItemTaxes, TaxItem } from '../../../src/domain/tax/terms.js';
import { fastItemTaxes } from '../../../src/domain/tax/fast-taxes.js';
import { checkTaxRule, type BuyerKind, type TaxRule } from '../../../src/domain/tax/rules.js';

const Reference = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_EVEN });
type Value = InstanceType<typeof Reference>;
const cents = (value: Value): Value => value.toDecimalPlaces(2, Decimal.ROUND_HALF_EVEN);
const money = (value: Value): string => cents(value).toFixed(2);
const share = (rate: string): Value => new Reference(rate).div(100);

/** docs/tax.md's formulas written again in decimal.js, dividing last so that an exact half stays exact. */
function referenceTaxes(item: TaxItem, rule: TaxRule, buyer: BuyerKind, interstate: boolean): ItemTaxes {
  // The gross value (an NF-e's vProd) is rounded before the discount comes off (decision 0033).
  const gross = cents(new Reference(item.unitPrice).times(item.quantity));
  const merchandise = cents(gross.minus(item.discount ?? '0'));
  // The freight share is rounded to centavos (an NF-e's vFrete) before any base (a user test).
  const operation = merchandise.plus(cents(new Reference(item.freight ?? '0')));
  const kept = new Reference(1).minus(share(rule.icmsBaseReduction));
  const ipi = cents(operation.times(share(rule.ipiRate)));
  const icmsBase = cents(operation.plus(buyer === 'non-taxpayer' ? ipi : 0).times(kept));
  const icms = cents(icmsBase.times(share(rule.icmsRate)));
  const destination = share(rule.destinationRate);
  const taxes: ItemTaxes = {
    ...(item.sku === undefined ? {} : { sku: item.sku }),
    ncm: item.ncm,
    merchandise: money(merchandise),
    ipi: { base: money(operation), rate: rule.ipiRate, value: money(ipi) },
    icms: { base: money(icmsBase), rate: rule.icmsRate, value: money(icms) },
    added: '',
  };
  let added = ipi;
  if (buyer === 'taxpayer' && share(rule.mva).gt(0)) {
    // Adjusted only where the destination's internal rate is above the interstate one (docs/tax.md, formula 4).
    const adjusted = interstate && destination.gt(share(rule.icmsRate));
    const factor = adjusted
      ? share(rule.mva)
          .plus(1)
          .times(new Reference(1).minus(share(rule.icmsRate)))
          .div(new Reference(1).minus(destination))
      : share(rule.mva).plus(1);
    const stBase = cents(
      adjusted
        ? operation
            .plus(ipi)
            .times(share(rule.mva).plus(1))
            .times(new Reference(1).minus(share(rule.icmsRate)))
            .times(kept)
            .div(new Reference(1).minus(destination))
        : operation.plus(ipi).times(factor).times(kept),
    );
    const st = Reference.max(0, cents(stBase.times(destination).minus(icms)));
    const mva = factor.minus(1).times(100).toDecimalPlaces(4, Decimal.ROUND_HALF_EVEN).toFixed();
    taxes.icmsSt = { base: money(stBase), rate: rule.destinationRate, value: money(st), mva };
    added = added.plus(st);
  }
  if (buyer === 'non-taxpayer' && interstate) {
    // The destination's reduction: its own column, else the row's (docs/tax.md, formula 5).
    const destinationKept = new Reference(1).minus(share(rule.destinationBaseReduction ?? rule.icmsBaseReduction));
    const base = cents(
      operation
        .plus(ipi)
        .minus(icms)
        .times(destinationKept)
        .div(new Reference(1).minus(destination.times(destinationKept))),
    );
    // Equal loads (or the destination's lower) owe no DIFAL, whatever centavo the double base gives (a user test).
    const owed = destination.times(destinationKept).gt(share(rule.icmsRate).times(kept));
    const difal = owed ? Reference.max(0, cents(base.times(destination).minus(icms))) : new Reference(0);
    const fcp = cents(base.times(share(rule.fcpRate)));
    taxes.difal = { base: money(base), rate: rule.destinationRate, value: money(difal) };
    taxes.fcp = { base: money(base), rate: rule.fcpRate, value: money(fcp) };
  }
  taxes.added = money(added);
  return taxes;
}

let seed = 20_261_128;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(choices: readonly T[]): T => choices[Math.floor(random() * choices.length)] as T;
/** An amount of up to `digits` whole digits and up to `decimals` decimals. */
const amount = (digits: number, decimals: number): string =>
  (random() * 10 ** Math.floor(random() * (digits + 1))).toFixed(Math.floor(random() * (decimals + 1)));
/** A percentage as a table writes it: mostly whole or one decimal, sometimes four (fractions that grow). */
const rate = (ceiling: number): string =>
  pick(['0', (random() * ceiling).toFixed(pick([0, 0, 1, 2, 4]))]).replace(/\.?0+$/, '') || '0';

function randomCase(): { item: TaxItem; rule: TaxRule; buyer: BuyerKind; interstate: boolean } {
  const large = random() < 0.25;
  const item: TaxItem = {
    ncm: '84713012',
    quantity: Number(pick([String(1 + Math.floor(random() * 50)), amount(large ? 9 : 3, pick([0, 3, 6]))])) || 1,
    unitPrice: amount(large ? 16 : 5, pick([2, 2, 3, 4])),
    ...(random() < 0.5 ? {} : { discount: amount(large ? 12 : 3, pick([2, 2, 2, 3])) }),
    ...(random() < 0.3 ? {} : { freight: amount(3, pick([2, 2, 2, 4])) }),
  };
  const buyer = pick(['taxpayer', 'non-taxpayer'] as const);
  const checked = checkTaxRule({
    ncm: '8471',
    from: 'SP',
    to: 'RJ',
    buyer,
    icmsRate: rate(30),
    icmsBaseReduction: pick(['', '', rate(70)]),
    ipiRate: rate(20),
    mva: pick(['', rate(150)]),
    destinationRate: rate(99),
    fcpRate: rate(4),
    destinationBaseReduction: pick(['', '', rate(70)]),
  });
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return { item, rule: checked.rule, buyer, interstate: random() < 0.7 };
}

describe('the tax arithmetic in safe integers and its fallback to fractions', () => {
  it('agrees with decimal.js on 5,000 random items, through both paths', () => {
    let fast = 0;
    for (let round = 0; round < 5_000; round++) {
      const { item, rule, buyer, interstate } = randomCase();
      const sale = { buyer, interstate };
      const shown = JSON.stringify({ item, rule, sale });
      const expected = referenceTaxes(item, rule, buyer, interstate);
      const ours = computeItemTaxes(item, rule, sale);
      // The case goes with the figures, so a failure shows which item and row it was.
      expect({ shown, taxes: ours, order: Object.keys(ours) }).toStrictEqual({
        shown,
        taxes: expected,
        order: Object.keys(expected),
      });
      expect({ shown, taxes: exactItemTaxes(item, rule, sale) }).toStrictEqual({ shown, taxes: expected });
      if (fastItemTaxes(item, rule, sale) !== undefined) fast++;
    }
    // Both paths carry a real share of the cases, so each is held to the reference.
    expect(fast).toBeGreaterThan(2_000);
    expect(fast).toBeLessThan(4_500);
  });

  it('totals in safe integers, and in fractions past them, to the centavo', () => {
    for (let round = 0; round < 500; round++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 8) }, () => {
        const { item, rule, buyer, interstate } = randomCase();
        return computeItemTaxes(item, rule, { buyer, interstate });
      });
      const sum = (read: (item: ItemTaxes) => string | undefined): string =>
        items.reduce((total, item) => total.plus(read(item) ?? '0'), new Reference(0)).toFixed(2);
      expect(taxTotals(items)).toEqual({
        merchandise: sum((item) => item.merchandise),
        ipi: sum((item) => item.ipi.value),
        icms: sum((item) => item.icms.value),
        icmsSt: sum((item) => item.icmsSt?.value),
        difal: sum((item) => item.difal?.value),
        fcp: sum((item) => item.fcp?.value),
        added: sum((item) => item.added),
      });
    }
  });

  it('leaves to the fractions what does not fit (a huge price, a 100% rate); a freight of 0.125 is 0.12 on both paths', () => {
    const checked = checkTaxRule({
      ncm: '84',
      from: 'SP',
      to: 'RJ',
      buyer: 'non-taxpayer',
      icmsRate: '12',
      ipiRate: '0',
      destinationRate: '20',
    });
    if (!checked.ok) throw new Error('the row is good');
    // A destination rate of 100 is refused at load (its DIFAL divides by zero); put in by hand, the fractions raise it.
    const rule = { ...checked.rule, destinationRate: '100' };
    const sale = { buyer: 'non-taxpayer', interstate: false } as const;
    const item: TaxItem = { ncm: '84713012', quantity: 3, unitPrice: '12345678901234.56' };
    expect(fastItemTaxes(item, rule, sale)).toBeUndefined();
    const large = computeItemTaxes(item, rule, sale);
    expect(large.merchandise).toBe('37037036703703.68');
    // Three of them pass 2^53 centavos: the totals too are summed in fractions.
    expect(taxTotals([large, large, large]).merchandise).toBe('111111110111111.04');
    const freight: TaxItem = { ncm: '84713012', quantity: 1, unitPrice: '10', freight: '0.125' };
    expect(fastItemTaxes(freight, rule, sale)?.ipi.base).toBe('10.12');
    expect(exactItemTaxes(freight, rule, sale).ipi.base).toBe('10.12');
    expect(() => computeItemTaxes(freight, rule, { ...sale, interstate: true })).toThrow('division by zero');
  });
});
