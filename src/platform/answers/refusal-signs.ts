import { WrittenNumber } from '../../lib/written-json.js';
import { countOf, isArray, isRecord, valueAtPath } from './shapes.js';
import { fieldVerdict, recognisedStatusFields, withoutMarks } from './status-words.js';

/**
 * The signs of refusal a 2xx answer may hold beside what it was asked for: a status that refuses, a field named for
 * refusals holding something (`"errors": [...]`, `"failed": 1`). Read beside a stock batch's per-item results
 * (stock.ts) and in the answer to one customer write (customers.ts), so shared by both.
 */

// The lists below are built at each call, in function bodies, not once at module load: mutation testing switches its
// changes at run time, inside functions; a few short arrays per answer cost nothing beside the request itself.
// The words that name a refusal in a field's name or a batch's status, beside the per-item results; `notFound`,
// `naoEncontrados` and `ignored` name the SKUs the platform did not take.
function refusalNames(): readonly string[] {
  const words = ['error', 'errors', 'fail', 'failed', 'failure', 'failures', 'rejected', 'rejection', 'rejections'];
  const portuguese = ['erro', 'erros', 'falha', 'falhas', 'rejeitados', 'invalidos', 'inexistentes', 'naoencontrados'];
  // `recusados` and `ignorados` (refused, ignored) name SKUs not taken as `rejeitados` and `ignored` do.
  return [...words, 'invalid', 'partial', 'partially', 'notfound', 'ignored', ...portuguese, 'recusados', 'ignorados'];
}

function negations(): readonly string[] {
  return ['no', 'not', 'without', 'zero'];
}

/**
 * A sign beside the results that the batch or some item was refused, shown as the answer wrote it (its JSON without
 * the results read): a batch-level status that refuses (`"status": "REJECTED"`, `"success": false`,
 * `"COMPLETED_WITH_ERRORS"`), or a field named for refusals holding something (`"errors": [...]`, `"failed": 1`,
 * `"rejectedCount": 2`). Looked for at the answer's top level and in the object holding its results. A list of SKUs
 * sent (`listsOfSkus`, skuLists) says which items it refuses, so it is no such sign.
 */
export function refusalBeside(
  body: unknown,
  list: unknown,
  statusField: string | undefined,
  listsOfSkus: readonly unknown[],
): string | undefined {
  const signed = placesBeside(body, list).some((place) =>
    Object.entries(place).some(
      ([field, value]) =>
        value !== list &&
        !listsOfSkus.includes(value) &&
        (refusingStatus(field, value, statusField) || refusalNamed(field, value)),
    ),
  );
  if (!signed) return undefined;
  const text = JSON.stringify(body, (_key, value: unknown) => (value === list && list !== body ? undefined : value));
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/**
 * A sign of refusal in a 2xx answer to one write (a customer create, update or status change), read as a batch's
 * answer is read for one beside its results: `"success": false`, a status that refuses, an `errors` or `erros` list
 * holding entries, at the answer's top level or under `data`. Undefined when it shows none (no body, a record, `[]`).
 * A 200 `{"success":false,"errors":[…]}` to a create was reported created, exit 0 (a fresh user test).
 */
export function refusalSignOf(body: unknown): string | undefined {
  return refusalBeside(body, undefined, undefined, []);
}

/** Where a sign beside the results is looked for: the answer's top level, the object holding its results, `data`. */
export function placesBeside(body: unknown, list: unknown): Record<string, unknown>[] {
  // The results themselves are not beside them: an object keyed by SKU may have a SKU `ERROR-1`.
  const places = [body, containerOf(body, list), valueAtPath(body, 'data')].filter(
    (place) => isRecord(place) && place !== list,
  ) as Record<string, unknown>[];
  return [...new Set(places)];
}

/** The object whose field holds the results read, when they are not the answer itself. */
function containerOf(body: unknown, list: unknown): unknown {
  if (list === undefined || list === body || !isRecord(body)) return undefined;
  const holders = [body, ...Object.values(body).filter(isRecord)];
  return holders.find((holder) => Object.values(holder).includes(list));
}

/** A batch-level status field that refuses, as an item's would, or whose words name a refusal (`PARTIAL_SUCCESS`). */
function refusingStatus(field: string, value: unknown, statusField: string | undefined): boolean {
  const fields = statusField ? [statusField, ...recognisedStatusFields()] : recognisedStatusFields();
  if (!fields.includes(field) || value === undefined || value === null) return false;
  if (typeof value === 'string' && value.trim() === '') return false;
  if (fieldVerdict(field, value)?.verdict === 'rejected') return true;
  return typeof value === 'string' && wordsOf(value).some((word) => refusalNames().includes(word));
}

/** A field named for refusals (`errors`, `failedCount`, `rejected`) holding a count above 0, `true`, text or entries. */
export function refusalNamed(field: string, value: unknown): boolean {
  const words = wordsOf(field);
  // `noErrors`, `withoutFailures`: the name says there were none.
  if (!words.some((word) => refusalNames().includes(word)) || words.some((word) => negations().includes(word)))
    return false;
  if (typeof value === 'number' || value instanceof WrittenNumber) return Number(String(value)) > 0;
  // A count written as digits (`"falhas": "0"`, a gateway's long as text) is a number: `"0"` is no failure.
  const count = countOf(value);
  if (count !== undefined) return count > 0;
  if (typeof value === 'string') return value.trim() !== '';
  if (isArray(value)) return value.length > 0;
  return value === true || (isRecord(value) && Object.keys(value).length > 0);
}

/**
 * The words of a field name or status: `failedCount`, `failed_count` and `FAILED-COUNT` are `failed` and `count`;
 * `notFound` and `naoEncontrados` one word each (`not` alone is a negation), `não` as `nao`.
 */
export function wordsOf(text: string): string[] {
  return withoutMarks(text)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .join(' ')
    .replace(/\bnot found\b/g, 'notfound')
    .replace(/\bnao encontrad[a-z]*/g, 'naoencontrados')
    .split(' ');
}
