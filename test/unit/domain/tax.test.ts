/** The worked examples of docs/tax.md, each to the centavo, and the table's rules at their edges. */
import { describe, expect, it } from 'vitest';
import { computeItemTaxes, exactItemTaxes, taxTotals } from '../../../src/domain/tax/compute.js';
import { appliedMva, type TaxItem } from '../../../src/domain/tax/terms.js';
import { checkTaxRule, TaxTable, type TaxRule } from '../../../src/domain/tax/rules.js';
import { Exact } from '../../../src/domain/tax/exact.js';
import { seededRandom } from '../../support/seeded-text.js';
import { workedExample2, workedExample3, workedExample6 } from '../../support/tax-examples.js';

function rule(values: Record<string, string>): TaxRule {
  const checked = checkTaxRule({
    ncm: '84',
    from: 'SP',
    to: 'SP',
    buyer: 'taxpayer',
    icmsRate: '0',
    ipiRate: '0',
    ...values,
  });
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.rule;
}

describe('the worked examples of docs/tax.md', () => {
  it('1. inside São Paulo to a taxpayer: IPI out of the ICMS base', () => {
    const item: TaxItem = { ncm: '84713012', quantity: 2, unitPrice: '1500.00', discount: '100.00', freight: '50.00' };
    expect(
      computeItemTaxes(item, rule({ icmsRate: '18', ipiRate: '10' }), { buyer: 'taxpayer', interstate: false }),
    ).toEqual({
      ncm: '84713012',
      merchandise: '2900.00',
      ipi: { base: '2950.00', rate: '10', value: '295.00' },
      icms: { base: '2950.00', rate: '18', value: '531.00' },
      added: '295.00',
    });
  });

  it('2. São Paulo to a taxpayer in Rio de Janeiro under ICMS-ST, with the adjusted MVA', () => {
    const item: TaxItem = { ncm: '39269090', quantity: 10, unitPrice: '45.90', freight: '12.00' };
    const row = rule({ to: 'RJ', icmsRate: '12', ipiRate: '6.5', mva: '40', destinationRate: '20' });
    expect(computeItemTaxes(item, row, { buyer: 'taxpayer', interstate: true })).toEqual(workedExample2);
  });

  it('3. São Paulo to a final consumer in Minas Gerais: DIFAL on the double base, and FCP', () => {
    const item: TaxItem = { ncm: '85166000', quantity: 1, unitPrice: '2000.00', freight: '100.00' };
    const row = rule({
      to: 'MG',
      buyer: 'non-taxpayer',
      icmsRate: '12',
      ipiRate: '5',
      destinationRate: '18',
      fcpRate: '2',
    });
    expect(computeItemTaxes(item, row, { buyer: 'non-taxpayer', interstate: true })).toEqual(workedExample3);
  });

  it('4. a base reduction of 33.33%', () => {
    const item: TaxItem = { ncm: '84596100', quantity: 1, unitPrice: '10000.00' };
    const taxes = computeItemTaxes(item, rule({ icmsRate: '18', icmsBaseReduction: '33.33' }), {
      buyer: 'taxpayer',
      interstate: false,
    });
    expect(taxes.icms).toEqual({ base: '6667.00', rate: '18', value: '1200.06' });
    expect(taxes.added).toBe('0.00');
  });

  it('5. the longest NCM prefix wins; an NCM without a row finds none', () => {
    const table = new TaxTable();
    table.add(rule({ ncm: '8471', to: 'RJ', icmsRate: '12' }));
    table.add(rule({ ncm: '8471.30.12', to: 'RJ', icmsRate: '4' }));
    const key = { from: 'SP', to: 'RJ', buyer: 'taxpayer' } as const;
    expect(table.find({ ...key, ncm: '8471.30.12' })?.icmsRate).toBe('4');
    expect(table.find({ ...key, ncm: '84713019' })?.icmsRate).toBe('12');
    expect(table.find({ ...key, ncm: '85176255' })).toBeUndefined();
    expect(table.find({ ...key, buyer: 'non-taxpayer', ncm: '84713012' })).toBeUndefined();
  });

  it('6. a price with a third decimal: the gross value (vProd) is rounded before the discount comes off', () => {
    const item: TaxItem = { ncm: '39269090', quantity: 1235, unitPrice: '0.387', discount: '12.35', freight: '15.00' };
    const row = rule({ to: 'RJ', icmsRate: '12', ipiRate: '6.5', mva: '40', destinationRate: '20' });
    const sale = { buyer: 'taxpayer', interstate: true } as const;
    expect(computeItemTaxes(item, row, sale)).toEqual(workedExample6);
    // The fractions' path, which a larger amount takes, rounds the gross value the same way.
    expect(exactItemTaxes(item, row, sale)).toEqual(workedExample6);
  });
});

/** The IPI of one unit at 50%: half its price, rounded to centavos. */
function half(unitPrice: string): string {
  return computeItemTaxes({ ncm: '84', quantity: 1, unitPrice }, rule({ ipiRate: '50' }), {
    buyer: 'taxpayer',
    interstate: false,
  }).ipi.value;
}

describe('the arithmetic at its edges', () => {
  it('rounds each value once, half to even (NBR 5891)', () => {
    expect(half('0.25')).toBe('0.12');
    expect(half('0.35')).toBe('0.18');
    expect(half('0.27')).toBe('0.14');
  });

  it('computes without binary floating point: 0.1 + 0.2 of freight is 0.30', () => {
    const taxes = computeItemTaxes({ ncm: '84', quantity: 3, unitPrice: '0.1', freight: '0.2' }, rule({}), {
      buyer: 'taxpayer',
      interstate: false,
    });
    expect(taxes.ipi.base).toBe('0.50');
  });

  it('keeps the original MVA inside a state and adjusts it between states', () => {
    const row = { mva: '40', icmsRate: '12', destinationRate: '20' };
    expect(appliedMva(row, false).toString()).toBe('0.4');
    expect(appliedMva(row, true).toString()).toBe('0.54');
    expect(appliedMva({ mva: '35', icmsRate: '7', destinationRate: '18' }, true).toDecimalPlaces(6).toString()).toBe(
      '0.531098',
    );
  });

  it('never gives a negative ST or DIFAL where the own ICMS already covers the destination rate', () => {
    const st = computeItemTaxes(
      { ncm: '84', quantity: 1, unitPrice: '100' },
      rule({ to: 'RJ', icmsRate: '12', mva: '1', destinationRate: '7' }),
      {
        buyer: 'taxpayer',
        interstate: true,
      },
    );
    expect(st.icmsSt?.value).toBe('0.00');
    const difal = computeItemTaxes(
      { ncm: '84', quantity: 1, unitPrice: '100' },
      rule({ to: 'RJ', buyer: 'non-taxpayer', icmsRate: '12', destinationRate: '7' }),
      { buyer: 'non-taxpayer', interstate: true },
    );
    expect(difal.difal?.value).toBe('0.00');
  });

  // A user test: 12% to 12% answered a DIFAL of 0.01 from a double base a centavo above the operation.
  it('gives no DIFAL where the destination rate equals the interstate one, on both paths', () => {
    const row = rule({ to: 'PR', buyer: 'non-taxpayer', icmsRate: '12', destinationRate: '12' });
    const sale = { buyer: 'non-taxpayer', interstate: true } as const;
    const item: TaxItem = { ncm: '22021000', quantity: 1, unitPrice: '2.04' };
    for (const taxes of [computeItemTaxes(item, row, sale), exactItemTaxes(item, row, sale)])
      expect(taxes.difal).toEqual({ base: '2.05', rate: '12', value: '0.00' });
  });

  // A user test: the ST debit (vBCST × rate, no NF-e field) was rounded before the own ICMS came off, a centavo off
  // the value rounded once on a tie under half to even: 0.8550 − 0.61 = 0.2450 → 0.24 (was 0.86 − 0.61 = 0.25).
  it('rounds the ICMS-ST due once, after the own ICMS comes off, on both paths', () => {
    const row = rule({ ncm: '22021000', icmsRate: '18', mva: '40', destinationRate: '18' });
    const sale = { buyer: 'taxpayer', interstate: false } as const;
    const cases = [
      { unitPrice: '3.39', icms: '0.61', st: { base: '4.75', rate: '18', value: '0.24', mva: '40' } },
      { unitPrice: '1.61', icms: '0.29', st: { base: '2.25', rate: '18', value: '0.12', mva: '40' } },
    ];
    for (const { unitPrice, icms, st } of cases) {
      const item: TaxItem = { ncm: '22021000', quantity: 1, unitPrice };
      for (const taxes of [computeItemTaxes(item, row, sale), exactItemTaxes(item, row, sale)]) {
        expect(taxes.icms.value).toBe(icms);
        expect(taxes.icmsSt).toEqual(st);
      }
    }
  });

  // A user test: a Convênio ICMS 52/91 machine (8.80% in both operations) was given a DIFAL where none is owed.
  it('takes the DIFAL on the destination’s own load (docs/tax.md, example 7), on both paths', () => {
    const sale = { buyer: 'non-taxpayer', interstate: true } as const;
    const item: TaxItem = { ncm: '84596100', quantity: 1, unitPrice: '10000' };
    const machine = { ncm: '84596100', to: 'MG', buyer: 'non-taxpayer', icmsRate: '12', destinationRate: '18' };
    const cases = [
      [{ icmsBaseReduction: '26.6667', destinationBaseReduction: '51.1111' }, '4888.89', '0.00'],
      [{ icmsBaseReduction: '26.67', destinationBaseReduction: '51.11' }, '4889.03', '0.07'],
      [{ icmsBaseReduction: '26.67' }, '7704.70', '506.89'],
      [{ icmsBaseReduction: '26.67', destinationBaseReduction: '0' }, '11122.00', '1122.00'],
    ] as const;
    for (const [reductions, base, value] of cases) {
      const row = rule({ ...machine, ...reductions });
      for (const taxes of [computeItemTaxes(item, row, sale), exactItemTaxes(item, row, sale)])
        expect({ reductions, difal: taxes.difal }).toEqual({ reductions, difal: { base, rate: '18', value } });
    }
  });

  it('adds up a cart per tax', () => {
    const row = rule({ icmsRate: '18', ipiRate: '10' });
    const sale = { buyer: 'taxpayer', interstate: false } as const;
    const items = [
      computeItemTaxes({ ncm: '84', quantity: 1, unitPrice: '10.05' }, row, sale),
      computeItemTaxes({ ncm: '84', quantity: 1, unitPrice: '20.05' }, row, sale),
    ];
    expect(taxTotals(items)).toEqual({
      merchandise: '30.10',
      ipi: '3.00',
      icms: '5.42',
      icmsSt: '0.00',
      difal: '0.00',
      fcp: '0.00',
      added: '3.00',
    });
  });

  it('adds up in whole centavos exactly what exact fractions add up, over random carts (negatives and 0.01s too)', () => {
    const random = seededRandom(37);
    const money = () =>
      `${random() < 0.1 ? '-' : ''}${Math.floor(random() * 100_000)}.${String(Math.floor(random() * 100)).padStart(2, '0')}`;
    for (let cart = 0; cart < 200; cart++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 60) }, () => ({
        ncm: '84',
        merchandise: money(),
        ipi: { base: '0.00', rate: '0', value: money() },
        icms: { base: '0.00', rate: '0', value: money() },
        ...(random() < 0.5 ? { icmsSt: { base: '0.00', rate: '0', value: money(), mva: '0' } } : {}),
        added: money(),
      }));
      const bySum = (pick: (item: (typeof items)[number]) => string | undefined) =>
        items.reduce((total, item) => total.plus(pick(item) ?? '0'), Exact.of(0)).toFixed(2);
      expect(taxTotals(items)).toEqual({
        merchandise: bySum((item) => item.merchandise),
        ipi: bySum((item) => item.ipi.value),
        icms: bySum((item) => item.icms.value),
        icmsSt: bySum((item) => item.icmsSt?.value),
        difal: '0.00',
        fcp: '0.00',
        added: bySum((item) => item.added),
      });
    }
  });
});

describe('checkTaxRule', () => {
  it('reads a row as an ERP writes it: dots in the NCM, a decimal comma, lower-case states, empty rates', () => {
    expect(
      checkTaxRule({
        ncm: '8471.30.12',
        from: 'sp',
        to: 'rj',
        buyer: 'Taxpayer',
        icmsRate: '12',
        ipiRate: '4,5',
        mva: '',
      }),
    ).toEqual({
      ok: true,
      rule: {
        ncm: '84713012',
        from: 'SP',
        to: 'RJ',
        buyer: 'taxpayer',
        icmsRate: '12',
        icmsBaseReduction: '0',
        ipiRate: '4.5',
        mva: '0',
        destinationRate: '0',
        fcpRate: '0',
      },
    });
  });

  it.each([
    ['Sim', 'taxpayer'],
    ['contribuinte', 'taxpayer'],
    ['NÃO', 'non-taxpayer'],
    ['Não contribuinte', 'non-taxpayer'],
    ['0', 'non-taxpayer'],
  ])('reads the buyer %j as %s', (written, buyer) => {
    const checked = checkTaxRule({ ncm: '84', from: 'SP', to: 'SP', buyer: written, icmsRate: '18', ipiRate: '0' });
    expect(checked.ok && checked.rule.buyer).toBe(buyer);
  });

  it.each([
    ['8471', undefined],
    ['8471.3', undefined],
    [
      '84713',
      'has 5 digits: a leading zero was probably lost in a spreadsheet (084713); store the column as text. If it is a first-level subheading (an NCM level of 5 digits), write it with its dots: 8471.3',
    ],
    ['04021', undefined],
    ['8471.30.1', undefined],
    ['0402101', undefined],
    [
      '4021010',
      'has 7 digits: a leading zero was probably lost in a spreadsheet (04021010); store the column as text. If it is an item (an NCM level of 7 digits), write it with its dots: 4021.01.0',
    ],
    [
      '402',
      'has 3 digits, which no NCM level has: a leading zero was probably lost in a spreadsheet (0402); store the column as text',
    ],
    ['040210', undefined],
    ['04021010', undefined],
    ['8471.30', undefined],
    ['8471.30.12', undefined],
    // A pt-BR spreadsheet's number with its thousands grouped: the item 0402.10.1 that lost its zero, which would
    // read as a 6-digit subheading and leave its carts to the chapter's row.
    [
      '402.101',
      "has its dots where an NCM has none (an NCM is written 8471.30.12: 4 digits, then 2, then 2), as a spreadsheet groups a number's thousands (402.101 is the number 402101); a leading zero was probably lost too (0402101): store the column as text and write the NCM again",
    ],
    [
      '84.713.012',
      "has its dots where an NCM has none (an NCM is written 8471.30.12: 4 digits, then 2, then 2), as a spreadsheet groups a number's thousands (84.713.012 is the number 84713012): store the column as text and write the NCM again",
    ],
  ])('the NCM %j: a level, or a lost leading zero (%s)', (ncm, problem) => {
    const checked = checkTaxRule({ ncm, from: 'SP', to: 'SP', buyer: 'taxpayer', icmsRate: '18', ipiRate: '0' });
    const outcome = checked.ok ? { ncm: checked.rule.ncm } : checked.problems;
    expect(outcome).toEqual(
      problem === undefined ? { ncm: ncm.replaceAll('.', '') } : [{ field: 'ncm', message: problem }],
    );
  });

  it('names every wrong field', () => {
    const checked = checkTaxRule({ ncm: '8', from: 'XX', to: 'RJ', buyer: 'consumer', icmsRate: '118', ipiRate: '-1' });
    expect(checked).toEqual({
      ok: false,
      problems: [
        { field: 'ncm', message: 'must be 2 to 8 digits (an NCM or its prefix)' },
        { field: 'from', message: 'must be a state (UF) such as SP' },
        { field: 'buyer', message: 'must be taxpayer or non-taxpayer (contribuinte: sim or não)' },
        { field: 'icmsRate', message: 'must be a percentage such as 18 or 4.5, at most 100' },
        { field: 'ipiRate', message: 'must be a percentage such as 18 or 4.5, at most 100' },
      ],
    });
  });

  it('a repeated row is reported by the table, and the first kept', () => {
    const table = new TaxTable();
    expect(table.add(rule({ icmsRate: '18' }))).toBeUndefined();
    expect(table.add(rule({ icmsRate: '12' }))?.icmsRate).toBe('18');
    expect(table.size).toBe(1);
  });
});

describe('TaxTable.find', () => {
  it('finds the longest prefix, as a scan of every row would, over random tables and NCMs', () => {
    const random = seededRandom(2026);
    const digits = (length: number) => Array.from({ length }, () => String(Math.floor(random() * 3))).join('');
    for (let round = 0; round < 200; round++) {
      const table = new TaxTable();
      const rows: TaxRule[] = [];
      // Few prefix lengths per table (those of the NCM levels, and 7), so that the lengths it skips are exercised too.
      const lengths = [2, 4, 6, 7, 8].filter(() => random() < 0.4);
      for (let row = 0; row < 30 && lengths.length > 0; row++) {
        const prefix = digits(lengths[Math.floor(random() * lengths.length)] as number);
        const candidate = rule({
          // An item (7 digits) is written with its dots: bare, it reads as an NCM that lost its leading zero.
          ncm: prefix.length === 7 ? `${prefix.slice(0, 4)}.${prefix.slice(4, 6)}.${prefix.slice(6)}` : prefix,
          to: random() < 0.5 ? 'SP' : 'RJ',
          icmsRate: String(row),
        });
        if (table.add(candidate) === undefined) rows.push(candidate);
      }
      for (let probe = 0; probe < 50; probe++) {
        const ncm = digits(8);
        const to = random() < 0.5 ? 'SP' : 'RJ';
        const longest = rows
          .filter((row) => row.to === to && ncm.startsWith(row.ncm))
          .toSorted((left, right) => right.ncm.length - left.ncm.length)[0];
        const dotted = `${ncm.slice(0, 4)}.${ncm.slice(4, 6)}.${ncm.slice(6)}`;
        expect(table.find({ ncm: dotted, from: 'SP', to, buyer: 'taxpayer' })).toBe(longest);
        expect(table.finderFor({ from: 'SP', to, buyer: 'taxpayer' })(ncm)).toBe(longest);
      }
      expect(table.find({ ncm: '84713012', from: 'SP', to: 'SP', buyer: 'non-taxpayer' })).toBeUndefined();
      expect(table.size).toBe(rows.length);
    }
  });
});
