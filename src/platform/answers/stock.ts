import { messageOfBody } from '../../base/errors.js';
import { candidatePaths, firstAt, isArray, isIdLike, isRecord, valueAtPath } from './shapes.js';

/**
 * The stock routes' answers. The document says the batch route gives "a per-item result in the
 * response" without showing it, and shows nothing of the queue route's 202. We recognise the
 * plausible shapes; what we cannot match is reported `accepted` (the platform took the request
 * without itemising it), never failed.
 */

// The lists below are built at each call, in function bodies, not once at module load: mutation testing switches its
// changes at run time, inside functions; a few short arrays per answer cost nothing beside the request itself.
function recognisedResultPaths(): readonly string[] {
  return ['', 'results', 'items', 'data', 'result', 'data.results', 'data.items'];
}
function recognisedStatusFields(): readonly string[] {
  return ['status', 'result', 'outcome', 'state', 'success', 'applied', 'ok', 'valid', 'error'];
}
function recognisedMessageFields(): readonly string[] {
  return ['message', 'reason', 'error', 'errorMessage', 'detail', 'description'];
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
function appliedWords(): readonly string[] {
  return ['ok', 'applied', 'success', 'succeeded', 'successful', 'updated', 'done', 'true', '200'];
}
function rejectedWords(): readonly string[] {
  return ['error', 'rejected', 'failed', 'failure', 'invalid', 'false', 'not_found', '422', '400'];
}

export type ItemVerdict =
  { verdict: 'applied' | 'rejected'; message?: string } | { verdict: 'unsettled'; status: string };

export interface BatchAnswerSettings {
  results?: string;
  status?: string;
}

/**
 * One verdict per sent item (in the order sent) when the answer itemises them; undefined when no
 * per-item result can be matched to the items, so the caller reports them `accepted`.
 */
export function readBatchAnswer(
  body: unknown,
  skus: readonly string[],
  settings: BatchAnswerSettings = {},
): (ItemVerdict | undefined)[] | undefined {
  // The first recognised place whose entries match the items sent: `{"items":{…}}` is itself an
  // object of objects, so being list-shaped is not enough.
  for (const path of candidatePaths(settings.results, recognisedResultPaths())) {
    const list = path === '' ? body : valueAtPath(body, path);
    if (!isItemList(list)) continue;
    const matched = isArray(list) ? matchArray(list, skus) : skus.map((sku, index) => list[sku] ?? list[String(index)]);
    const verdicts = matched.map((result) => (result === undefined ? undefined : verdictOf(result, settings.status)));
    if (verdicts.some((verdict) => verdict !== undefined)) return verdicts;
  }
  return undefined;
}

/** An array of results, or an object keyed by SKU or by index. */
function isItemList(value: unknown): value is unknown[] | Record<string, unknown> {
  if (isArray(value)) return value.length > 0;
  return isRecord(value) && Object.keys(value).length > 0 && Object.values(value).every(isResultLike);
}

function isResultLike(value: unknown): boolean {
  return typeof value === 'boolean' || typeof value === 'string' || isRecord(value);
}

/** Results matched by SKU when they carry one, by `index` when they carry that, else by position. */
function matchArray(results: readonly unknown[], skus: readonly string[]): unknown[] {
  const bySku = new Map<string, unknown>();
  const byIndex = new Map<number, unknown>();
  for (const result of results) {
    if (!isRecord(result)) continue;
    const sku = result.sku ?? result.SKU ?? result.code ?? result.productCode;
    if (typeof sku === 'string' || typeof sku === 'number') bySku.set(String(sku), result);
    if (typeof result.index === 'number') byIndex.set(result.index, result);
  }
  return skus.map((sku, index) => {
    // Duplicate SKUs in one batch (several warehouses) are told apart by index or position.
    if (byIndex.has(index)) return byIndex.get(index);
    const sameSku = skus.filter((other) => other === sku).length === 1;
    if (sameSku && bySku.has(sku)) return bySku.get(sku);
    return results.length === skus.length ? results[index] : undefined;
  });
}

function verdictOf(result: unknown, statusField: string | undefined): ItemVerdict | undefined {
  if (typeof result === 'boolean') return { verdict: result ? 'applied' : 'rejected' };
  if (typeof result === 'string') return wordVerdict(result);
  if (!isRecord(result)) return undefined;
  const fields = statusField ? [statusField] : recognisedStatusFields();
  for (const field of fields) {
    const value = valueAtPath(result, field);
    if (value === undefined || value === null) continue;
    // `error: "text"` names a rejection; `error: null` above was skipped as no verdict.
    if (field === 'error' && typeof value === 'string') return { verdict: 'rejected', message: value };
    const verdict =
      typeof value === 'boolean'
        ? { verdict: value === (field !== 'error') ? ('applied' as const) : ('rejected' as const) }
        : wordVerdict(String(value));
    if (verdict) return { ...verdict, ...messageOf(result) };
  }
  return undefined;
}

function wordVerdict(word: string): ItemVerdict {
  const normal = word.trim().toLowerCase();
  if (appliedWords().includes(normal)) return { verdict: 'applied' };
  if (rejectedWords().includes(normal)) return { verdict: 'rejected' };
  return { verdict: 'unsettled', status: word };
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
