/**
 * The NF-e XML an order is invoiced with, checked before it is sent: well-formed, an authorised NF-e 4.00 whose
 * `Id`, access key and emitter agree. Read with fast-xml-parser (no hand-written XML); pure (bytes in, verdict out).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { checkDocument, documentLookupKey } from './documents.js';
import { checkNfeAccessKey, type NfeAccessKey } from './nfe-key.js';
import { Exact } from './tax/exact.js';

/** The largest NF-e file b2bctl reads: the tax authority takes messages of 500 KB at most, so this is generous. */
export const maximumNfeBytes = 1024 * 1024;

/** Protocol statuses of an authorised NF-e: 100 authorised, 150 authorised out of time. */
const authorisedStatuses = new Set(['100', '150']);

/** Who an NF-e is made out to (`dest`): a CNPJ or CPF without punctuation, and the name on it. */
export interface NfeRecipient {
  document: string;
  name?: string;
}

export type NfeDocumentCheck =
  | {
      ok: true;
      key: NfeAccessKey;
      xml: string;
      warnings: string[];
      recipient?: NfeRecipient;
      /** The invoice's total (`vNF`) as written, `1234.56`: compared with the order's total before it is sent. */
      total: string;
    }
  | { ok: false; reason: string };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // Codes stay text: a CNPJ or a key read as a number would lose its leading zeros.
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
});

/** Checks an NF-e file's bytes: size, encoding, shape, version, key, emitter and authorisation. */
export function checkNfeDocument(bytes: Uint8Array, nowMs: number): NfeDocumentCheck {
  if (bytes.byteLength > maximumNfeBytes)
    return { ok: false, reason: `the file has ${bytes.byteLength} bytes; an NF-e has at most ${maximumNfeBytes}` };
  const text = decodeDeclared(bytes);
  if (!text.ok) return text;
  const xml = text.text;
  if (/<!DOCTYPE/i.test(xml)) return { ok: false, reason: 'an NF-e has no DOCTYPE; this file is not one' };
  const tree = parsedTree(xml);
  if (typeof tree === 'string') return { ok: false, reason: tree };
  const proc = objectAt(tree, 'nfeProc');
  const nfe = objectAt(proc ?? tree, 'NFe');
  const inf = objectAt(nfe, 'infNFe');
  if (!inf) return { ok: false, reason: 'not an NF-e: no nfeProc/NFe/infNFe element' };
  if (inf['@versao'] !== '4.00')
    return { ok: false, reason: `NF-e version ${String(inf['@versao'] ?? '(none)')}; b2bctl sends version 4.00` };
  const id = typeof inf['@Id'] === 'string' ? inf['@Id'] : '';
  if (!id.startsWith('NFe')) return { ok: false, reason: `infNFe Id "${id}" is not NFe followed by the access key` };
  const key = checkNfeAccessKey(id.slice(3), nowMs);
  if (!key.ok) return { ok: false, reason: `infNFe Id: ${key.reason}` };
  const emitter = emitterProblem(objectAt(inf, 'emit'), key.key.emitter);
  if (emitter) return { ok: false, reason: emitter };
  const authorisation = authorisationProblem(proc, key.key.key);
  if (authorisation) return { ok: false, reason: authorisation };
  const ide = objectAt(inf, 'ide');
  const dest = objectAt(inf, 'dest');
  const total = textAt(objectAt(objectAt(inf, 'total'), 'ICMSTot'), 'vNF');
  const kind =
    saleInvoiceProblem(ide) ??
    issueProblem(ide, key.key, nowMs) ??
    totalProblem(total) ??
    recipientProblem(dest, key.key);
  // totalProblem refuses a missing vNF: the second test only tells the compiler so.
  if (kind !== undefined || total === undefined) return { ok: false, reason: kind ?? missingTotal };
  return { ok: true, key: key.key, xml, warnings: key.warnings, recipient: recipientOf(dest), total };
}

/**
 * A model-55 NF-e always names its recipient (dest: a CNPJ, a CPF, or a foreign buyer's idEstrangeiro); the tax
 * authority refuses one without. An XML without it was edited, or is not the one authorised, and the order's
 * buyer could not be checked against it. An NFC-e (65) may leave the consumer unnamed.
 */
function recipientProblem(dest: Record<string, unknown> | undefined, key: NfeAccessKey): string | undefined {
  if (key.model !== '55') return undefined;
  const named = ['CNPJ', 'CPF', 'idEstrangeiro'].some((name) => textAt(dest, name) !== undefined);
  if (named) return undefined;
  return "the NF-e names no recipient (dest with a CNPJ, CPF or idEstrangeiro), which a model-55 NF-e always does: the order's buyer cannot be checked against it";
}

/**
 * An order's invoice is an outbound sale (tpNF 1) of the normal kind (finNFe 1): a return, a purchase, a
 * complementary or an adjusting NF-e of the same buyer passes every other check and is not the order's invoice.
 */
function saleInvoiceProblem(ide: Record<string, unknown> | undefined): string | undefined {
  const direction = textAt(ide, 'tpNF');
  if (direction === '0')
    return "an inbound NF-e (tpNF 0: a return or a purchase), not the sale's invoice: send the order's outbound NF-e";
  const purpose = textAt(ide, 'finNFe');
  const purposes: Record<string, string> = { '2': 'a complementary', '3': 'an adjusting', '4': 'a return' };
  const named = purposes[purpose ?? ''];
  if (named !== undefined)
    return `${named} NF-e (finNFe ${purpose}), not the sale's invoice: send the order's normal NF-e (finNFe 1)`;
  return undefined;
}

/** NF-e 4.00's dhEmi (TDateTimeUTC): the date and time as issued, with its offset (`2026-11-28T10:20:30-03:00`). */
const issueInstant = /^(\d{4})-(\d{2})-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
/** A clock this far ahead of this machine's is a wrong clock, not an NF-e issued later: beyond it, refused. */
const futureToleranceMs = 60 * 60_000;

/**
 * The issue date: a date and time, not in the future, in the access key's month of issue (the key's AAMM is the
 * month written in dhEmi). The tax authority checks it when it authorises; an XML that fails here was not the one
 * it authorised, or was edited after.
 */
function issueProblem(ide: Record<string, unknown> | undefined, key: NfeAccessKey, nowMs: number): string | undefined {
  const written = textAt(ide, 'dhEmi');
  if (written === undefined) return 'the NF-e has no issue date (ide/dhEmi)';
  const match = issueInstant.exec(written);
  const at = Date.parse(written);
  if (match === null || Number.isNaN(at))
    return `the issue date (dhEmi) ${written} is not a date and time as an NF-e writes it, such as 2026-11-28T10:20:30-03:00`;
  if (at > nowMs + futureToleranceMs) return `the issue date (dhEmi) ${written} is in the future`;
  const month = `${match[1]}-${match[2]}`;
  if (month !== key.yearMonth)
    return `the issue date (dhEmi) ${written} is not in the access key's month of issue (${key.yearMonth})`;
  return undefined;
}

/** NF-e's TDec_1302: at most 13 whole digits, and two decimals when there are any; no sign. */
const totalAmount = /^(?:0|0\.\d{2}|[1-9]\d{0,12}(?:\.\d{2})?)$/;

const missingTotal = 'the NF-e has no total (total/ICMSTot/vNF)';

/** The invoice's total (vNF) as written, as the NF-e's schema writes an amount: `1234.56`, never `1234,56` nor `-5.00`. */
function totalProblem(written: string | undefined): string | undefined {
  if (written === undefined) return missingTotal;
  return totalAmount.test(written)
    ? undefined
    : `the NF-e total (vNF) ${written} is not an amount as an NF-e writes it (digits, a point and two decimals, such as 1234.56)`;
}

function textAt(parent: Record<string, unknown> | undefined, name: string): string | undefined {
  const value = parent?.[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The recipient's CNPJ or CPF (a foreign buyer's `idEstrangeiro` is none of them: undefined). */
function recipientOf(dest: Record<string, unknown> | undefined): NfeRecipient | undefined {
  const written = [dest?.CNPJ, dest?.CPF].find((value): value is string => typeof value === 'string');
  if (written === undefined || written.trim() === '') return undefined;
  const name = typeof dest?.xNome === 'string' ? dest.xNome.trim() : undefined;
  return { document: documentLookupKey(written.trim()).toUpperCase(), ...(name ? { name } : {}) };
}

/** `CNPJ 00.360.305/0001-04`, `CPF 529.982.247-25`, or the text as written when it is neither. */
function shown(document: string): string {
  const check = checkDocument(document);
  return check.ok ? `${check.kind.toUpperCase()} ${check.formatted}` : document;
}

/**
 * Why an NF-e made out to `recipient` is not this order's, whose buyer's document is `buyer`: undefined when they
 * are the same person, or the same company (a CNPJ's first 8 characters name the company, the rest its branch: a
 * buyer's other branch may be invoiced). Another customer's NF-e would hand that customer's invoice to this buyer.
 */
export function recipientMismatch(recipient: NfeRecipient, buyer: string): string | undefined {
  const buyerKey = documentLookupKey(buyer.trim()).toUpperCase();
  if (buyerKey === '' || buyerKey === recipient.document) return undefined;
  const cnpjs = buyerKey.length === 14 && recipient.document.length === 14;
  if (cnpjs && buyerKey.slice(0, 8) === recipient.document.slice(0, 8)) return undefined;
  const named = recipient.name ? ` (${recipient.name})` : '';
  return `the NF-e is made out to ${shown(recipient.document)}${named}, not to the order's buyer, ${shown(buyerKey)}`;
}

/** Half a centavo: how far an order's total with more decimals (`1234.565`) may be from its NF-e's, rounded. */
const halfCentavo = Exact.of('0.005');

/**
 * Whether an NF-e's total (vNF, two decimals) is the order's total (`2642.26`, `2642.265`, `100`) to the centavo,
 * compared in exact decimals: through a float, `1.005` is 1.00499… and its centavos came out one short.
 * An order's total with more decimals is its NF-e's when rounded either way at a half (the store and the ERP may
 * round differently, and the check only warns).
 */
export function sameTotalToTheCentavo(invoiceTotal: string, orderTotal: string): boolean {
  const difference = Exact.of(invoiceTotal).minus(orderTotal);
  return !difference.gt(halfCentavo) && !Exact.of(orderTotal).minus(invoiceTotal).gt(halfCentavo);
}

/**
 * The XML's tree, or why it is not one an NF-e can be: not well-formed (its line, never its text: the file may be
 * anything a row named), nested deeper than an NF-e ever is, or an element named like a JavaScript object's own
 * property (`__proto__`). The parser's own refusals are caught here, so one bad file is its row's problem only.
 */
function parsedTree(xml: string): Record<string, unknown> | string {
  if (nestingDepth(xml) > maximumNfeDepth)
    return `not an NF-e: elements nested more than ${maximumNfeDepth} deep (an NF-e has fewer than 12)`;
  try {
    const wellFormed = XMLValidator.validate(xml);
    if (wellFormed !== true) return `not well-formed XML (line ${wellFormed.err.line}): not an NF-e`;
    return parser.parse(xml) as Record<string, unknown>;
  } catch {
    return 'not an NF-e: the XML holds element names or a structure no NF-e has';
  }
}

/** An NF-e nests about ten deep (nfeProc, NFe, infNFe, det, imposto, ICMS, ICMS00, …): 64 is far past any. */
const maximumNfeDepth = 64;

/** How deep the elements of `xml` nest at most, counted without parsing (so a hostile depth costs one pass). */
function nestingDepth(xml: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of xml.matchAll(/<(\/?)[A-Za-z_][^>]*?(\/?)>/g)) {
    if (match[1] === '/') depth--;
    else if (match[2] !== '/') deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

/** The text of the bytes in the encoding the declaration names: UTF-8 only, as the NF-e standard has it. */
function decodeDeclared(bytes: Uint8Array): { ok: true; text: string } | { ok: false; reason: string } {
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) start = 3;
  else if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    return { ok: false, reason: 'the file is UTF-16; an NF-e is UTF-8' };
  const head = new TextDecoder('latin1').decode(bytes.subarray(start, start + 200));
  const declared = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(head)?.[1];
  if (declared !== undefined && !/^utf-?8$/i.test(declared))
    return { ok: false, reason: `the declared encoding is ${declared}; an NF-e is UTF-8` };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start)) };
  } catch {
    return { ok: false, reason: 'the file is not valid UTF-8, the encoding an NF-e declares' };
  }
}

/** `emit/CNPJ` (or `emit/CPF`) valid and equal to the emitter in the key. */
function emitterProblem(emit: Record<string, unknown> | undefined, keyEmitter: string): string | undefined {
  const cnpj = typeof emit?.CNPJ === 'string' ? emit.CNPJ.trim() : undefined;
  const cpf = typeof emit?.CPF === 'string' ? emit.CPF.trim() : undefined;
  if (cnpj === undefined && cpf === undefined) return 'emit has no CNPJ (or CPF): the emitter is missing';
  const written = cnpj ?? `000${cpf}`;
  const check = checkDocument(cnpj ?? cpf ?? '');
  if (!check.ok) return `emit/${cnpj ? 'CNPJ' : 'CPF'} ${cnpj ?? cpf} is not valid: ${check.reason}`;
  if (written !== keyEmitter)
    return `emit/${cnpj ? 'CNPJ' : 'CPF'} ${cnpj ?? cpf} is not the emitter in the access key (${keyEmitter})`;
  return undefined;
}

/** The tax authority's protocol: present, about this key, with cStat 100 or 150. */
function authorisationProblem(proc: Record<string, unknown> | undefined, key: string): string | undefined {
  const infProt = objectAt(objectAt(proc, 'protNFe'), 'infProt');
  if (!infProt)
    return 'no authorisation protocol (nfeProc/protNFe): send the file the tax authority returned with its protocol';
  const status = typeof infProt.cStat === 'string' ? infProt.cStat.trim() : '';
  if (!authorisedStatuses.has(status)) {
    const reason = typeof infProt.xMotivo === 'string' ? ` (${infProt.xMotivo.trim().slice(0, 120)})` : '';
    return `the protocol's cStat is ${status || '(none)'}${reason}: only an authorised NF-e (100 or 150) is sent`;
  }
  if (typeof infProt.chNFe === 'string' && infProt.chNFe.trim() !== key)
    return `the protocol is for access key ${infProt.chNFe.trim()}, not this NF-e's ${key}`;
  return undefined;
}

function objectAt(parent: Record<string, unknown> | undefined, name: string): Record<string, unknown> | undefined {
  const value = parent?.[name];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
