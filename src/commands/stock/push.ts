import { once } from '../../lib/once.js';
import { reportEntry, runBulkJob, type PendingRecord, type ReportEntry } from '../../bulk/bulk-job.js';
import { bodyLimitLine, FittingBatches } from '../../bulk/fitting-batches.js';
import { countOf } from '../../lib/plural.js';
import type { InputFlags, SendFlags } from '../../bulk/flags.js';
import { type Outcome, type ReportRow, withPlaceOf } from '../../bulk/report.js';
import type { Context } from '../../context.js';
import type { Session } from '../../config/session.js';
import {
  batchRouteMaxItems,
  queueRouteMaxItems,
  type StockItem,
  type StockSchema,
  toWireItem,
  wireItemJsonWriter,
} from '../../domain/stock.js';
import { UsageError } from '../../base/errors.js';
import type { PlatformClient } from '../../platform/client.js';
import { itemisedRefusal, type MatchNote, putStockBatch, queueStockBatch } from '../../platform/stock.js';
import { newStockChecker, stockCatalogue } from './stock-input.js';
import type { RecordChecker } from '../../bulk/validation-pass.js';
import { loadStockSchema } from '../../io/stock-schema.js';

export type StockRoute = 'auto' | 'batch' | 'queue';

/** An item under the store's field names (toWireItem), as the request carries it. */
type WireItem = ReturnType<typeof toWireItem>;

export interface StockPushOptions extends InputFlags, SendFlags {
  file: string;
  route: StockRoute;
  batchSize?: number;
  /** `--schema FILE`: the store's names for the item fields. */
  schema?: string;
  /** `--allow-zero-price`: a price of 0 is meant. */
  allowZeroPrice?: boolean;
}

/** The wire field names in force: `--schema`, else the `stock.schema` setting of `settings` (the profile's). */
function schemaInForce(flag: string | undefined, settings: Pick<Session, 'get' | 'origin'> | undefined): StockSchema {
  return flag
    ? loadStockSchema(flag, { kind: 'flag', flag: '--schema', value: flag })
    : loadStockSchema(settings?.get('stock.schema'), {
        kind: 'setting',
        described: settings?.origin('stock.schema') ?? 'the stock.schema setting',
      });
}

/**
 * Pushes a stock and price file through the 50-item batch route or the 200-item queue route,
 * paced, retried, reported, resumable, and locked per profile so two cron runs never overlap.
 */
export async function run(options: StockPushOptions, context: Context): Promise<void> {
  // The profile's settings, given by prepare(): the run opens the profile itself, so that a refusal of the profile or
  // of a setting read here ends with the closing line, as every other refusal of a bulk run does.
  let settings: Pick<Session, 'get' | 'origin'> | undefined;
  // --schema is read once the run's flags are settled: a --resume restores the interrupted run's.
  const loadSchema = () => schemaInForce(options.schema, settings);
  let schema: StockSchema | undefined;
  let wireJson: ((item: StockItem) => string) | undefined;
  let threshold = 0;
  let route: 'batch' | 'queue' = 'batch';
  const warn = answerWarnings(context);
  // Made by plan(), once the batch size is known; a 413 makes the rest of the run's requests smaller.
  let fitting: FittingBatches | undefined;
  // The pass's checker, made by newChecker: its warnings are the run's advisories.
  let checker: RecordChecker<StockItem> | undefined;
  await runBulkJob<StockItem, WireItem>(
    {
      name: 'stock push',
      unit: 'items',
      file: options.file,
      flags: options,
      catalogue: stockCatalogue,
      // Read when the pass starts: a resumed run's --allow-zero-price is restored by then.
      prepare(session) {
        settings = session;
        threshold = session.get('stock.autoThreshold');
        // Known before the validation pass, which spools each valid item as the JSON the request carries.
        if (!options.resume) schema = loadSchema();
      },
      newChecker: () => (checker = newStockChecker({ allowZeroPrice: options.allowZeroPrice })),
      // SKUs the same but for case or leading zeros, as the checker found them judging the record.
      advisories: () => checker?.takeWarnings() ?? [],
      keyOf: (record) => String(record.values.sku ?? ''),
      // Read once the pass ends: a resumed run's --allow-zero-price is restored by then, and judges as it did.
      get listedBy() {
        return { verb: 'stock validate', flags: options.allowZeroPrice ? ['--allow-zero-price'] : [] };
      },
      lockName: 'stock-push',
      // Stock values are absolute: an item sent twice is the item sent once.
      resumeOfUnknown: 'sends again',
      outcomes: ['applied', 'accepted', 'queued', 'rejected', 'invalid', 'failed', 'unknown'],
      sentOutcomes: ['applied', 'accepted', 'queued'],
      shaping: [
        { flag: '--route', key: 'route', unset: 'auto' },
        { flag: '--batch-size', key: 'batchSize' },
        { flag: '--schema', key: 'schema', path: true },
        { flag: '--allow-zero-price', key: 'allowZeroPrice', unset: false },
      ],
      // A resumed run's --schema is restored by the time the first valid record is judged.
      sendJson: (item) => (wireJson ??= wireItemJsonWriter((schema ??= loadSchema())))(item),
      plan(valid) {
        schema ??= loadSchema();
        const planned = planRoute(options, valid, threshold, context);
        route = planned.route;
        const batchSize = planned.batchSize;
        fitting = new FittingBatches(batchSize, context.log.warn);
        return {
          batchSize,
          description: `of up to ${countOf(batchSize, 'items')} through the ${route} route`,
          // Recorded for --resume as the route taken, so the rest of the file goes the same way.
          flagsAsRun: { route },
        };
      },
      sendingLesson() {
        const note = fitting?.summary();
        return note ? bodyLimitLine(note) : fitting?.wholeRefusalLine();
      },
      sendBatch: (client, batch, signal) =>
        (fitting as FittingBatches).send(
          batch,
          (part) =>
            route === 'batch'
              ? sendToBatchRoute(client, part, signal, warn.batch)
              : sendToQueueRoute(client, part, signal, warn.queue),
          bodyBytes,
        ),
    },
    context,
  );
}

/** What a batch route's answer warns of, and a queue route's. */
interface AnswerWarnings {
  unitemised: (said: string | undefined) => void;
  pending: (status: string) => void;
  noted: (note: MatchNote) => void;
}

/** The warnings of reading the stock routes' answers, each once a run. */
function answerWarnings(context: Context): { batch: AnswerWarnings; queue: Pick<AnswerWarnings, 'noted'> } {
  const unitemised = once(context.log.warn);
  const pending = once(context.log.warn);
  return {
    batch: {
      // What the answer said is shown as it came (an error-like message in a 2xx is the platform's to mean).
      // Words beside the 2xx may tell of a failure b2bctl does not read (`49 de 50 itens atualizados`): said so, since
      // a cron wrapper sees only exit 0 (a user test); the wording never decides an outcome.
      unitemised: (said) =>
        unitemised(
          `warning: the stock batch route answered 2xx without a per-item result b2bctl recognises${said === undefined ? '' : `, saying "${said}"`}; those items are reported "accepted".${said === undefined ? '' : ' Those words may tell of a failure, which b2bctl does not read from words: check the report and the store.'} If the answer holds a list of per-item results, set answers.stockBatch.results (and answers.stockBatch.status) to read them; b2bctl --verbose stock push shows the answer (doctor does not send to the stock routes, which write).`,
        ),
      // The results were recognised: only their status says the items are not applied yet.
      pending: (status) =>
        pending(
          `warning: the stock batch route answered a per-item status saying the item is taken but not yet applied ("${status}"); those items are reported "accepted".`,
        ),
      noted: matchWarnings(context, 'batch'),
    },
    queue: { noted: matchWarnings(context, 'queue') },
  };
}

/** The size of the request body that carries `batch` (`{"items":[...]}`), for a 413's message. */
function bodyBytes(batch: readonly PendingRecord<WireItem>[]): number {
  return batch.reduce((total, entry) => total + Buffer.byteLength(entry.json) + 1, 11);
}

/** The route and batch size of a push of `valid` items: `--route auto` picks by the stock.autoThreshold setting. */
function planRoute(
  options: Pick<StockPushOptions, 'route' | 'batchSize'>,
  valid: number,
  threshold: number,
  context: Context,
): { route: 'batch' | 'queue'; batchSize: number } {
  let route: 'batch' | 'queue' = options.route === 'queue' ? 'queue' : 'batch';
  if (options.route === 'auto') {
    route = valid > threshold ? 'queue' : 'batch';
    context.log.info(
      `stock push: route ${route} (${countOf(valid, 'items')} ${route === 'queue' ? '>' : '<='} ${threshold}, the stock.autoThreshold setting)`,
    );
  }
  const maxItems = route === 'batch' ? batchRouteMaxItems : queueRouteMaxItems;
  const batchSize = options.batchSize ?? maxItems;
  // With auto the night's size picks the route: a --batch-size for the queue route (a proxy's limit) is no mistake
  // on a small night, which the crontab line did not choose.
  if (batchSize > maxItems && options.route === 'auto') {
    context.log.info(
      `stock push: --batch-size ${batchSize} is more than the ${route} route takes: batches of ${maxItems} items`,
    );
    return { route, batchSize: maxItems };
  }
  if (batchSize > maxItems)
    throw new UsageError(
      `--batch-size ${batchSize} is more than the ${route} route takes (${maxItems} items per request); nothing was sent.`,
    );
  return { route, batchSize };
}

/**
 * Batch route: one request per batch, each item reported as the answer says. An item the answer
 * does not itemise is `accepted` (the platform took it with a 2xx), never failed: the document does
 * not show the per-item result, so not recognising it says nothing about the item; unless the answer shows a
 * refusal it does not tie to an item, or other items applied beside it left out, which makes the item `unknown`
 * (readBatchAnswer).
 */
async function sendToBatchRoute(
  client: PlatformClient,
  batch: PendingRecord<WireItem>[],
  signal: AbortSignal,
  warn: AnswerWarnings,
): Promise<ReportEntry[]> {
  const skus = batch.map((entry) => entry.key);
  let untrustedIndex = false;
  const noted = (note: MatchNote) => {
    if (note.kind === 'untrustedIndex' || note.kind === 'unshownIndexBase') untrustedIndex = true;
    warn.noted(note);
  };
  let answer: Awaited<ReturnType<typeof putStockBatch>>;
  try {
    answer = await putStockBatch(
      client,
      batch.map((entry) => entry.json),
      skus,
      signal,
      noted,
    );
  } catch (error) {
    const refusal = itemisedRefusal(client, error, skus, noted);
    if (refusal === undefined) throw error;
    const { status, message } = refusal.error;
    return batch.map((entry, index) =>
      reportEntry(rowOf(entry, 'failed', status, undefined, refusal.messages[index] ?? message), entry),
    );
  }
  const { status, verdicts, said } = answer;
  return batch.map((entry, index) => {
    const verdict = verdicts?.[index];
    if (verdict?.verdict === 'applied' || verdict?.verdict === 'rejected' || verdict?.verdict === 'unknown')
      return reportEntry(rowOf(entry, verdict.verdict, status, undefined, verdict.message), entry);
    if (verdict?.verdict === 'unsettled') {
      warn.pending(verdict.status);
      return reportEntry(
        rowOf(entry, 'accepted', status, undefined, `the platform answered "${verdict.status}" for this item`),
        entry,
      );
    }
    // The index warning already told why these items are not itemised, and the setting the other one names would not help.
    if (!untrustedIndex) warn.unitemised(said);
    const message = `the answer did not itemise this item${said === undefined ? '' : `; it said "${said}"`}`;
    return reportEntry(rowOf(entry, 'accepted', status, undefined, message), entry);
  });
}

/**
 * The warnings of matching a stock route's results to the items, each once a run: an index not followed (results
 * numbered from 1), SKUs given back spelled otherwise than sent and matched ignoring case and leading zeros.
 */
function matchWarnings(context: Context, route: 'batch' | 'queue'): (note: MatchNote) => void {
  const warned = new Set<MatchNote['kind']>();
  return (note) => {
    if (warned.has(note.kind)) return;
    warned.add(note.kind);
    context.log.warn(matchWarning(note).replace('the stock batch route', `the stock ${route} route`));
  };
}

function matchWarning(note: MatchNote): string {
  switch (note.kind) {
    case 'respelledSku':
      return `warning: the stock batch route named items by SKUs spelled otherwise than sent ("${note.named}" for "${note.sent}"); b2bctl matched each to the item whose SKU is the same but for case and leading zeros (where two are, by its place in an answer in the order sent).`;
    case 'strangerSku':
      return `warning: the stock batch route answered a result for SKU "${note.sku}", which is not in the batch sent: ${note.result}; b2bctl matched it to no item.`;
    case 'unmatchedRefusal':
      return `warning: the stock batch route refused an item b2bctl cannot match to the items sent: ${note.result}; every item of that batch the answer does not show applied or refused is reported "unknown" (the errors file holds them to send again), never "accepted".`;
    case 'contradictedBatch':
      return `warning: the stock batch route showed every item of a batch applied, but refused the batch beside them: ${note.result}; b2bctl reports those items "unknown" (the errors file holds them to send again).`;
    case 'conflictingResults':
      return `warning: the stock batch route answered results that disagree for SKU "${note.sku}": ${note.results.join('; ')}; b2bctl reports such an item "unknown" (the errors file holds it to send again).`;
    case 'ambiguousSku':
      return `warning: the stock batch route named a result by the SKU "${note.named}", which fits ${note.sent.length} items sent (${[...new Set(note.sent)].map((sku) => `"${sku}"`).join(', ')}), and the order of its results does not tell which; b2bctl reports those items "unknown" (the errors file holds them to send again).`;
    case 'leftOutItems':
      return `warning: the stock batch route answered per-item results that show items applied and say nothing of others (${leftOutSkus(note)}); b2bctl reports each item such an answer leaves out "unknown", since the platform may have dropped it (the errors file holds them to send again; stock values are absolute, so sending them again is harmless).`;
    case 'misplacedResults':
      return misplacedWarning(note);
    case 'unknownStatus':
      return `warning: the stock batch route answered a result for SKU "${note.sku}" whose status b2bctl knows as neither applied, refused nor pending: ${note.result}; b2bctl reports such an item "unknown" (the errors file holds it to send again; stock values are absolute, so sending it again is harmless). If that field is not the item's outcome (a product's own status sent back), set answers.stockBatch.status to the field that is, or to one the results do not hold, so that they are read as the items sent back.`;
    case 'unreadResult':
      return `warning: the stock batch route answered a result for SKU "${note.sku}" that says nothing b2bctl reads as applied, refused or pending: ${note.result}; b2bctl reports such an item "unknown" (the errors file holds it to send again; stock values are absolute, so sending it again is harmless). If the results hold their status under another field, set answers.stockBatch.status to it.`;
    case 'shortCount':
      return `warning: the stock batch route counted fewer items applied than it was sent and not refused (${note.result} in a batch of ${countOf(note.batchSize, 'items')}) without saying which; b2bctl reports each item the answer does not itemise "unknown" (the errors file holds them to send again; stock values are absolute, so sending them again is harmless).`;
    case 'unknownBatchStatus':
      return `warning: the stock batch route answered a batch with ${note.said}, and no per-item result: ${note.result}; b2bctl reports the items of such a batch "unknown", never "queued" or "accepted" (the errors file holds them to send again; stock values are absolute, so sending them again is harmless). b2bctl --verbose stock push shows the answer. No setting teaches b2bctl a status word; on the batch route, if that field is not the batch's outcome, set answers.stockBatch.status to the field that is.`;
    case 'noneListed':
      return `warning: the stock batch route answered a results list that names none of the items sent (${note.list}, for a batch of ${countOf(note.batchSize, 'items')}); b2bctl reports those items "unknown", since the platform may have applied none (the errors file holds them to send again; stock values are absolute, so sending them again is harmless). b2bctl --verbose stock push shows the answer.`;
    case 'untrustedIndex':
      return untrustedIndexWarning(note);
    case 'unshownIndexBase':
      return `warning: the stock batch route answered per-item results by index alone (the first ${note.index}), none of them 0 and no SKU beside them, so b2bctl cannot tell whether they count from 0 or from 1 in a batch of ${countOf(note.batchSize, 'items')}; it does not follow them: an item they may be about is reported "unknown" when they refuse one (the errors file holds them to send again).`;
  }
}

/** Results matched by place or by index alone, one quoting another item's SKU: the same distrust, in its own words. */
function misplacedWarning(note: Extract<MatchNote, { kind: 'misplacedResults' }>): string {
  const matched =
    note.by === 'place'
      ? `name neither SKU nor index, matched by their place, but the one at the place of "${note.placeSku}"`
      : `name their items by index alone, but the one at the index of "${note.placeSku}"`;
  const trust = note.by === 'place' ? 'their order' : 'their numbering';
  return `warning: the stock batch route answered per-item results that ${matched} quotes "${note.quoted}", another item of the batch: ${note.result}; b2bctl does not trust ${trust}: each item of such a batch matched by ${note.by} is reported "unknown" (the errors file holds them to send again; stock values are absolute, so sending them again is harmless).`;
}

/** The SKUs an answer left out, the first three of them, and of how large a batch. */
function leftOutSkus(note: Extract<MatchNote, { kind: 'leftOutItems' }>): string {
  const named = note.skus.slice(0, 3).map((sku) => `"${sku}"`);
  const more = note.skus.length > 3 ? ` and ${note.skus.length - 3} more` : '';
  return `${named.join(', ')}${more} of a batch of ${countOf(note.batchSize, 'items')}`;
}

function untrustedIndexWarning(note: Extract<MatchNote, { kind: 'untrustedIndex' }>): string {
  const result = note.sku === undefined ? 'a result' : `the result for SKU "${note.sku}"`;
  const which =
    note.itemSku === undefined
      ? `${result} gives index ${note.index}, outside a batch of ${countOf(note.batchSize, 'items')} numbered from 0`
      : `${result} gives index ${note.index}, which is "${note.itemSku}" in the batch, numbered from 0`;
  return `warning: the stock batch route answered per-item results whose index does not fit the items sent (${which}); b2bctl does not follow those indexes: a result is matched by the SKU it names, and an item no result names is reported "unknown" when the answer shows others applied or refuses an item b2bctl cannot match, else "accepted" (the answer did not itemise it).`;
}

/**
 * Queue route: the batch is accepted (or retried) whole; each item is reported with the batch id, `queued`; but an
 * item the 2xx refuses is `rejected`, and one a refusal in it may be about `unknown`, quoting the answer
 * (readQueueRefusal).
 */
async function sendToQueueRoute(
  client: PlatformClient,
  batch: PendingRecord<WireItem>[],
  signal: AbortSignal,
  warn: Pick<AnswerWarnings, 'noted'>,
): Promise<ReportEntry[]> {
  const { status, batchId, refused } = await queueStockBatch(
    client,
    batch.map((entry) => entry.json),
    batch.map((entry) => entry.key),
    signal,
    warn.noted,
  );
  return batch.map((entry, index) => {
    const verdict = refused?.[index];
    return verdict?.verdict === 'rejected' || verdict?.verdict === 'unknown'
      ? reportEntry(rowOf(entry, verdict.verdict, status, batchId, verdict.message), entry)
      : reportEntry(rowOf(entry, 'queued', status, batchId), entry);
  });
}

/** An item's report row (see withPlaceOf: no object spread per item). */
function rowOf(
  entry: PendingRecord<WireItem>,
  outcome: Outcome,
  status: number,
  id: string | undefined,
  message?: string,
): ReportRow {
  return withPlaceOf<ReportRow>({ line: entry.line, key: entry.key, outcome, status, id, message }, entry);
}
