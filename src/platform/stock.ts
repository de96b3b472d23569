import { type PlatformClient, type PlatformResponse, quotedBodyOf } from './client.js';
import {
  readBatchAnswer,
  readQueueAnswer,
  readQueueRefusal,
  type ItemVerdict,
  type MatchNote,
} from './answers/stock.js';
import { ExitCode, messageOfBody, PlatformError } from '../base/errors.js';

export type { ItemVerdict, MatchNote } from './answers/stock.js';

/** `{"items":[...]}` from the items' JSON texts: what JSON.stringify({ items }) writes, byte for byte. */
function itemsBody(itemsJson: readonly string[]): string {
  return `{"items":[${itemsJson.join(',')}]}`;
}

/**
 * `PUT /v1/stock/batch`: 1 to 50 items, a result per item. Setting stock is absolute, so repeating
 * the request after an unclear failure is harmless and the client may retry it. Resolves to one
 * verdict per item in the order sent (the items as their wire JSON), or undefined when the 2xx answer does not itemise them,
 * and the status the platform gave.
 */
export async function putStockBatch(
  client: PlatformClient,
  itemsJson: readonly string[],
  skus: readonly string[],
  signal?: AbortSignal,
  noted?: (note: MatchNote) => void,
): Promise<{ status: number; verdicts: (ItemVerdict | undefined)[] | undefined; said: string | undefined }> {
  const answer = await sendStockBatch(client, {
    method: 'PUT',
    path: client.route('paths.stockBatch'),
    jsonBody: itemsBody(itemsJson),
    safeToRepeat: true,
    signal,
  });
  // Read from the body as quoted, its secrets masked: what it says of each item, or of none, goes into the report
  // rows and the warnings (a user test: a 2xx's words echoing the session's token), and a SKU is no secret.
  const quoted = quotedBodyOf(answer);
  const verdicts = readBatchAnswer(quoted, skus, batchAnswerSettings(client), noted);
  // A 2xx is the platform taking the batch; what it said beside no per-item result is passed on, not judged.
  return { status: answer.status, verdicts, said: verdicts === undefined ? messageOfBody(quoted) : undefined };
}

function batchAnswerSettings(client: PlatformClient) {
  return {
    results: client.session.get('answers.stockBatch.results'),
    status: client.session.get('answers.stockBatch.status'),
  };
}

/**
 * A 4xx refusing the batch whose body itemises it (a 422 with `results` or `errors` naming the SKU and its message):
 * each item's error line with the platform's words for that item; for an item the body does not refuse, the batch's
 * line naming the items it does (othersLine); undefined for one refused without words (the general line stands).
 * Undefined when the error is no such refusal; refused credentials never are.
 */
export function itemisedRefusal(
  client: PlatformClient,
  error: unknown,
  skus: readonly string[],
  noted?: (note: MatchNote) => void,
): { error: PlatformError; messages: (string | undefined)[] } | undefined {
  if (!(error instanceof PlatformError) || error.status < 400 || error.status > 499) return undefined;
  if (error.exitCode === ExitCode.authFailed) return undefined;
  // Every item of a refused batch fails: the notes that make an item `unknown` would say what is not so here.
  const failedAnyway = new Set<MatchNote['kind']>([
    'unmatchedRefusal',
    'contradictedBatch',
    'conflictingResults',
    'ambiguousSku',
    'leftOutItems',
    'misplacedResults',
    'unreadResult',
    'shortCount',
    'unknownBatchStatus',
    'noneListed',
  ]);
  const verdicts = readBatchAnswer(error.body, skus, batchAnswerSettings(client), (note) => {
    if (!failedAnyway.has(note.kind)) noted?.(note);
  });
  // The item's own words in the same line as the batch's: `PUT … failed with HTTP 422: <the item's message>`.
  const messages = (verdicts ?? []).map((verdict) =>
    verdict?.verdict === 'rejected' && verdict.message !== undefined
      ? new PlatformError(error.status, error.request, { message: verdict.message }).message
      : undefined,
  );
  if (!messages.some((message) => message !== undefined)) return undefined;
  // An item the body does not refuse failed with the batch: the batch's line, naming the items it refuses.
  const others = othersLine(error, verdicts ?? [], skus);
  const refused = (item: number) => verdicts?.[item]?.verdict === 'rejected';
  return { error, messages: messages.map((message, item) => message ?? (refused(item) ? undefined : others)) };
}

/**
 * The line of an item a refused batch's body does not name, when it names others: the batch's own words, if any, and
 * the SKUs it names, never another item's words (`{"errors":[{"sku":"A2","message":"Product not found"}]}` put
 * "Product not found" on every item of the batch, and the errors file sent an operator looking for products that
 * exist: a fresh user test).
 */
function othersLine(error: PlatformError, verdicts: readonly (ItemVerdict | undefined)[], skus: readonly string[]) {
  const named = [...new Set(skus.filter((_sku, item) => verdicts[item]?.verdict === 'rejected'))];
  const shown = named.slice(0, 3).join(', ') + (named.length > 3 ? ` and ${named.length - 3} more` : '');
  const itemWords = verdicts.map((verdict) => (verdict?.verdict === 'rejected' ? verdict.message : undefined));
  const lead = batchWords(error.body);
  const own = lead === undefined || itemWords.includes(lead) ? '' : `${lead.replace(/[\s.:;]+$/, '')}; `;
  const message = `${own}the platform refused the batch, naming ${shown} (not this item)`;
  return new PlatformError(error.status, error.request, { message }).message;
}

/** The words a refused batch's body says of the batch itself (`message`, `mensagem`, `error` as text, `detail`). */
function batchWords(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const said = ['message', 'mensagem', 'error', 'erro', 'detail', 'title'].map((field) => record[field]);
  return said.find((value): value is string => typeof value === 'string' && value.trim() !== '');
}

/**
 * `POST /api/v1/stocks/batch`: up to 200 items, accepted for asynchronous processing; resolves to the batch id, the
 * status the platform gave, and, when the 2xx shows a refusal (readQueueRefusal), the items it refuses or may refuse.
 */
export async function queueStockBatch(
  client: PlatformClient,
  itemsJson: readonly string[],
  skus: readonly string[],
  signal?: AbortSignal,
  noted?: (note: MatchNote) => void,
): Promise<{ status: number; batchId: string | undefined; refused: (ItemVerdict | undefined)[] | undefined }> {
  const answer = await sendStockBatch(client, {
    method: 'POST',
    path: client.route('paths.stockQueue'),
    jsonBody: itemsBody(itemsJson),
    safeToRepeat: true,
    signal,
  });
  return {
    status: answer.status,
    batchId: readQueueAnswer(answer.body, client.session.get('answers.stockQueue.id')),
    // Its words go into the report rows: quoted, secrets masked, as putStockBatch reads them.
    refused: readQueueRefusal(quotedBodyOf(answer), skus, noted),
  };
}

/**
 * Sends a stock batch to either route. A 5xx the platform answered (a 500 included, which is not retried) may come
 * after it stored the batch, as for a customer create: the client makes it ambiguous (applied-write.ts: `unknown`,
 * sent again by a resume, harmless with absolute values), never a refusal ("failed", "to fix"). A 502, 503 or 504 on
 * every attempt too (unknownWhenKeptFailing), though still the platform unavailable (no status: 3 such batches in a
 * row stop the run, as before); a 429 on every attempt was refused each time, and stays failed.
 */
async function sendStockBatch(
  client: PlatformClient,
  request: Parameters<PlatformClient['send']>[0],
): Promise<PlatformResponse<unknown>> {
  return await client.send<unknown>({ ...request, effect: 'applied the batch', unknownWhenKeptFailing: true });
}
