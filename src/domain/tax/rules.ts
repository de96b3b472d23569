/**
 * The ERP's tax table as b2bctl reads it: one row per NCM (or NCM prefix), origin state, destination state and
 * kind of buyer, with the rates that apply. Pure: checking a row and finding the row for an item. docs/tax.md.
 */
import { isFederativeUnit, type FederativeUnit } from '../brazil-codes.js';

/** Who buys: an ICMS taxpayer (resale, industry), or a final consumer who does not pay ICMS. */
export const buyerKinds = ['taxpayer', 'non-taxpayer'] as const;
export type BuyerKind = (typeof buyerKinds)[number];

/** One row of the table. Rates are percentages as written (`18`, `4.5`), kept as text so no digit is lost. */
export interface TaxRule {
  /** 2 to 8 digits: the whole NCM, or a prefix (a chapter `84`, a heading `8471`); the longest prefix wins. */
  ncm: string;
  from: FederativeUnit;
  to: FederativeUnit;
  buyer: BuyerKind;
  /** The ICMS rate of this operation: the origin's internal rate, or the interstate rate (4, 7 or 12). */
  icmsRate: string;
  /** The share of the ICMS base left out (a base reduction of 33.33 taxes 66.67% of the value). */
  icmsBaseReduction: string;
  ipiRate: string;
  /** The original MVA of the ICMS-ST agreement; 0 when the product is not under ST. */
  mva: string;
  /** The destination's internal ICMS rate, for ST and DIFAL. */
  destinationRate: string;
  /** The destination's Fundo de Combate à Pobreza rate, added on DIFAL. */
  fcpRate: string;
  /**
   * The share of the destination's internal base left out, for DIFAL (Convênio ICMS 52/91 sets one load in both
   * operations with two reductions); undefined when the table leaves it empty: then the row's icmsBaseReduction.
   */
  destinationBaseReduction?: string;
}

/** How an ERP writes the buyer's kind: our words, or the answer to "contribuinte do ICMS?". */
const buyerWords = new Map<string, BuyerKind>([
  ...['taxpayer', 'contribuinte', 'sim', 's', '1'].map((word) => [word, 'taxpayer'] as const),
  ...['non-taxpayer', 'nao contribuinte', 'nao', 'n', '0'].map((word) => [word, 'non-taxpayer'] as const),
]);

export const rateFields = [
  'icmsRate',
  'icmsBaseReduction',
  'ipiRate',
  'mva',
  'destinationRate',
  'fcpRate',
  'destinationBaseReduction',
] as const;

/** The fields of a table row, as a record read from a CSV or workbook: its key, then its rates. */
export const taxRuleFields = ['ncm', 'from', 'to', 'buyer', ...rateFields] as const;

export type RuleCheck = { ok: true; rule: TaxRule } | { ok: false; problems: { field: string; message: string }[] };

/**
 * Why an NCM prefix looks like one a spreadsheet stored as a number, losing its leading zero; undefined when it
 * does not. The NCM's levels are the chapter (2 digits), heading (4), first- and second-level subheading (5 and 6),
 * item (7) and subitem (8): 3 digits are no level, so `402` is `0402` without its zero. A bare 5 or 7 digits is a
 * level, and as likely a 6- or 8-digit NCM of chapters 01 to 09 without its zero (`4021010`, every NCM of those
 * chapters saved from Excel): refused unless written as the level, with the NCM's dots (`8471.3`, `8471.30.1`), or
 * with its leading zero kept (`0402101`). A row that lost its zero would otherwise load, every cart of that NCM be
 * refused, or answered from a shorter prefix's row.
 */
function lostLeadingZero(written: string, ncm: string): string | undefined {
  const zero = `a leading zero was probably lost in a spreadsheet (0${ncm}); store the column as text`;
  if (ncm.length === 3) return `has 3 digits, which no NCM level has: ${zero}`;
  if ((ncm.length !== 5 && ncm.length !== 7) || ncm.startsWith('0')) return undefined;
  const level =
    ncm.length === 5 ? `${ncm.slice(0, 4)}.${ncm.slice(4)}` : `${ncm.slice(0, 4)}.${ncm.slice(4, 6)}.${ncm.slice(6)}`;
  if (written === level) return undefined;
  const name = ncm.length === 5 ? 'a first-level subheading' : 'an item';
  return `has ${ncm.length} digits: ${zero}. If it is ${name} (an NCM level of ${ncm.length} digits), write it with its dots: ${level}`;
}

/**
 * Whether an NCM's dots, if any, are where the NCM's levels put them (`8471`, `8471.3`, `8471.30`, `8471.30.1`,
 * `8471.30.12`). A number a pt-BR spreadsheet wrote with its thousands grouped (`402.101`, the item 0402.10.1 that lost
 * its zero) would otherwise read as the 6-digit subheading 402101, and a shorter prefix's row answer its carts.
 */
function dotsOfAnNcm(written: string): boolean {
  return !written.includes('.') || /^\d{4}(\.\d{1,2}){1,2}$/.test(written);
}

/**
 * Why a bare 6-digit NCM row may be a 7-digit item of chapters 01 to 09 that lost its zero (`402101` for
 * `0402.10.1`), which would load as a subheading and answer its items from a shorter prefix's row, a wrong rate with
 * 200; undefined when written as the subheading (`4021.01`) or with its leading zero. A warning, not a refusal as for 5 and 7
 * digits: 6 digits are the common subheading (`847130`), and most such rows are right.
 */
export function sixDigitNcmWarning(written: string): string | undefined {
  const ncm = written.trim().replaceAll('.', '');
  if (!/^[1-9]\d{5}$/.test(ncm)) return undefined;
  const subheading = `${ncm.slice(0, 4)}.${ncm.slice(4)}`;
  // `402.101` is how a pt-BR LibreOffice CSV shows the number 402101: not the subheading's dots either.
  if (written.trim() === subheading) return undefined;
  const item = `0${ncm.slice(0, 3)}.${ncm.slice(3, 5)}.${ncm.slice(5)}`;
  return `ncm ${written.trim()} has 6 digits, not written as a subheading: if it is the item ${item} of chapter 0${ncm[0]} whose leading zero a spreadsheet lost, its products are answered from a shorter prefix's row: store the column as text; if it is the subheading ${subheading}, write it so`;
}

/** A table row from its fields (numbers or text), or each thing wrong with it. */
export function checkTaxRule(values: Readonly<Record<string, unknown>>): RuleCheck {
  const problems: { field: string; message: string }[] = [];
  const text = (field: string): string => {
    const value = values[field];
    return typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  };
  const ncm = text('ncm').replaceAll('.', '');
  if (!/^\d{2,8}$/.test(ncm)) problems.push({ field: 'ncm', message: 'must be 2 to 8 digits (an NCM or its prefix)' });
  else if (!dotsOfAnNcm(text('ncm')))
    problems.push({
      field: 'ncm',
      message: `has its dots where an NCM has none (an NCM is written 8471.30.12: 4 digits, then 2, then 2), as a spreadsheet groups a number's thousands (${text('ncm')} is the number ${ncm})${ncm.length < 8 ? `; a leading zero was probably lost too (0${ncm})` : ''}: store the column as text and write the NCM again`,
    });
  else {
    const lostZero = lostLeadingZero(text('ncm'), ncm);
    if (lostZero !== undefined) problems.push({ field: 'ncm', message: lostZero });
  }
  const from = text('from').toUpperCase();
  const to = text('to').toUpperCase();
  if (!isFederativeUnit(from)) problems.push({ field: 'from', message: 'must be a state (UF) such as SP' });
  if (!isFederativeUnit(to)) problems.push({ field: 'to', message: 'must be a state (UF) such as RJ' });
  const buyer = buyerWords.get(text('buyer').toLowerCase().normalize('NFD').replace(/\p{M}/gu, ''));
  if (buyer === undefined)
    problems.push({ field: 'buyer', message: 'must be taxpayer or non-taxpayer (contribuinte: sim or não)' });
  const rates: Record<string, string> = {};
  for (const field of rateFields) {
    // A JSON table's `true`, `{}` or `[]` is a value, not an empty one: it was refused as "is empty" (a user test).
    const value = values[field];
    if (value !== undefined && value !== null && typeof value !== 'number' && typeof value !== 'string') {
      problems.push({ field, message: 'must be a number, such as 18 or 4.5' });
      continue;
    }
    // `12%` as a percentage cell shows it and its CSV export writes it.
    const written = text(field).replace(/\s*%$/, '');
    // The MVA is read before the destination rate (rateFields' order), which needs it when empty.
    if (written === '' && !mayBeEmpty(field, Number(rates.mva ?? 0), buyer, from !== to)) {
      problems.push({ field, message: emptyRateMessage(field) });
      continue;
    }
    // Left empty, the destination's reduction is the row's own (destinationReduction): no text stands for it.
    if (written === '' && field === 'destinationBaseReduction') continue;
    // An ERP's fixed decimals (`5,00000`) carry no precision past their zeros: only a fifth decimal that is not 0 is.
    const rate = written === '' ? '0' : written.replace(',', '.').replace(/^(\d{1,3}\.\d{4}\d*?)0+$/, '$1');
    // A computed rate (17.999999) is a percentage in range: the message names the rule it breaks, the decimals.
    if (/^\d{1,3}\.\d{5,}$/.test(rate) && Number(rate) <= (field === 'mva' ? 999 : 100))
      problems.push({
        field,
        message: 'has more than 4 decimals: a rate takes at most 4 (round it, such as 17.999999 to 18)',
      });
    else if (!/^\d{1,3}(\.\d{1,4})?$/.test(rate) || Number(rate) > (field === 'mva' ? 999 : 100))
      problems.push({
        field,
        message: `must be a percentage such as 18 or 4.5${field === 'mva' ? '' : ', at most 100'}${noRateWords.test(written) ? ': write 0 for NT (não tributado), isento or suspenso' : ''}`,
      });
    // ICMS-ST's adjusted MVA and DIFAL's double base divide by (1 − destination rate): 100 can never be computed.
    else if (field === 'destinationRate' && Number(rate) === 100)
      problems.push({
        field,
        message:
          "must be under 100: the ICMS-ST and DIFAL bases are divided by (100% − the destination's internal rate); write that state's internal rate, such as 18",
      });
    rates[field] = oneSpelling(rate);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    rule: { ncm, from, to, buyer, ...rates } as TaxRule,
  };
}

/**
 * A rate in one spelling whatever wrote it: a LibreOffice CSV writes `12.0%` where the same table as .xlsx holds 12,
 * and `tax quote` echoed "12.0" from one and "12" from the other. Trailing decimal zeros and leading zeros go.
 */
function oneSpelling(rate: string): string {
  const [whole = '0', decimals = ''] = rate.split('.');
  const kept = decimals.replace(/0+$/, '');
  const integer = whole.replace(/^0+(?=\d)/, '');
  return kept === '' ? integer : `${integer}.${kept}`;
}

/**
 * Why a table's rate reads as a fraction of a percent, which none of these is: no ICMS rate (the interstate floor
 * is 4%), no TIPI IPI rate but 0, no MVA, FCP or base reduction is under 1%. An ERP's 0.12 meant 12% and would tax a
 * hundred times too little. Undefined for 0 and for real rates.
 */
export function fractionRateProblem(rule: TaxRule): { field: string; message: string } | undefined {
  for (const [field, what, example] of fractionChecked) {
    const rate = Number(rule[field]);
    if (rate > 0 && rate < 1)
      return {
        field,
        message: `${rule[field]} reads as ${rule[field]}%, and no ${what} is that low: write the percentage (${example})`,
      };
  }
  return undefined;
}

/**
 * Why a row's FCP rate is never applied, if it is not: b2bctl adds FCP with DIFAL only (a final consumer in another
 * state, ADCT art. 82, §1º, docs/tax.md); it computes no FCP retained by ICMS-ST, nor FCP on the seller's own ICMS,
 * which the formulas' sources do not define. A row that states one is said, so that its products' missing FCP is
 * not found later in an NF-e.
 */
export function unusedFcpRate(rule: TaxRule): string | undefined {
  if (Number(rule.fcpRate) === 0 || (rule.buyer === 'non-taxpayer' && rule.from !== rule.to)) return undefined;
  return `fcpRate "${rule.fcpRate}" is not applied: b2bctl adds FCP only with DIFAL (a non-taxpayer buyer in another state) and computes no FCP retained by ICMS-ST nor FCP on own ICMS (docs/tax.md), so this row's products get no FCP`;
}

/**
 * The share of the destination's internal base left out, for DIFAL: the table's destinationBaseReduction, or when it
 * is empty the row's own reduction, which ICMS-ST's base takes too (formula 4 of docs/tax.md).
 */
export function destinationReduction(rule: Pick<TaxRule, 'icmsBaseReduction' | 'destinationBaseReduction'>): string {
  return rule.destinationBaseReduction ?? rule.icmsBaseReduction;
}

/**
 * What a DIFAL row with a base reduction assumes of the destination, when the row does not say its own: the same
 * reduction. A reduction such as Convênio ICMS 52/91's sets one load in both operations with two reductions (12%
 * less 26.67% and 18% less 51.11% are both 8.80%), and the same reduction at 18% is a load of 13.2%: a DIFAL where
 * the law owes none (a user test). Said at load with the row's place, so the table says which it means.
 */
export function assumedDestinationReduction(rule: TaxRule): string | undefined {
  if (rule.buyer !== 'non-taxpayer' || rule.from === rule.to || Number(rule.icmsBaseReduction) === 0) return undefined;
  if (rule.destinationBaseReduction !== undefined) return undefined;
  return `icmsBaseReduction "${rule.icmsBaseReduction}" on a row with DIFAL, and no destinationBaseReduction: the DIFAL takes the destination's internal operation as reduced alike (${rule.destinationRate}% on ${rule.icmsBaseReduction}% less of the value); where the destination reduces its base otherwise (Convênio ICMS 52/91 sets one load in both operations) or not at all, write its reduction in destinationBaseReduction, 0 for none`;
}

const fractionChecked = [
  ['icmsRate', 'ICMS rate', '12 for 12%, not 0.12'],
  ['destinationRate', 'ICMS rate', '12 for 12%, not 0.12'],
  ['ipiRate', 'IPI rate above 0', '6.5 for 6.5%, not 0.065'],
  ['mva', 'MVA', '40 for 40%, not 0.40'],
  ['fcpRate', 'FCP rate above 0', '2 for 2%, not 0.02'],
  ['icmsBaseReduction', 'base reduction', '33.33 for 33.33%, not 0.3333'],
  ['destinationBaseReduction', 'base reduction', '51.11 for 51.11%, not 0.5111'],
] as const;

/**
 * Whether a rate may be left empty (read as 0): a base reduction, an MVA, and an FCP (most states have none) may;
 * the ICMS and IPI rates may not, nor the destination's rate where it is used (ICMS-ST, or DIFAL for a final
 * consumer in another state). An empty rate is the ERP's gap, and reading it as 0 would answer a tax of zero.
 */
function mayBeEmpty(
  field: (typeof rateFields)[number],
  mva: number,
  buyer: BuyerKind | undefined,
  interstate: boolean,
): boolean {
  switch (field) {
    case 'icmsBaseReduction':
    case 'destinationBaseReduction':
    case 'mva':
    case 'fcpRate':
      return true;
    case 'destinationRate':
      return mva === 0 && !(buyer === 'non-taxpayer' && interstate);
    default:
      return false;
  }
}

function emptyRateMessage(field: string): string {
  return field === 'destinationRate'
    ? "is empty, and the row needs it (for ICMS-ST or for DIFAL): write the destination's internal rate"
    : 'is empty: write the rate, 0 when there is none';
}

/** How TIPI and ERPs write a rate of none (IPI não tributado, isento, suspenso): read as words, refused saying 0. */
const noRateWords = /^(nt|n\/t|n\.t\.|isento|isenta|ise|suspenso)$/i;

/**
 * Why a row's MVA is never applied, if it is not: ICMS-ST is computed for a taxpayer buyer only (formula 4 of
 * docs/tax.md), so an MVA on a non-taxpayer's row is a column filled on the wrong row, said as an FCP rate is.
 */
export function unusedMva(rule: TaxRule): string | undefined {
  if (Number(rule.mva) === 0 || rule.buyer === 'taxpayer') return undefined;
  return `mva "${rule.mva}" is not applied: ICMS-ST is computed only for a taxpayer buyer (docs/tax.md), and this row is a non-taxpayer's`;
}

/**
 * Why an ICMS-ST row inside one state reads two internal rates, if it does: the own ICMS at icmsRate and ICMS-ST at
 * destinationRate, where a state has one internal rate for a product (a user test: 18 and 17 gave an ST of 5.80 on
 * 100.00). Computed as written, said at load.
 */
export function twoInternalRates(rule: TaxRule): string | undefined {
  // Inside a state the destination rate serves ICMS-ST alone: a taxpayer's row with an MVA.
  if (rule.from !== rule.to || rule.buyer !== 'taxpayer' || Number(rule.mva) === 0) return undefined;
  if (Number(rule.destinationRate) === Number(rule.icmsRate)) return undefined;
  return `destinationRate "${rule.destinationRate}" differs from icmsRate "${rule.icmsRate}" on a row inside ${rule.from}, which has one internal rate for a product: the own ICMS is computed at ${rule.icmsRate}% and ICMS-ST at ${rule.destinationRate}%`;
}

/** What an item is sold as, for finding its row. */
export interface RuleKey {
  ncm: string;
  from: FederativeUnit;
  to: FederativeUnit;
  buyer: BuyerKind;
}

/** The rules of a table, indexed for the longest NCM prefix of an origin, destination and buyer. */
export class TaxTable {
  /** Per origin, destination and buyer: the rows by NCM prefix, and a bit for each prefix length that occurs. */
  private readonly sales = new Map<string, { byNcm: Map<string, TaxRule>; lengths: number }>();
  /** Where each row was read (`file:line`), for an error an item meets in its row. */
  private readonly places = new Map<TaxRule, string>();
  private count = 0;

  /** The row already in the table for the same NCM prefix, states and buyer, if any (a repeated row). */
  add(rule: TaxRule, place?: string): TaxRule | undefined {
    const key = saleKey(rule);
    let sale = this.sales.get(key);
    if (sale === undefined) {
      sale = { byNcm: new Map(), lengths: 0 };
      this.sales.set(key, sale);
    }
    const previous = sale.byNcm.get(rule.ncm);
    if (previous !== undefined) return previous;
    sale.byNcm.set(rule.ncm, rule);
    sale.lengths |= 1 << rule.ncm.length;
    if (place !== undefined) this.places.set(rule, place);
    this.count++;
    return undefined;
  }

  /** Where the row was read (`file:line`), when the table was read from a file. */
  placeOf(rule: TaxRule): string | undefined {
    return this.places.get(rule);
  }

  get size(): number {
    return this.count;
  }

  /** The rows of this table that `other` has no row for, by their NCM prefix, states and buyer. */
  rowsMissingFrom(other: TaxTable): TaxRule[] {
    const missing: TaxRule[] = [];
    for (const [key, { byNcm }] of this.sales) {
      const theirs = other.sales.get(key)?.byNcm;
      for (const [ncm, rule] of byNcm) if (theirs?.has(ncm) !== true) missing.push(rule);
    }
    return missing;
  }

  /** The row of the longest NCM prefix for these states and buyer; undefined when none applies. */
  find(key: RuleKey): TaxRule | undefined {
    return this.finderFor(key)(key.ncm);
  }

  /**
   * The lookup of one sale's items: the sale's rows found once, then for each NCM one map read per prefix length
   * the table holds, longest first (at most 7).
   */
  finderFor(sale: Omit<RuleKey, 'ncm'>): (ncm: string) => TaxRule | undefined {
    const rows = this.sales.get(saleKey(sale));
    if (rows === undefined) return () => undefined;
    const { byNcm, lengths } = rows;
    return (given) => {
      const ncm = given.includes('.') ? given.replaceAll('.', '') : given;
      for (let length = Math.min(8, ncm.length); length >= 2; length--) {
        if ((lengths & (1 << length)) === 0) continue;
        const rule = byNcm.get(length === ncm.length ? ncm : ncm.slice(0, length));
        if (rule !== undefined) return rule;
      }
      return undefined;
    };
  }
}

function saleKey(key: Omit<RuleKey, 'ncm'>): string {
  return `${key.from}|${key.to}|${key.buyer}`;
}
