import { looseSku } from '../../domain/stock.js';
import { quotedJson } from '../../base/quoted-answer.js';
import { messageOfBody } from '../../base/errors.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { otherSkuQuoted } from './quoted-skus.js';
import { placesBeside, refusalBeside, refusalNamed, wordsOf } from './refusal-signs.js';
import { valueAtPath } from '../../domain/validation.js';
import { candidatePaths, countAsWritten, firstAt, isArray, isIdLike, isRecord } from './shapes.js';
import {
  appliedWords,
  fieldVerdict,
  type ItemVerdict,
  recognisedStatusFields,
  rejectedWords,
  withoutMarks,
  wordVerdict,
} from './status-words.js';

export type { ItemVerdict } from './status-words.js';

/**
 * The stock routes' answers. The document says the batch route gives "a per-item result in the
 * response" without showing it, and shows nothing of the queue route's 202. We recognise the
 * plausible shapes; what we cannot match is reported `accepted` (the platform took the request
 * without itemising it), never failed; but `unknown` when the answer shows a refusal we cannot tie to an item, gives
 * an item a status we do not know, or shows other items applied and leaves it out. A list of the SKUs not taken
 * (`"notFound": ["A2"]`) refuses the items it names. The queue route's 2xx is read for the same signs of refusal.
 */

// The lists below are built at each call, in function bodies, not once at module load: mutation testing switches its
// changes at run time, inside functions; a few short arrays per answer cost nothing beside the request itself.
function recognisedResultPaths(): readonly string[] {
  return ['', 'results', 'items', 'data', 'result', 'data.results', 'data.items', 'resultados', 'itens'];
}
/** The fields a result names its SKU by, as most platforms write them (inferredSkuField finds another). */
function usualSkuFields(): readonly string[] {
  return ['sku', 'SKU', 'code', 'productCode'];
}
// A Brazilian platform words its reasons in Portuguese (`mensagem`, `erro`, `motivo`): a refused item's reason was
// dropped when it came under a name this list did not hold (a fresh user test).
function recognisedMessageFields(): readonly string[] {
  const english = ['message', 'reason', 'error', 'errorMessage', 'error_message', 'msg', 'detail', 'description'];
  return [...english, 'mensagem', 'erro', 'motivo', 'descricao', 'detalhe'];
}
function recognisedQueueIdPaths(): readonly string[] {
  return [
    'batchId',
    'id',
    'jobId',
    'queueId',
    'requestId',
    'protocol',
    'uuid',
    'ticket',
    'data.batchId',
    'data.id',
    'data.jobId',
  ];
}

export interface BatchAnswerSettings {
  results?: string;
  status?: string;
}

/**
 * What matching the results to the items noticed, for the caller's warning (once a run): an index that cannot be
 * trusted (it lies outside the batch, or names another item than the SKU beside it: results numbered from 1), a
 * SKU the platform spelled otherwise than sent (`123` for `00123`, `AB-7` for `ab-7`), matched ignoring both; a
 * result naming a SKU not sent; a refusal matched to no item; an empty results list (noneListed); a refusal of the batch beside results showing every item
 * applied; two results for one item that disagree; a SKU that fits
 * several items, the order of the answer not settling which; items the results leave out beside others shown applied;
 * a result matched by its place alone, or by its index alone, whose words quote another item's SKU (misplacedResults:
 * `placeSku` is the item it was matched to, `by` how); a result matched to an item that says nothing b2bctl reads
 * (`null`, `{}`, a `null` status); a count of the items applied short of the batch, not saying which (shortCount). A
 * result is shown as the platform wrote it (its JSON).
 */
export type MatchNote =
  | { kind: 'untrustedIndex'; index: number; sku: string | undefined; batchSize: number; itemSku: string | undefined }
  | { kind: 'respelledSku'; sent: string; named: string }
  | { kind: 'strangerSku'; sku: string; result: string }
  | { kind: 'unmatchedRefusal'; result: string }
  | { kind: 'contradictedBatch'; result: string }
  | { kind: 'unshownIndexBase'; index: number; batchSize: number }
  | { kind: 'conflictingResults'; sku: string; results: string[] }
  | { kind: 'ambiguousSku'; named: string; sent: string[] }
  | { kind: 'leftOutItems'; skus: string[]; batchSize: number }
  | { kind: 'misplacedResults'; placeSku: string; quoted: string; result: string; by: 'place' | 'index' }
  | { kind: 'unreadResult'; sku: string; result: string }
  | { kind: 'unknownStatus'; sku: string; result: string }
  | { kind: 'shortCount'; result: string; count: number; batchSize: number }
  | { kind: 'unknownBatchStatus'; said: string; result: string }
  | { kind: 'noneListed'; list: string; batchSize: number };

/**
 * One verdict per sent item (in the order sent) when the answer itemises them; undefined when no
 * per-item result can be matched to the items and the answer shows no refusal, so the caller reports them `accepted`.
 * An item no result names safely has no verdict (never another item's), when the results only name refusals; but
 * `unknown` when they show other items applied (the platform may have dropped it), or when the answer holds a refusal
 * b2bctl cannot tie to an item (a result matched to no item, or a sign of refusal beside the results). The SKUs listed
 * under a name of refusal (`"notFound": ["A2"]`), each one sent, are `rejected`; those listed under a name that says
 * applied (`"updated": ["A1"]`) `applied`; a count of the items applied short of the batch leaves the items it does
 * not itemise `unknown` (appliedSaid).
 */
export function readBatchAnswer(
  body: unknown,
  skus: readonly string[],
  settings: BatchAnswerSettings = {},
  noted: (note: MatchNote) => void = () => {},
): (ItemVerdict | undefined)[] | undefined {
  return readAnswer(body, skus, settings, noted, { silentMayBeDropped: true });
}

/**
 * readBatchAnswer, and the queue route's reading (readQueueRefusal), where an item no result names is `queued` as
 * the batch is, whatever the others: `silentMayBeDropped` says whether such an item is `unknown` beside others shown
 * applied.
 */
function readAnswer(
  body: unknown,
  skus: readonly string[],
  settings: BatchAnswerSettings,
  noted: (note: MatchNote) => void,
  rules: { silentMayBeDropped: boolean },
): (ItemVerdict | undefined)[] | undefined {
  const itemised = itemisedAnswer(body, skus, settings, noted);
  const lists = skuLists(body, itemised?.list, skus, noted);
  const beside = refusalBeside(
    body,
    itemised?.list,
    settings.status,
    lists.map((found) => found.value),
  );
  const verdicts = itemised?.verdicts ?? skus.map(() => undefined);
  rejectListed(verdicts, lists, itemised?.shown ?? [], skus, noted);
  // The queue applies later: what its answer says was applied is not read.
  const applied = rules.silentMayBeDropped ? appliedSaid(body, itemised?.list, skus, noted) : [];
  applyListed(verdicts, applied, itemised?.shown ?? [], skus, noted);
  // A sign of refusal beside results that refuse an item themselves, and leave none unshown, says nothing more.
  const unshown = verdicts.some((verdict) => verdict === undefined || verdict.verdict === 'unsettled');
  const explained = !unshown && verdicts.some((verdict) => verdict?.verdict === 'rejected');
  const unexplained = beside === undefined || explained ? [] : [beside];
  const refusals = [...(itemised?.refusals ?? []), ...unexplained];
  if (refusals.length === 0) {
    if (itemised === undefined && lists.length === 0 && applied.length === 0) {
      const batchWide = unknownBatchAnswer(body, skus, settings.status, noted, { queue: !rules.silentMayBeDropped });
      if (batchWide !== undefined || !rules.silentMayBeDropped) return batchWide;
    }
    if (rules.silentMayBeDropped) {
      if (itemised === undefined) unknownWhenNoneListed(verdicts, body, settings.results, applied, skus, noted);
      unknownWhenUnread(verdicts, itemised?.shown ?? [], skus, noted);
      unknownWhenCountedShort(verdicts, applied, skus, noted);
      unknownWhenLeftOut(verdicts, itemised?.named ?? [], skus, noted);
    }
    // Counts that cover the batch, and no more, itemise nothing: what the answer said is passed on as for no result.
    return itemised === undefined && lists.length === 0 && verdicts.every((verdict) => verdict === undefined)
      ? undefined
      : verdicts;
  }
  // A refusal of the batch beside results that show every item applied contradicts them (`"status": "FAILED"` over
  // items `OK`: checked, maybe, and not stored): no item is known applied, and a batch is safe to send again.
  if (unexplained.length > 0 && !unshown) {
    noted({ kind: 'contradictedBatch', result: unexplained[0] as string });
    // An item already `unknown` (a status b2bctl does not know) keeps its own words.
    for (const [item, verdict] of verdicts.entries())
      if (verdict?.verdict === 'applied')
        verdicts[item] = {
          verdict: 'unknown',
          message: `the answer shows this item applied, but refuses the batch beside it: ${unexplained[0] as string}`,
        };
    return verdicts;
  }
  noted({ kind: 'unmatchedRefusal', result: refusals[0] as string });
  unknownUnlessShown(verdicts, refusals);
  return verdicts;
}

// The fields a batch's own status is read in when the answer itemises nothing (`{"status": "REFUSED"}`), named as read
// (case, accents, `_` and `-` aside).
function batchStatusFields(): readonly string[] {
  return ['status', 'state', 'situacao', 'result', 'resultado', 'outcome', 'retorno'];
}

// The counts a queue's answer says it took the batch's items into the queue by (`"queued": 0`).
function queuedCountFields(): readonly string[] {
  return ['queued', 'enqueued', 'accepted', 'received', 'enfileirados', 'enfileirado', 'aceitos', 'recebidos'];
}

/**
 * An answer that itemises nothing and shows no refusal b2bctl lists, read for what it says of the whole batch: a status
 * word b2bctl knows as neither applied, refused nor pending (`REFUSED`, `DISCARDED`, `NEGADO`), or, on the queue route,
 * a count of 0 items queued. Either makes every item `unknown`, quoting the answer, as an item's own unknown word does:
 * a platform saying in its own words that it discarded the batch was reported `queued` (or `accepted`), exit 0, with
 * nothing stored (a user test). An answer with no status at all stays undefined (`accepted`/`queued`, as documented).
 */
function unknownBatchAnswer(
  body: unknown,
  skus: readonly string[],
  statusField: string | undefined,
  noted: (note: MatchNote) => void,
  route: { queue: boolean },
): ItemVerdict[] | undefined {
  const word = unknownBatchWord(body, statusField);
  const none = route.queue && skus.length > 0 ? queuedNone(body) : undefined;
  if (word === undefined && none === undefined) return undefined;
  const result = quotedJson(JSON.stringify(body) ?? '', 300);
  const said =
    word === undefined
      ? `${none as string} for a batch of ${skus.length}`
      : `the status "${word}", which b2bctl knows as neither applied, refused nor pending`;
  noted({ kind: 'unknownBatchStatus', said, result });
  return skus.map(() => ({ verdict: 'unknown', message: `the platform answered the batch with ${said}: ${result}` }));
}

/** The first status word beside no result (under answers.stockBatch.status when set) that wordVerdict finds unknown. */
function unknownBatchWord(body: unknown, statusField: string | undefined): string | undefined {
  const named = (field: string) =>
    statusField === undefined ? batchStatusFields().includes(nameAsListed(field)) : field === statusField;
  for (const place of placesBeside(body, undefined))
    for (const [field, value] of Object.entries(place))
      if (named(field) && typeof value === 'string' && value.trim() !== '' && wordVerdict(value).verdict === 'unknown')
        return value.trim();
  return undefined;
}

/** A count of the items taken into the queue that is 0 (`"queued": 0`, `"accepted": "0"`), as the answer wrote it. */
function queuedNone(body: unknown): string | undefined {
  for (const place of placesBeside(body, undefined))
    for (const [field, value] of Object.entries(place))
      if (queuedCountFields().includes(nameAsListed(field)) && countAsWritten(value) === 0) return `"${field}": 0`;
  return undefined;
}

function nameAsListed(field: string): string {
  return withoutMarks(field)
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/** What the per-item results say, read at the place they were found. */
interface Itemised {
  /** Each item's verdict, in the order sent; undefined for one no result names or says anything b2bctl reads of. */
  verdicts: (ItemVerdict | undefined)[];
  /** The results as the answer holds them (an array, or an object keyed by SKU or index). */
  list: unknown;
  /** The refusals matched to no item, as the platform wrote them. */
  refusals: string[];
  /** Each item's results as the platform wrote them (none for an item no result names). */
  shown: string[][];
  /** Whether a result names the item (with a status b2bctl reads or not). */
  named: boolean[];
}

/** The results read at the first recognised place whose entries match the items sent, and the refusals matched to none. */
function itemisedAnswer(
  body: unknown,
  skus: readonly string[],
  settings: BatchAnswerSettings,
  noted: (note: MatchNote) => void,
): Itemised | undefined {
  // `{"items":{…}}` is itself an object of objects, so being list-shaped is not enough.
  for (const path of candidatePaths(settings.results, recognisedResultPaths())) {
    const list = path === '' ? body : valueAtPath(body, path);
    if (!isItemList(list)) continue;
    // Notes wait until this place is the one read: a place passed over says nothing about the answer.
    const notes: MatchNote[] = [];
    const note = (found: MatchNote) => notes.push(found);
    const matched = matchResults(isArray(list) ? arrayResults(list, skus) : keyedResults(list), skus, note);
    const verdicts = matched.claims.map((claims, item) =>
      matched.ambiguous.has(item)
        ? ambiguousVerdict(matched.ambiguous.get(item) as string, claims)
        : claimedVerdict(claims, skus[item] as string, settings.status, note),
    );
    distrustPlacesQuotingOthers(matched, verdicts, skus, note);
    const refusals = matched.unmatched
      .filter((entry) => verdictOf(entry.result, settings.status)?.verdict === 'rejected')
      .map(shownResult);
    // An object none of whose keys is a SKU sent (`{"data":{…}}`) is no list of results, and says nothing of them; a
    // list is, even when none of its results names an item (a count that is not the batch's, one refusing).
    // Results that name their items (by SKU or index) and say something of them are per-item results, even when
    // b2bctl cannot read what: `[{"codigo":"A1","mensagem":"Produto inexistente"}]` or a status word under a field
    // it does not read was no list, and a refused item ended `accepted` (a fresh user test). Results that only echo
    // the items sent (`[{"sku":"A1","quantity":5}]`) say nothing either way: that 2xx is the platform's, and stays
    // `accepted` with its warning.
    const named = matched.claims.some((claims) =>
      claims.some((entry) => (entry.sku !== undefined || entry.index !== undefined) && saysSomething(entry.result)),
    );
    const read =
      named ||
      verdicts.some((verdict) => verdict !== undefined) ||
      notes.some((found) => isArray(list) || found.kind !== 'strangerSku') ||
      (isArray(list) && refusals.length > 0);
    if (read) {
      notes.forEach(noted);
      const shown = matched.claims.map((claims) => claims.map(shownResult));
      return { verdicts, list, refusals, shown, named: shown.map((results) => results.length > 0) };
    }
  }
  return undefined;
}

/**
 * Items no result names, in an answer whose results show other items applied (or taken, pending): a platform that
 * itemises what it applied may have dropped the rest, so each is `unknown` (sent again: stock is absolute), never
 * `accepted` (a fresh user test: `[{"sku":"A1","status":"OK"},{"sku":"A3","status":"OK"}]` for A1..A5 ended exit 0).
 * Results that only name refusals (an errors-style list) leave the others not refused: they stay `accepted`.
 */
function unknownWhenLeftOut(
  verdicts: (ItemVerdict | undefined)[],
  named: readonly boolean[],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): void {
  const taken = verdicts.some((verdict) => verdict?.verdict === 'applied' || verdict?.verdict === 'unsettled');
  const leftOut = itemsWhere(skus, (_sku, item) => verdicts[item] === undefined && named[item] !== true);
  if (!taken || leftOut.length === 0) return;
  noted({ kind: 'leftOutItems', skus: leftOut.map((item) => skus[item] as string), batchSize: skus.length });
  // Others only pending (`QUEUED`) are taken, not applied.
  const shown = verdicts.some((verdict) => verdict?.verdict === 'applied') ? 'applied' : 'taken';
  for (const item of leftOut)
    verdicts[item] = {
      verdict: 'unknown',
      message: `the answer showed other items of the batch ${shown} and said nothing of this one: it may have dropped it`,
    };
}

/**
 * An empty list where the results are read (`{"results": []}`, `[]`): not an answer without per-item results but one
 * whose results name none of the items sent, so the platform may have applied none: each item no list or count
 * accounts for is `unknown` (sent again: stock is absolute), never `accepted` (a user test: `200 {"results":[]}` ended
 * exit 0). A count of the items applied that covers the batch (`"processados": 5`) still says nothing against any.
 */
function unknownWhenNoneListed(
  verdicts: (ItemVerdict | undefined)[],
  body: unknown,
  resultsSetting: string | undefined,
  applied: readonly AppliedSaid[],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): void {
  const place = candidatePaths(resultsSetting, recognisedResultPaths()).find((path) => {
    const value = path === '' ? body : valueAtPath(body, path);
    return isArray(value) && value.length === 0;
  });
  if (place === undefined || applied.some((said) => 'count' in said && said.count >= skus.length)) return;
  const silent = itemsWhere(skus, (_sku, item) => verdicts[item] === undefined);
  if (silent.length === 0) return;
  const list = place === '' ? 'the answer, an empty list' : `the answer's "${place}", an empty list`;
  noted({ kind: 'noneListed', list, batchSize: skus.length });
  for (const item of silent)
    verdicts[item] = {
      verdict: 'unknown',
      message: `the results list (${list}) names none of the items sent: the platform may have applied none`,
    };
}

/**
 * Items a result is matched to (at its place, by its index or its SKU) that says nothing b2bctl reads: `null`, `{}`,
 * `{"sku":"A1"}`, `"status": null` beside a message. Such a result says no more than an absent one, and may be a
 * refusal in words b2bctl does not read (`"status": null, "message": "Estoque não atualizado"`): `unknown`, quoting
 * it, never `accepted` (a fresh user test: `[null, {"sku":"A2","status":"APPLIED"}, …]` ended exit 0, A1 "not itemised").
 */
function unknownWhenUnread(
  verdicts: (ItemVerdict | undefined)[],
  shown: readonly string[][],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): void {
  for (const [item, results] of shown.entries()) {
    if (verdicts[item] !== undefined || results.length === 0) continue;
    const result = results.join('; ');
    noted({ kind: 'unreadResult', sku: skus[item] as string, result });
    verdicts[item] = {
      verdict: 'unknown',
      message: `the answer's result for this item says nothing b2bctl reads as applied, refused or pending: ${result}`,
    };
  }
}

/** A list of SKUs the platform did not take, under a name of refusal (`"notFound": ["A2"]`): the items it names. */
interface SkuList {
  field: string;
  /** The list itself, which is then no sign of refusal beside the results (refusalBeside). */
  value: unknown[];
  items: number[];
  /** An entry's own words for the item it names (`{"sku": "A2", "message": "Product not found"}`). */
  reasons: Map<number, string>;
}

/**
 * The lists of SKUs beside the results, under a name of refusal (`notFound`, `naoEncontrados`, `invalidSkus`,
 * `ignored`, `failed`), whose every entry names a SKU sent, exactly or but for case and leading zeros (a SKU sent
 * twice, two warehouses: both its items). A list with an entry that names nothing sent, or that fits two SKUs sent,
 * is none: it stays a sign of refusal, and the items it may be about `unknown`. Such a list made every item of the
 * batch `unknown`, though it said which were not taken (a fresh user test).
 */
function skuLists(body: unknown, list: unknown, skus: readonly string[], noted: (note: MatchNote) => void): SkuList[] {
  const lists: SkuList[] = [];
  for (const [field, value] of fieldsBeside(body, list)) {
    if (!isArray(value) || !refusalNamed(field, value)) continue;
    const named = entriesNamingSent(value, skus, noted);
    if (named === undefined) continue;
    const reasons = new Map<number, string>();
    for (const { items, reason } of named) for (const item of items) if (reason) reasons.set(item, reason);
    lists.push({ field, value, items: [...new Set(named.flatMap(({ items }) => items))], reasons });
  }
  return lists;
}

/** Each field beside the results (placesBeside) but the results themselves: what skuLists and appliedSaid read. */
function fieldsBeside(body: unknown, list: unknown): [string, unknown][] {
  return placesBeside(body, list).flatMap((place) => Object.entries(place).filter(([, value]) => value !== list));
}

/**
 * The items each entry of a list beside the results names (itemsListed), or undefined when an entry names nothing
 * sent: then the list is no list of the SKUs sent (a list of ids, of warnings), and what its entries matched is not
 * noted either.
 */
function entriesNamingSent(
  entries: readonly unknown[],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): { items: number[]; reason?: string }[] | undefined {
  const notes: MatchNote[] = [];
  const named = entries.map((entry) => itemsListed(entry, skus, (found) => notes.push(found)));
  if (named.some(({ items }) => items.length === 0)) return undefined;
  notes.forEach(noted);
  return named;
}

/**
 * The items an entry of a list of SKUs names: the SKU as sent, else the one SKU sent the same but for case and zeros;
 * an entry given as a record names its SKU under a usual field, and may give its reason (`{"sku": "A2", "message":
 * "Product not found"}`: a 422's `errors` naming one SKU gave its words to every item of the batch, a fresh user test).
 */
function itemsListed(
  entry: unknown,
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): { items: number[]; reason?: string } {
  if (isRecord(entry)) {
    const sku = usualSkuFields()
      .map((field) => entry[field])
      .find((value) => value !== undefined && value !== null);
    if (sku === undefined) return { items: [] };
    const { message } = messageOf(entry);
    return { ...itemsListed(sku, skus, noted), ...(message === undefined ? {} : { reason: message }) };
  }
  if (typeof entry !== 'string' && typeof entry !== 'number' && !(entry instanceof WrittenNumber)) return { items: [] };
  const named = String(entry);
  const exact = itemsWhere(skus, (sent) => sent === named);
  if (exact.length > 0) return { items: exact };
  const loose = itemsWhere(skus, (sent) => sameLooseSku(sent, named));
  const sent = [...new Set(loose.map((item) => skus[item] as string))];
  if (sent.length !== 1) return { items: [] };
  noted({ kind: 'respelledSku', sent: sent[0] as string, named });
  return { items: loose };
}

/**
 * What the answer says was applied beside (or instead of) per-item results: a list of the SKUs applied under a name
 * that says so (`"updated": ["A1", "A3"]`, `"atualizados": […]`; `items` the items it names), or a count of them
 * (`"processados": 4`, `"ok": "4"`; `count` the number). Read structurally, whatever else the answer calls its
 * refusals: a list that does not cover the batch, or a count short of it, leaves the items it does not account for
 * `unknown` (a fresh user test: `{"updated": […4 of 5]}`, `{"processados": 4, "recusados": 1}` and
 * `{"total": 5, "ok": 4, "nok": 1}` ended `accepted`, exit 0).
 */
type AppliedSaid = { field: string; shown: string } & ({ items: number[] } | { count: number });

function appliedSaid(body: unknown, list: unknown, skus: readonly string[], noted: (note: MatchNote) => void) {
  const said: AppliedSaid[] = [];
  for (const [field, value] of fieldsBeside(body, list)) {
    if (!namesApplied(field)) continue;
    const shown = resultJson({ [field]: value });
    const count = countAsWritten(value);
    if (count !== undefined) said.push({ field, shown, count });
    if (!isArray(value) || value.length === 0) continue;
    // A list with an entry that names nothing sent is not a list of the SKUs applied (a list of ids, of warnings).
    const named = entriesNamingSent(value, skus, noted);
    if (named !== undefined) said.push({ field, shown, items: [...new Set(named.flatMap(({ items }) => items))] });
  }
  return said;
}

/**
 * A field whose name says applied (`updated`, `successCount`, `atualizados`, `processados`): not its negation
 * (`naoAtualizados`), nor when or by whom (`updatedAt`, `updatedBy`: an instant or a user's id is no count).
 */
function namesApplied(field: string): boolean {
  const words = wordsOf(field);
  const appliedNames = [...appliedWords(), 'processed', 'accepted', 'processados', 'atualizados', 'aplicados'];
  const notACount = ['no', 'not', 'non', 'nao', 'sem', 'without', 'un', 'at', 'by', 'on', 'id', 'date', 'time', 'em'];
  return words.some((word) => appliedNames.includes(word)) && !words.some((word) => notACount.includes(word));
}

/**
 * The items a list of the SKUs applied names: `applied`, unless a result refuses one (then `unknown`, the two
 * disagreeing). The items it leaves out are then read as items left out beside others shown applied (unknownWhenLeftOut).
 */
function applyListed(
  verdicts: (ItemVerdict | undefined)[],
  applied: readonly AppliedSaid[],
  shown: readonly string[][],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): void {
  for (const said of applied) {
    if (!('items' in said)) continue;
    for (const item of said.items) {
      const verdict = verdicts[item];
      if (verdict === undefined || verdict.verdict === 'unsettled') verdicts[item] = { verdict: 'applied' };
      else if (verdict.verdict === 'rejected') {
        const results = [...(shown[item] ?? []), said.shown];
        noted({ kind: 'conflictingResults', sku: skus[item] as string, results });
        verdicts[item] = {
          verdict: 'unknown',
          message: `the answer gave this item ${results.length} results that disagree: ${results.join('; ')}`,
        };
      }
    }
  }
}

/**
 * A count of the items applied short of the items sent that no result refuses (`"processados": 4` for 5, none
 * itemised as refused): which were not applied is not said, so each item the answer does not itemise is `unknown`
 * (sent again: stock is absolute), never `accepted`. A count that covers them says nothing against any.
 */
function unknownWhenCountedShort(
  verdicts: (ItemVerdict | undefined)[],
  applied: readonly AppliedSaid[],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): void {
  const notRefused = verdicts.filter((verdict) => verdict?.verdict !== 'rejected').length;
  const short = applied.find((said) => 'count' in said && said.count < notRefused);
  const silent = itemsWhere(skus, (_sku, item) => verdicts[item] === undefined);
  if (short === undefined || !('count' in short) || silent.length === 0) return;
  noted({ kind: 'shortCount', result: short.shown, count: short.count, batchSize: skus.length });
  for (const item of silent)
    verdicts[item] = {
      verdict: 'unknown',
      message: `the answer counts ${short.count} of the ${skus.length} items sent applied (${short.shown}) without saying which: this one may not be`,
    };
}

/**
 * The items a list of SKUs names `rejected`, its name for the reason (`the platform listed this SKU under notFound`);
 * an item a result shows applied or taken is `unknown`, the two disagreeing; one refused by its result too keeps both
 * reasons.
 */
function rejectListed(
  verdicts: (ItemVerdict | undefined)[],
  lists: readonly SkuList[],
  shown: readonly string[][],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): void {
  for (const { field, value, items, reasons } of lists) {
    for (const item of items) {
      const reason = reasons.get(item) ?? `the platform listed this SKU under ${field}`;
      const verdict = verdicts[item];
      if (verdict === undefined) verdicts[item] = { verdict: 'rejected', message: reason };
      else if (verdict.verdict === 'rejected')
        verdicts[item] = { verdict: 'rejected', message: verdict.message ? `${verdict.message}; ${reason}` : reason };
      else if (verdict.verdict !== 'unknown') {
        const results = [...(shown[item] ?? []), resultJson({ [field]: value })];
        noted({ kind: 'conflictingResults', sku: skus[item] as string, results });
        verdicts[item] = {
          verdict: 'unknown',
          message: `the answer gave this item ${results.length} results that disagree: ${results.join('; ')}`,
        };
      }
    }
  }
}

/** Whether a result gives words of its own (a message) or a status word under any field: more than an echo. */
function saysSomething(result: unknown): boolean {
  if (!isRecord(result)) return false;
  if (messageOf(result).message !== undefined) return true;
  return Object.values(result).some(
    (value) => typeof value === 'string' && /\p{L}/u.test(value) && wordVerdict(value).verdict !== 'unknown',
  );
}

/** A result as the platform wrote it, for a warning or a report cell: its JSON (an object's entry with its key). */
function shownResult(entry: PlacedResult): string {
  return quotedJson(JSON.stringify(entry.key === undefined ? entry.result : { [entry.key]: entry.result }) ?? '', 300);
}

/**
 * Results matched by their place alone (neither SKU nor index), one of which quotes in its words a SKU sent that is not
 * its place's item (`"SKU BAD-1 not found"` at GOOD-3's place: a queue worker finishing in another order): the place
 * order is not to be trusted, so every item matched by place alone is `unknown` (sent again: stock is absolute), never
 * another item's verdict. Words quoting the place's own SKU, or none, change nothing (otherSkuQuoted says how a SKU
 * is found in them). Results matched by their index alone (no SKU) are read the same way: an index that fits the batch
 * may still be the platform's own numbering (after its sort, or from 1), and `{"index":2,"message":"SKU BAD-1 not
 * found"}` reported BAD-1 applied and GOOD-3 refused, with no warning (a fresh user test).
 */
function distrustPlacesQuotingOthers(
  matched: Matched,
  verdicts: (ItemVerdict | undefined)[],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): void {
  for (const by of ['place', 'index'] as const) {
    const group = by === 'place' ? matched.byPlace : matched.byIndex;
    for (const { item, entry } of group) {
      const placeSku = skus[item] as string;
      const quoted = otherSkuQuoted(wordsOfResult(entry.result), placeSku, skus);
      if (quoted === undefined) continue;
      const result = shownResult(entry);
      noted({ kind: 'misplacedResults', placeSku, quoted, result, by });
      const message =
        by === 'place'
          ? `the answer's results name neither SKU nor index, and the one at the place of "${placeSku}" quotes "${quoted}", another item sent: ${result}; their order is not to be trusted, so which is this item's is not known`
          : `the answer's results name their items by index alone, and the one at the index of "${placeSku}" quotes "${quoted}", another item sent: ${result}; their numbering is not to be trusted, so which is this item's is not known`;
      for (const placed of group) verdicts[placed.item] = { verdict: 'unknown', message };
      break;
    }
  }
}

/** What a result says in words: a result given as text, or the text under its message fields (nested ones too). */
function wordsOfResult(result: unknown): string[] {
  if (typeof result === 'string') return [result];
  if (!isRecord(result)) return [];
  const fields = recognisedMessageFields()
    .map((field) => result[field])
    .filter((value) => typeof value === 'string');
  const nested = messageOfBody(result);
  return nested === undefined ? fields : [...fields, nested];
}

/** The verdict of an item from the results matched to it: two that disagree leave it `unknown`, naming both. */
function claimedVerdict(
  claims: readonly PlacedResult[],
  sku: string,
  statusField: string | undefined,
  noted: (note: MatchNote) => void,
): ItemVerdict | undefined {
  const verdicts = claims.map((claim) => verdictOf(claim.result, statusField));
  const [first] = verdicts;
  if (verdicts.every((verdict) => sameVerdict(verdict, first))) {
    // A status b2bctl cannot read (`ACTIVE`: a product's own status echoed), said once a run with the setting; a result
    // whose fields disagree, as two results that do.
    if (first?.verdict === 'unknown') {
      const shown = shownResult(claims[0] as PlacedResult);
      noted(
        first.disagrees
          ? { kind: 'conflictingResults', sku, results: [shown] }
          : { kind: 'unknownStatus', sku, result: shown },
      );
    }
    if (first?.verdict !== 'rejected' || verdicts.length === 1) return first;
    // Refused twice (two of its fields): every reason given is kept.
    const messages = [...new Set(verdicts.map((verdict) => (verdict as { message?: string }).message))];
    const message = messages.filter((text) => text !== undefined).join('; ');
    return message === '' ? first : { verdict: 'rejected', message };
  }
  const shown = claims.map(shownResult);
  noted({ kind: 'conflictingResults', sku, results: shown });
  return {
    verdict: 'unknown',
    message: `the answer gave this item ${claims.length} results that disagree: ${shown.join('; ')}`,
  };
}

function sameVerdict(verdict: ItemVerdict | undefined, other: ItemVerdict | undefined): boolean {
  if (verdict?.verdict !== other?.verdict) return false;
  return verdict?.verdict !== 'unsettled' || verdict.status === (other as { status: string }).status;
}

/** An item a result may be about, its SKU fitting several items the order of the answer does not tell apart. */
function ambiguousVerdict(named: string, claims: readonly PlacedResult[]): ItemVerdict {
  const said = claims.map(shownResult).join('; ');
  return {
    verdict: 'unknown',
    message: `the answer names this item only by the SKU "${named}", which fits more than one item sent: ${said}`,
  };
}

/**
 * A refusal the answer holds that b2bctl cannot tie to an item (results numbered from 1 without SKUs, a SKU not sent,
 * an `errors` list or a count of failures beside the results, a batch-level `REJECTED`): any item the answer does not
 * show applied or refused may be the refused one, so each is `unknown` with the refusal's words, never `accepted`.
 */
function unknownUnlessShown(verdicts: (ItemVerdict | undefined)[], refusals: readonly string[]): void {
  const message = `the answer refused an item b2bctl cannot match to the items sent, which may be this one: ${refusals.join('; ')}`;
  verdicts.forEach((verdict, item) => {
    if (verdict === undefined || verdict.verdict === 'unsettled') verdicts[item] = { verdict: 'unknown', message };
  });
}

/**
 * An array of results, or an object keyed by SKU or by index, whatever its values: `{"A1": null, "A2": "OK"}` is one,
 * its `null` a result that says nothing (itemisedAnswer reads an object only when a key names a SKU sent). An object
 * with one `null`, `0` or `[]` was no list at all, and every item, the applied ones too, ended `accepted` (a fresh
 * user test).
 */
function isItemList(value: unknown): value is unknown[] | Record<string, unknown> {
  if (isArray(value)) return value.length > 0;
  return isRecord(value) && Object.keys(value).length > 0;
}

/** One result and what it says of its item: the SKU it names, its index, its place in an array, its key in an object. */
interface PlacedResult {
  result: unknown;
  sku?: string;
  index?: number;
  position?: number;
  key?: string;
}

function arrayResults(results: readonly unknown[], skus: readonly string[]): PlacedResult[] {
  const inferred = inferredSkuField(results, skus);
  return results.map((result, position) => {
    if (!isRecord(result)) return { result, position };
    const fields = inferred === undefined ? usualSkuFields() : [inferred];
    const sku = fields.map((field) => result[field]).find((value) => value !== undefined && value !== null);
    return {
      result,
      position,
      ...(typeof sku === 'string' || typeof sku === 'number' ? { sku: String(sku) } : {}),
      ...(typeof result.index === 'number' ? { index: result.index } : {}),
    };
  });
}

/**
 * The field each result names its SKU by when none uses a usual name (`sku`, `SKU`, `code`, `productCode`): the one
 * field in which every result holds the SKU of an item sent (`codigo` of a store's own schema, `referencia`), when exactly one field does. Results
 * naming their SKU under a name b2bctl does not list, in another order than sent, were matched by place: the item
 * refused reported applied and an applied one rejected (a fresh user test). Two such fields (numeric SKUs beside
 * quantities that happen to be SKUs too) tell nothing, and the place decides as before.
 */
function inferredSkuField(results: readonly unknown[], skus: readonly string[]): string | undefined {
  const records = results.filter(isRecord);
  if (records.some((record) => usualSkuFields().some((field) => record[field] !== undefined))) return undefined;
  if (records.length === 0 || records.length < results.length) return undefined;
  const holdsSentSku = (value: unknown) =>
    (typeof value === 'string' || typeof value === 'number') && namesSentSku(String(value), skus);
  const fields = Object.keys(records[0] as Record<string, unknown>).filter((field) =>
    records.every((record) => holdsSentSku(record[field])),
  );
  return fields.length === 1 ? fields[0] : undefined;
}

/** An object keyed by SKU, or by index when its keys are numbers: either is tried, each checked as in an array. */
function keyedResults(results: Record<string, unknown>): PlacedResult[] {
  return Object.entries(results).map(([key, result]) =>
    /^\d+$/.test(key) ? { result, sku: key, index: Number(key), key } : { result, sku: key, key },
  );
}

interface AnswerShape {
  /** Every index in the answer lies in the batch and names the item of the SKU beside it. */
  indexesFit: boolean;
  /** As many results as items: a result that names nothing is its place's. */
  onePerItem: boolean;
  /** An object keyed by SKU or index, not an array. */
  keyed: boolean;
  /** One result per item, each naming the item at its place, one at least naming it alone: the order sent. */
  inOrder: boolean;
}

/**
 * The results matched to each item; those matched to none; the items a SKU fitting several may be about, by SKU; the
 * items matched by their result's place alone (it names neither SKU nor index), and by its index alone.
 */
interface Matched {
  claims: PlacedResult[][];
  unmatched: PlacedResult[];
  ambiguous: Map<number, string>;
  byPlace: { item: number; entry: PlacedResult }[];
  /** The items matched by their result's index alone (it names no SKU). */
  byIndex: { item: number; entry: PlacedResult }[];
}

/**
 * The results of each item: by index when every index in the answer fits the batch and the SKU beside it; else by the
 * SKU a result names (exactly, then ignoring case and leading zeros when one item alone matches, or when the answer
 * is in the order sent); a result naming neither by its place when the answer has one result per item.
 */
function matchResults(
  results: readonly PlacedResult[],
  skus: readonly string[],
  noted: (note: MatchNote) => void,
): Matched {
  const keyed = results.every((entry) => entry.position === undefined);
  const answer = {
    indexesFit: indexesTrusted(results, skus, keyed, noted),
    onePerItem: results.length === skus.length,
    keyed,
    inOrder: inOrderSent(results, skus),
  };
  const matched: Matched = {
    claims: skus.map(() => []),
    unmatched: [],
    ambiguous: new Map(),
    byPlace: [],
    byIndex: [],
  };
  for (const entry of results) {
    const items = itemsOf(entry, skus, answer, noted);
    if (items.length === 1) {
      matched.claims[items[0] as number]?.push(entry);
      if (entry.sku === undefined)
        (entry.index === undefined ? matched.byPlace : matched.byIndex).push({ item: items[0] as number, entry });
    } else if (items.length === 0) matched.unmatched.push(entry);
    else {
      noted({ kind: 'ambiguousSku', named: entry.sku as string, sent: items.map((item) => skus[item] as string) });
      for (const item of items) {
        matched.ambiguous.set(item, entry.sku as string);
        matched.claims[item]?.push(entry);
      }
    }
  }
  return matched;
}

/** The items a result may be about: one, none (it names nothing sent), or several a SKU fits. */
function itemsOf(
  entry: PlacedResult,
  skus: readonly string[],
  answer: AnswerShape,
  noted: (note: MatchNote) => void,
): number[] {
  const { sku, index } = entry;
  // A key that names a SKU sent is that SKU, even when it is all digits.
  if (answer.keyed && namesSentSku(sku, skus)) return itemsBySku(sku as string, entry.position, skus, answer, noted);
  if (index !== undefined && answer.indexesFit) return [index];
  if (sku !== undefined) {
    const items = itemsBySku(sku, entry.position, skus, answer, noted);
    // An object's number key not sent is an index, which the index warning tells of.
    if (items.length === 0 && !(answer.keyed && index !== undefined))
      noted({ kind: 'strangerSku', sku, result: shownResult(entry) });
    return items;
  }
  // An index not trusted, with no SKU beside it: nothing tells which item the result is about.
  if (index !== undefined) return [];
  return answer.onePerItem && entry.position !== undefined ? [entry.position] : [];
}

/**
 * The items a result's SKU names. A SKU sent twice (two warehouses) is told apart by the result's place when the
 * answer has one result per item; a SKU given back respelled that fits several items, only when the answer is in the
 * order sent. Otherwise every item it fits.
 */
function itemsBySku(
  sku: string,
  position: number | undefined,
  skus: readonly string[],
  answer: AnswerShape,
  noted: (note: MatchNote) => void,
): number[] {
  const exact = itemsWhere(skus, (sent) => sent === sku);
  if (exact.length > 0) return settledByPlace(exact, position, answer.onePerItem);
  const settled = settledByPlace(
    itemsWhere(skus, (sent) => sameLooseSku(sent, sku)),
    position,
    answer.inOrder,
  );
  if (settled.length === 1) noted({ kind: 'respelledSku', sent: skus[settled[0] as number] as string, named: sku });
  return settled;
}

function settledByPlace(items: number[], position: number | undefined, placeTells: boolean): number[] {
  if (items.length <= 1) return items;
  return placeTells && position !== undefined && items.includes(position) ? [position] : items;
}

/**
 * Whether the answer is in the order sent: one result per item, every SKU a result names is its place's item's
 * (exactly or loosely), and at least one result names its item alone, which shows the order is the items'.
 */
function inOrderSent(results: readonly PlacedResult[], skus: readonly string[]): boolean {
  if (results.length !== skus.length) return false;
  const placed = (entry: PlacedResult) => {
    const sent = entry.position === undefined ? undefined : skus[entry.position];
    return sent !== undefined && (entry.sku === undefined || sameLooseSku(sent, entry.sku));
  };
  const alone = (entry: PlacedResult) =>
    entry.sku !== undefined && itemsWhere(skus, (sent) => sameLooseSku(sent, entry.sku as string)).length === 1;
  return results.every(placed) && results.some(alone);
}

function itemsWhere(skus: readonly string[], matches: (sku: string, item: number) => boolean): number[] {
  const items: number[] = [];
  skus.forEach((sku, item) => {
    if (matches(sku, item)) items.push(item);
  });
  return items;
}

function namesSentSku(sku: string | undefined, skus: readonly string[]): boolean {
  return sku !== undefined && skus.some((sent) => sameLooseSku(sent, sku));
}

/** The same SKU but for case and leading zeros, as a platform that stores codes as numbers or in capitals answers it. */
function sameLooseSku(sent: string, named: string): boolean {
  return looseSku(sent) === looseSku(named);
}

/**
 * Whether the answer's indexes can be followed: each lies inside the batch (from 0) and, where the same result names
 * a SKU, is that SKU's item. One that does not (results numbered from 1) makes every index of the answer suspect.
 */
function indexesTrusted(
  results: readonly PlacedResult[],
  skus: readonly string[],
  keyed: boolean,
  noted: (note: MatchNote) => void,
): boolean {
  for (const { index, sku } of results) {
    if (index === undefined) continue;
    // An object's key is one name: a SKU sent, or else an index, which can only be checked against the batch's size.
    if (keyed && namesSentSku(sku, skus)) continue;
    const itemSku = Number.isInteger(index) && index >= 0 ? skus[index] : undefined;
    const fits = itemSku !== undefined && (keyed || sku === undefined || sameLooseSku(itemSku, sku));
    if (fits) continue;
    noted({ kind: 'untrustedIndex', index, sku: keyed ? undefined : sku, batchSize: skus.length, itemSku });
    return false;
  }
  return indexBaseShown(results, skus, keyed, noted);
}

/**
 * Whether the answer shows its indexes count from 0: one of them is 0, or a SKU beside one agrees with it. A short
 * list of refusals by index alone (`[{"index": 2, "status": "REJECTED"}]`) may count from 1, and read from 0 it
 * named the refused item's neighbour, the refused one left `accepted` (a fresh user test): not followed, so the
 * refusal is one b2bctl cannot match, and the items it may be about are `unknown`.
 */
function indexBaseShown(
  results: readonly PlacedResult[],
  skus: readonly string[],
  keyed: boolean,
  noted: (note: MatchNote) => void,
): boolean {
  const indexed = results.filter(({ index, sku }) => index !== undefined && !(keyed && namesSentSku(sku, skus)));
  const first = indexed[0];
  if (first?.index === undefined) return true;
  if (indexed.some(({ index, sku }) => index === 0 || (!keyed && sku !== undefined))) return true;
  noted({ kind: 'unshownIndexBase', index: first.index, batchSize: skus.length });
  return false;
}

function verdictOf(result: unknown, statusField: string | undefined): ItemVerdict | undefined {
  if (typeof result === 'boolean') return { verdict: result ? 'applied' : 'rejected' };
  if (typeof result === 'string') return sentenceVerdict(result);
  if (!isRecord(result)) return undefined;
  const fields = statusField ? [statusField] : recognisedStatusFields();
  const said = fields.flatMap((field) => {
    const verdict = fieldVerdict(field, valueAtPath(result, field));
    return verdict === undefined ? [] : [{ field, verdict }];
  });
  const [first] = said;
  if (first === undefined) return unlistedBooleanVerdict(result);
  if (appliesAndRefuses(said, result))
    return {
      verdict: 'unknown',
      message: `the answer's result for this item both applies and refuses it: ${resultJson(result)}`,
      disagrees: true,
    };
  return withReason(first.verdict, result, first.field);
}

/**
 * A result one of whose fields says applied while another refuses (`"status": "APPLIED"` beside `"error": "Produto
 * não encontrado"`, `"statusCode": 404`, or an `errors` list with entries): the first field alone read it `applied`,
 * its error in the report and exit 0 (a user test). Two fields that disagree are two results that do.
 */
function appliesAndRefuses(said: readonly { verdict: ItemVerdict }[], result: Record<string, unknown>): boolean {
  if (!said.some(({ verdict }) => verdict.verdict === 'applied')) return false;
  if (said.some(({ verdict }) => verdict.verdict === 'rejected')) return true;
  return ['error', 'erro', 'errors', 'erros'].some((field) => {
    const value = result[field];
    return (isArray(value) && value.length > 0) || (isRecord(value) && Object.keys(value).length > 0);
  });
}

/**
 * A verdict with the result's reason: under a field b2bctl lists; else, for a refusal whose result says more than a
 * bare `REJECTED` (a status such as `SKU_NOT_FOUND`, fields b2bctl does not read), the result as its JSON, where the
 * reason is; a status b2bctl does not know, quoted whole.
 */
function withReason(verdict: ItemVerdict, result: Record<string, unknown>, statusField: string): ItemVerdict {
  if (verdict.verdict === 'unknown') return { ...verdict, message: `${verdict.message}: ${resultJson(result)}` };
  // `error: "text"` is its own message.
  if ('message' in verdict) return verdict;
  const reason = messageOf(result);
  if (reason.message !== undefined || verdict.verdict !== 'rejected') return { ...verdict, ...reason };
  const status = valueAtPath(result, statusField);
  const bare =
    typeof status !== 'string' || rejectedWords().includes(status.trim().toLowerCase()) || /^\d+$/.test(status.trim());
  const read = new Set([...usualSkuFields(), 'index', ...recognisedStatusFields()]);
  const saysMore = !bare || Object.keys(result).some((field) => !read.has(field));
  if (saysMore) return { verdict: 'rejected', message: `the platform refused this item: ${resultJson(result)}` };
  // A bare code (`{"sku":"A2","statusCode":404}`) is all the reason there is: said, not an empty line in the report.
  const code = typeof status === 'number' || (typeof status === 'string' && /^\d+$/.test(status.trim()));
  return code
    ? { verdict: 'rejected', message: `the platform answered ${String(status).trim()} for this item` }
    : verdict;
}

function resultJson(result: unknown): string {
  return quotedJson(JSON.stringify(result) ?? '', 300);
}

/**
 * A result with no status b2bctl lists, judged by its booleans: `false` under any of them (`"updated": false`) may be a
 * refusal, or "nothing to change", so `unknown`, never `accepted`; `true` under a name that says applied
 * (`"updated": true`) is applied; otherwise nothing is known.
 */
function unlistedBooleanVerdict(result: Record<string, unknown>): ItemVerdict | undefined {
  const booleans = Object.entries(result).filter(([, value]) => typeof value === 'boolean');
  const denied = booleans.find(([, value]) => value === false);
  if (denied !== undefined)
    return {
      verdict: 'unknown',
      message: `the answer gave this item "${denied[0]}": false, which b2bctl cannot read as applied or refused: ${resultJson(result)}`,
    };
  const saysApplied = booleans.some(([field]) => wordsOf(field).some((word) => appliedWords().includes(word)));
  return saysApplied ? { verdict: 'applied', ...messageOf(result) } : undefined;
}

/** A result given as text: a status word, or a sentence (`ERRO: produto inexistente`) that is its own reason. */
function sentenceVerdict(text: string): ItemVerdict {
  const verdict = wordVerdict(text);
  const sentence = /\s/.test(text.trim());
  return verdict.verdict === 'rejected' && sentence ? { verdict: 'rejected', message: text.trim() } : verdict;
}

function messageOf(result: Record<string, unknown>): { message?: string } {
  for (const field of recognisedMessageFields()) {
    const value = result[field];
    if (typeof value === 'string' && value.trim() !== '') return { message: value };
  }
  // An item refused in a nested shape (`errors: [{field, message}]`, `error: {description}`): the same reader as refusals.
  const nested = messageOfBody(result);
  return nested === undefined ? {} : { message: nested };
}

/** The queue route's batch id, or undefined when the 202 names none (the batch was still accepted). */
export function readQueueAnswer(body: unknown, setting?: string): string | undefined {
  const found = firstAt(body, candidatePaths(setting, recognisedQueueIdPaths()), isIdLike);
  return found ? String(found.value) : undefined;
}

/**
 * What the queue route's 2xx says against the batch, read for the signs of refusal the batch route's answer is read
 * for (readBatchAnswer): per item, `rejected` when a result refuses it, `unknown` when a refusal may be about it (a
 * batch-level `"status": "REJECTED"`, `"success": false`, an `errors` list), undefined when nothing refuses it (it stays
 * queued); undefined for an answer with no sign of refusal. A platform refusing every batch in a 200 gave a clean
 * "5000 queued; exit 0" night, its words nowhere (a fresh user test).
 */
export function readQueueRefusal(
  body: unknown,
  skus: readonly string[],
  noted: (note: MatchNote) => void = () => {},
): (ItemVerdict | undefined)[] | undefined {
  const refused = readAnswer(body, skus, {}, noted, { silentMayBeDropped: false })?.map((verdict) =>
    verdict?.verdict === 'rejected' || verdict?.verdict === 'unknown' ? verdict : undefined,
  );
  return refused?.some((verdict) => verdict !== undefined) ? refused : undefined;
}
