import { WrittenNumber } from '../../lib/written-json.js';
import { isRecord } from './shapes.js';

/**
 * What a status word or field of the platform's says: applied, refused, pending or not known. Read in a stock batch's
 * per-item results (stock.ts) and in a batch's or one write's status beside them (refusal-signs.ts: a customer write's
 * `"status": "REJECTED"` too), so shared by both.
 */

// The lists below are built at each call, in function bodies, not once at module load: mutation testing switches its
// changes at run time, inside functions; a few short arrays per answer cost nothing beside the request itself.
export function recognisedStatusFields(): readonly string[] {
  return [
    'status',
    // An HTTP-like code per item (`{"sku":"A2","statusCode":404}`): results naming their SKU and their outcome only
    // there were taken as no per-item results, and the refused item ended `accepted`, exit 0 (a user test).
    'statusCode',
    'status_code',
    'httpStatus',
    'result',
    'outcome',
    'state',
    'success',
    'applied',
    'ok',
    'valid',
    'error',
    'erro',
    ...portugueseStatus(),
  ];
}

// `situacao` (status, in a Brazilian store's own schema): results naming their SKU but their status only there were
// taken as no per-item results, and a refused item ended `accepted` (a fresh user test).
function portugueseStatus(): readonly string[] {
  return ['situacao', 'situação'];
}

export function appliedWords(): readonly string[] {
  const english = ['ok', 'applied', 'success', 'succeeded', 'successful', 'updated', 'done', 'true', 'completed'];
  return [...english, 'sucesso', 'atualizado', 'aplicado', 'concluido', 'processado'];
}

// A status that says the item is taken and not yet applied: `accepted`, quoting it. Any word that is neither applied,
// refusing nor one of these is `unknown`: per-item refusals in words b2bctl did not list (`SKU_NOT_FOUND`, `ERRO`,
// `ignored`) ended the night `accepted`, exit 0 (a fresh user test).
function pendingWords(): readonly string[] {
  const english = ['pending', 'queued', 'enqueued', 'processing', 'in_progress', 'received', 'accepted'];
  // `EM_FILA` and `enfileirado` (in the queue): a queue's own word for taking the batch (a user test).
  return [...english, 'pendente', 'em_processamento', 'recebido', 'aceito', 'em_fila', 'enfileirado'];
}

export function rejectedWords(): readonly string[] {
  const english = ['error', 'rejected', 'failed', 'failure', 'invalid', 'false', 'not_found'];
  return [...english, 'erro', 'falha', 'rejeitado', 'invalido', 'nao_encontrado', 'inexistente', 'recusado'];
}

// A status whose words hold one of these refuses (`SKU_NOT_FOUND`, `INVALID_PRICE`, `ERRO: produto inexistente`).
function refusingStems(): readonly string[] {
  return ['not_found', 'notfound', 'error', 'fail', 'invalid', 'reject', 'nao_encontrad', 'inexistent', 'rejeitad'];
}

// The reason phrases of the 4xx and 5xx statuses (RFC 9110 and the IANA registry), as a framework writes a refusal's
// status in its body: the platform document's own 422 body is `{"status": "UNPROCESSABLE_ENTITY", …}`, and a gateway
// that answers 200 keeps it. A status holding one refuses as its code does (`BAD_REQUEST` as `400`); `NOT_FOUND`
// already did, the others were `unknown` in a stock result and no sign at all beside a customer write's answer.
function refusingReasonPhrases(): readonly string[] {
  const client = ['bad_request', 'unauthorized', 'payment_required', 'forbidden', 'method_not_allowed'];
  const request = ['not_acceptable', 'proxy_authentication_required', 'request_timeout', 'conflict', 'gone'];
  const body = ['length_required', 'precondition_failed', 'content_too_large', 'payload_too_large'];
  const target = ['request_entity_too_large', 'uri_too_long', 'request_uri_too_long', 'unsupported_media_type'];
  const range = ['range_not_satisfiable', 'requested_range_not_satisfiable', 'expectation_failed'];
  const content = ['misdirected_request', 'unprocessable_content', 'unprocessable_entity', 'locked'];
  const state = ['failed_dependency', 'too_early', 'upgrade_required', 'precondition_required', 'too_many_requests'];
  const legal = ['request_header_fields_too_large', 'unavailable_for_legal_reasons'];
  return [
    ...client,
    ...request,
    ...body,
    ...target,
    ...range,
    ...content,
    ...state,
    ...legal,
    ...serverReasonPhrases(),
  ];
}

// The reason phrases of the 5xx statuses: a server's failure, `unknown` per item as its code is (serverErrorCodes).
function serverReasonPhrases(): readonly string[] {
  const server = ['internal_server_error', 'not_implemented', 'bad_gateway', 'service_unavailable', 'gateway_timeout'];
  const protocol = ['http_version_not_supported', 'variant_also_negotiates', 'insufficient_storage', 'loop_detected'];
  const network = ['not_extended', 'network_authentication_required'];
  return [...server, ...protocol, ...network];
}

// A per-item HTTP code (a 207 Multi-Status's items, `200` and `404`), as a number or as text, says what the words do.
function appliedCodes(): { from: number; to: number } {
  return { from: 200, to: 299 };
}

function rejectedCodes(): { from: number; to: number } {
  return { from: 400, to: 599 };
}

// A 5xx per item is the platform's failure, which may come after it stored the item (as a 5xx to a whole write is
// never read as a refusal): `unknown`, sent again, not `rejected` (docs/decisions/0043-an-item-answer-read-whole.md).
function serverErrorCodes(): { from: number; to: number } {
  return { from: 500, to: 599 };
}

/**
 * What the answer says of one item. `unknown`: the answer may say the item was refused, but not so that b2bctl can
 * tell (two results that disagree, a SKU that fits several items, a refusal matched to no item): never `accepted`.
 */
export type ItemVerdict =
  | { verdict: 'applied' | 'rejected'; message?: string }
  | { verdict: 'unsettled'; status: string }
  | { verdict: 'unknown'; message: string; /** Its result both applies and refuses it. */ disagrees?: true };

/** What one status field says: nothing when absent or null, else a verdict. */
export function fieldVerdict(field: string, value: unknown): ItemVerdict | undefined {
  if (value === undefined || value === null) return undefined;
  // `error: "text"` (or `erro`) names a rejection; `error: null` above was skipped as no verdict.
  const errorField = field === 'error' || field === 'erro';
  // A blank one (`"erro": ""` beside `"ok": true`) says there was none.
  if (errorField && typeof value === 'string')
    return value.trim() === '' ? undefined : { verdict: 'rejected', message: value };
  return typeof value === 'boolean'
    ? { verdict: value === !errorField ? 'applied' : 'rejected' }
    : statusVerdict(value);
}

/**
 * A status given as an object (`{"code":404}`, `{"status":"REJECTED","reason":…}`) says it in its `status` or `code`;
 * one that says nothing b2bctl recognises is quoted as its JSON, never as `[object Object]`.
 */
function statusVerdict(value: unknown): ItemVerdict {
  if (typeof value !== 'object' || value === null || value instanceof WrittenNumber) return wordVerdict(String(value));
  const inner = isRecord(value) ? [value.status, value.code].find(isWordLike) : undefined;
  const verdict = inner === undefined ? undefined : wordVerdict(String(inner));
  if (verdict?.verdict === 'applied' || verdict?.verdict === 'rejected') return verdict;
  const shown = JSON.stringify(value);
  return verdict?.verdict === 'unsettled' ? { verdict: 'unsettled', status: shown } : unknownStatus(shown);
}

function isWordLike(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/**
 * A status word: applied, refusing (a word b2bctl lists, or one holding `NOT_FOUND`, `ERROR`, `FAIL`, `INVALID`,
 * `REJECT`), pending (`unsettled`: reported `accepted`, quoting it), else `unknown`: a word b2bctl does not know may
 * be a refusal, and a night of refusals must not end `accepted`, exit 0.
 */
export function wordVerdict(word: string): ItemVerdict {
  const normal = withoutMarks(word).trim().toLowerCase();
  // A status line's leading code (`400 Bad Request`, `200 OK`) as the bare code is.
  const leadingCode = /^(\d{3})(?=$|\s|:)/.exec(normal)?.[1];
  const code = leadingCode === undefined ? undefined : Number(leadingCode);
  if (appliedWords().includes(normal) || within(code, appliedCodes())) return { verdict: 'applied' };
  if (within(code, serverErrorCodes()) || serverReasonPhrases().includes(normal.replace(/[\s-]+/g, '_')))
    return serverErrorStatus(word);
  if (refusingWord(normal) || within(code, rejectedCodes())) return { verdict: 'rejected' };
  if (pendingWords().includes(normal.replace(/[\s-]+/g, '_'))) return { verdict: 'unsettled', status: word };
  if (appliedPhrase(normal)) return { verdict: 'applied' };
  return unknownStatus(word);
}

/**
 * A phrase all of whose words say applied (`Atualizado com sucesso`, `UPDATED_SUCCESSFULLY`, `Estoque atualizado`):
 * an applied word, a success adverb, and only words that name the thing or join them. Any other word (`ignored`,
 * `but`, `não`) leaves the phrase `unknown`: a night of such answers was `unknown`, exit 1 (a fresh user test).
 */
function appliedPhrase(normal: string): boolean {
  const words = normal.split(/[^a-z0-9]+/).filter((word) => word !== '');
  if (words.length < 2 || !words.some((word) => appliedWords().includes(word))) return false;
  return words.every((word) => appliedWords().includes(word) || phraseWords().includes(word));
}

function phraseWords(): readonly string[] {
  const english = ['successfully', 'with', 'and', 'item', 'items', 'product', 'stock', 'price', 'record', 'saved'];
  return [...english, 'com', 'e', 'produto', 'estoque', 'preco', 'registro', 'salvo'];
}

function refusingWord(normal: string): boolean {
  const joined = normal.replace(/[\s-]+/g, '_');
  if (rejectedWords().includes(joined) || refusingStems().some((stem) => joined.includes(stem))) return true;
  if (refusingReasonPhrases().includes(joined)) return true;
  return normal.split(/[^a-z0-9_]+/).some((word) => rejectedWords().includes(word));
}

/**
 * Whether a value is the HTTP status of a refusal: a code of 400–599, as a number or as text, or the reason phrase of
 * one in any case, with `_`, `-` or spaces (`BAD_REQUEST`, `Unprocessable Entity`). What a field named `code` is read
 * for beside an answer's results, where any other word (a SKU, an error code of the platform's) says nothing.
 */
export function isRefusingHttpStatus(value: unknown): boolean {
  if (typeof value !== 'number' && typeof value !== 'string' && !(value instanceof WrittenNumber)) return false;
  const normal = withoutMarks(String(value)).trim().toLowerCase();
  if (/^\d{3}$/.test(normal)) return within(Number(normal), rejectedCodes());
  return refusingReasonPhrases().includes(normal.replace(/[\s-]+/g, '_'));
}

function serverErrorStatus(shown: string): ItemVerdict {
  return {
    verdict: 'unknown',
    message: `the platform answered "${shown.trim()}" for this item, a server error, which may come after it stored the item`,
  };
}

function unknownStatus(shown: string): ItemVerdict {
  return {
    verdict: 'unknown',
    message: `the platform answered "${shown}" for this item, which b2bctl knows as neither applied, refused nor pending`,
  };
}

function within(code: number | undefined, range: { from: number; to: number }): boolean {
  return code !== undefined && code >= range.from && code <= range.to;
}

/** `não`, `inválido`, `concluído` as `nao`, `invalido`, `concluido`: the accents a platform may or may not write. */
export function withoutMarks(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}
