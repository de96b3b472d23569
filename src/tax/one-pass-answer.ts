/**
 * The callback's answer in one pass (answer-bytes.ts) from a cart either parsed or scanned (cart-scan.ts): its sale
 * (the states and the buyer) read as both readers read it, then every item. Undefined whenever the one pass cannot
 * answer, for the general path to answer (and word a refusal). docs/decisions/0023-tax-callback-one-pass.md, 0048.
 */
import { type FederativeUnit, isFederativeUnit } from '../domain/brazil-codes.js';
import type { BuyerKind, TaxTable } from '../domain/tax/rules.js';
import { answerBytes, answerScanned, TableRows } from './answer-bytes.js';
import { type CartScan, saleSlot, Token } from './cart-scan.js';
import { requestReaders, type TaxShape } from './shape.js';

/** The parsed cart's answer, when its states and buyer read as they are and the one pass answers every item. */
export function onePassAnswer(body: unknown, table: TaxTable, shape: TaxShape): Buffer | undefined {
  const readers = requestReaders(shape.request);
  const items = readers.items(body);
  const origin = readers.from(body);
  const destination = readers.to(body);
  // An empty list is refused by the general path, which words it.
  if (!Array.isArray(items) || items.length === 0 || typeof origin !== 'string' || typeof destination !== 'string')
    return undefined;
  // A state is read as an NCM and a SKU are, without the spaces around it (`" SP "`).
  const from = origin.trim().toUpperCase();
  const to = destination.trim().toUpperCase();
  const buyer = buyerOf(readers.buyerPaysIcms(body));
  if (!isFederativeUnit(from) || !isFederativeUnit(to) || buyer === undefined) return undefined;
  return answerBytes(items, table.finderFor({ from, to, buyer }), { buyer, interstate: from !== to }, shape);
}

/** The same answer for a cart the scan vouched for (scan.scan(bytes) was true), as onePassAnswer gives it parsed. */
export function scannedAnswer(scan: CartScan, table: TaxTable, shape: TaxShape): Buffer | undefined {
  const from = scannedState(scan, saleSlot.from);
  const to = scannedState(scan, saleSlot.to);
  const buyer = buyerOf(scannedBuyerValue(scan));
  if (from === undefined || to === undefined || buyer === undefined) return undefined;
  const rows = tableRows(table);
  const saleNumber = rows.saleOf({ from, to, buyer });
  return answerScanned(scan, rows, saleNumber, { buyer, interstate: from !== to }, shape);
}

/** Each table's rows, found as carts come: dropped with the table a reload replaces. */
const rowsByTable = new WeakMap<TaxTable, TableRows>();

function tableRows(table: TaxTable): TableRows {
  let rows = rowsByTable.get(table);
  if (rows === undefined || !rows.current) {
    rows = new TableRows(table);
    rowsByTable.set(table, rows);
  }
  return rows;
}

/** The buyer's kind from the cart's flag: true or false, as JSON, text or 1 and 0. */
export function buyerOf(paysIcms: unknown): BuyerKind | undefined {
  if (paysIcms === true || paysIcms === 'true' || paysIcms === 1) return 'taxpayer';
  if (paysIcms === false || paysIcms === 'false' || paysIcms === 0) return 'non-taxpayer';
  return undefined;
}

/** A state of the sale as onePassAnswer reads it: text, trimmed, in capitals, a UF; else undefined. */
function scannedState(scan: CartScan, slot: number): FederativeUnit | undefined {
  if (scan.sale[slot] !== Token.Text) return undefined;
  const state = scan
    .textOf(scan.sale[slot + 1] as number, scan.sale[slot + 2] as number)
    .trim()
    .toUpperCase();
  return isFederativeUnit(state) ? state : undefined;
}

/** The buyer's flag as the parse gives it, in the forms buyerOf takes; undefined for any other. */
function scannedBuyerValue(scan: CartScan): unknown {
  const slot = saleSlot.buyerPaysIcms;
  const token = scan.sale[slot];
  if (token === Token.True) return true;
  if (token === Token.False) return false;
  if (token !== Token.Text && token !== Token.Number) return undefined;
  const text = scan.textOf(scan.sale[slot + 1] as number, scan.sale[slot + 2] as number);
  if (token === Token.Text) return text;
  // 1 and 0 as written; `1.0` or `1e0` is left to the parse.
  return text === '1' ? 1 : text === '0' ? 0 : undefined;
}
