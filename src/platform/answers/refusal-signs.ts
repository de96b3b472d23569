import { quotedJson } from '../../base/quoted-answer.js';
import { WrittenNumber } from '../../lib/written-json.js';
import { parseBoolean } from '../../domain/yes-no-words.js';
import { valueAtPath } from '../../domain/validation.js';
import { countAsWritten, isArray, isRecord } from './shapes.js';
import { fieldVerdict, isRefusingHttpStatus, recognisedStatusFields, withoutMarks } from './status-words.js';

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

// The fields an answer states its outcome in, beside an item's status fields (recognisedStatusFields), named as read
// (accents, case, `_` and `-` aside): the Portuguese `sucesso`, `situação`, `aceito`; `accepted`; the HTTP status a
// gateway or framework quotes in a 200 (`statusCode`, `httpStatus`). `{"sucesso": false}` and `{"situacao": "ERRO"}`
// were reported created, exit 0, while `{"success": false}` and `{"status": "ERRO"}` were `unknown` (a fresh user test).
// `retorno` (return) is where a Brazilian ERP's API states it: `{"retorno": "ERRO", "mensagem": "falha"}` was reported
// created, exit 0 (a user test).
function outcomeFields(): readonly string[] {
  const portuguese = ['sucesso', 'situacao', 'aceito', 'retorno'];
  return [...recognisedStatusFields(), ...portuguese, 'accepted', 'statuscode', 'httpstatus', 'httpcode'];
}

// The names a batch-level flag says an answer's work was done or taken under (`"updated": false`, `"queued": false`,
// `"processed": false`): a `false` there is a refusal, as `"success": false` is (a fresh user test: such batches
// ended `accepted` and `queued`, exit 0).
function takenWords(): readonly string[] {
  const english = ['created', 'updated', 'processed', 'applied', 'saved', 'stored', 'done', 'completed', 'queued'];
  const portuguese = ['criado', 'cadastrado', 'atualizado', 'processado', 'aplicado', 'salvo', 'gravado', 'recebido'];
  return [...english, 'enqueued', 'received', ...portuguese, 'enfileirado'];
}

// The fields that make an object a record (a customer, an item) rather than an answer about one: its `code` and its
// flags are its own data.
function recordFields(): readonly string[] {
  return ['document', 'cpf', 'cnpj', 'username', 'email', 'sku'];
}

function looksLikeARecord(place: Record<string, unknown>): boolean {
  return Object.keys(place).some((field) => recordFields().includes(fieldNameOf(field)));
}

// The fields a gateway or framework quotes an HTTP status in beside its message, in English and Portuguese.
function codeFields(): readonly string[] {
  return ['code', 'codigo'];
}

// Fields whose number is a count (`"sucesso": 50` items applied), never an HTTP status: a batch of 404 applied items
// is no refusal. Their `false` still is.
function countingFields(): readonly string[] {
  return ['success', 'sucesso', 'ok', 'applied', 'valid', 'accepted', 'aceito'];
}

/**
 * A success flag (`sucesso`, `ok`, `success`, …) written in the words b2bctl reads as "no" in an input file's cells
 * (parseBoolean: `não`, `nao`, `N`, `no`, `falso`): a refusal, as `false` is. `{"sucesso": "não"}` and `{"ok": "N"}`
 * were reported created and updated, exit 0, nothing stored (a user test). Digits are a count (`"0"` items applied).
 */
function successFlagSaysNo(name: string, value: unknown): boolean {
  if (!countingFields().includes(name) || typeof value !== 'string' || countAsWritten(value) !== undefined)
    return false;
  return parseBoolean(value) === false;
}

// The envelopes one write's answer may hold its outcome in: `{"data": {"success": false}}`, `{"result": {…}}`.
function envelopes(): readonly string[] {
  return ['data', 'result', 'dados', 'resultado'];
}

/** A field's name as the lists above write it: `situação`, `Status_Code` and `status-code` as `situacao`, `statuscode`. */
function fieldNameOf(field: string): string {
  return withoutMarks(field)
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
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
        (refusingStatus(field, value, statusField, place) || refusalNamed(field, value)),
    ),
  );
  // The JSON `false` (a Java endpoint returning a boolean) is the plainest refusal a body gives; `true` is none.
  if (!signed && body !== false) return undefined;
  return quotedJson(
    JSON.stringify(body, (_key, value: unknown) => (value === list && list !== body ? undefined : value)),
    300,
  );
}

/**
 * A sign of refusal in a 2xx answer to one write (a customer create, update or status change), read as a batch's
 * answer is read for one beside its results: `"success": false` (`"sucesso"`, `"accepted"`), a status that refuses
 * (`"situacao": "ERRO"`, `"status": "UNPROCESSABLE_ENTITY"`, `"code": 400`), an `errors` or `erros` list holding
 * entries, at the answer's top level or in an envelope (`data`, `result`); the JSON `false`. Undefined when it shows
 * none (no body, a record, `[]`, `true`). A 200 `{"success":false,"errors":[…]}` to a create was reported created,
 * exit 0 (a fresh user test).
 */
export function refusalSignOf(body: unknown): string | undefined {
  return refusalBeside(body, undefined, undefined, []);
}

/** Where a sign beside the results is looked for: the answer's top level, the object holding its results, an envelope. */
export function placesBeside(body: unknown, list: unknown): Record<string, unknown>[] {
  // The results themselves are not beside them: an object keyed by SKU may have a SKU `ERROR-1`.
  const inEnvelopes = envelopes().map((envelope) => valueAtPath(body, envelope));
  const places = [body, containerOf(body, list), ...inEnvelopes].filter(
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

/**
 * A batch-level status field that refuses, as an item's would, or whose words name a refusal (`PARTIAL_SUCCESS`); a
 * `code` holding the HTTP status of a refusal (`400`, `"BAD_REQUEST"`), any other code being the platform's own.
 */
function refusingStatus(
  field: string,
  value: unknown,
  statusField: string | undefined,
  place: Record<string, unknown>,
): boolean {
  const name = fieldNameOf(field);
  // A record's own fields are its data: a customer's `code` of 450 in the store, not an HTTP status. `codigo` is the
  // same field in Portuguese: `{"codigo": 400, "mensagem": "CPF já cadastrado"}` was reported created (a user test).
  if (codeFields().includes(name)) return isRefusingHttpStatus(value) && !looksLikeARecord(place);
  // `"updated": false`, `"queued": false`: the batch-level flag of what was asked says no, whatever its name.
  if (value === false && takenWords().includes(name) && !looksLikeARecord(place)) return true;
  if (field !== statusField && !outcomeFields().includes(name)) return false;
  if (value === undefined || value === null) return false;
  if (typeof value === 'string' && value.trim() === '') return false;
  if (countingFields().includes(name) && (typeof value === 'number' || value instanceof WrittenNumber)) return false;
  if (successFlagSaysNo(name, value)) return true;
  // A 5xx is `unknown` for one item (it may come after the item was stored), but beside results still a sign of refusal.
  if (fieldVerdict(name, value)?.verdict === 'rejected' || isRefusingHttpStatus(value)) return true;
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
  const count = countAsWritten(value);
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
