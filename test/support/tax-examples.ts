/** The taxes of docs/tax.md's worked examples 2, 3 and 6, to the centavo: one source for every test that checks them. */
import type { ItemTaxes } from '../../src/domain/tax/terms.js';

/** Example 2: 10 × R$ 45.90 of NCM 3926.90.90 from SP to a taxpayer in RJ, freight R$ 12.00, under ICMS-ST. */
export const workedExample2: ItemTaxes = {
  ncm: '39269090',
  merchandise: '459.00',
  ipi: { base: '471.00', rate: '6.5', value: '30.62' },
  icms: { base: '471.00', rate: '12', value: '56.52' },
  icmsSt: { base: '772.49', rate: '20', value: '97.98', mva: '54' },
  added: '128.60',
};

/** Example 3: 1 × R$ 2,000.00 of NCM 8516.60.00 from SP to a final consumer in MG, freight R$ 100.00. */
export const workedExample3: ItemTaxes = {
  ncm: '85166000',
  merchandise: '2000.00',
  ipi: { base: '2100.00', rate: '5', value: '105.00' },
  icms: { base: '2205.00', rate: '12', value: '264.60' },
  difal: { base: '2366.34', rate: '18', value: '161.34' },
  fcp: { base: '2366.34', rate: '2', value: '47.33' },
  added: '105.00',
};

/**
 * Example 6: 1,235 × R$ 0.387 of NCM 3926.90.90 from SP to a taxpayer in RJ, discount R$ 12.35, freight R$ 15.00:
 * the gross value 477.945 is 477.94 before the discount comes off (465.595 rounded after it would be 465.60).
 */
export const workedExample6: ItemTaxes = {
  ncm: '39269090',
  merchandise: '465.59',
  ipi: { base: '480.59', rate: '6.5', value: '31.24' },
  icms: { base: '480.59', rate: '12', value: '57.67' },
  icmsSt: { base: '788.22', rate: '20', value: '99.97', mva: '54' },
  added: '131.21',
};
