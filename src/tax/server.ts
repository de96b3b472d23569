import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { request as httpRequest } from 'undici';
import { urlShownSafely } from '../lib/shown-target.js';
import { isFederativeUnit } from '../domain/brazil-codes.js';
import { taxTotals } from '../domain/tax/compute.js';
import type { ItemTaxes, TaxItem } from '../domain/tax/terms.js';
import type { BuyerKind } from '../domain/tax/rules.js';
import { listenOn } from '../http-server/listen.js';
import { forwardedAware } from '../http-server/forwarded.js';
import { baseUrlOf, listeningPort, type RunningServer } from '../http-server/serve.js';
import { fastifyTrustProxy, type ProxyHeader, type TrustedProxies } from '../http-server/trust-proxy.js';
import { guardCallback, type TaxAuth, type TaxAuthOptions } from './callback-auth.js';
import { type CallbackRoute, callbackFirst, jsonContentType, type SentAnswer } from './callback-route.js';
import { NoTaxRowError, quoteItems } from './quote-items.js';
import { answerBytes } from './answer-bytes.js';
import { itemRecord, readTaxSale, type TaxShape } from './shape.js';
import { checkTaxItem } from './table-file.js';
import type { WatchedTaxTable } from './watched-table.js';

export interface TaxServerOptions extends Omit<TaxAuthOptions, 'log'> {
  host: string;
  port: number;
  /** The callback's route, such as /tax. */
  path: string;
  shape: TaxShape;
  /** The tax table: the answer, or the fallback when the ERP is asked first. */
  table?: WatchedTaxTable;
  /** The ERP's own tax endpoint, asked first with the platform's request as it came. */
  forward?: TaxForward;
  auth: TaxAuth;
  /** Reverse proxies trusted to name the client (in the token endpoint's failure limits and its log lines). */
  trustProxy?: TrustedProxies;
  /** The header those proxies name the client in (X-Forwarded-For when not given). */
  proxyHeader?: ProxyHeader;
  log: { warn(line: string): void };
}

/** Where the ERP computes taxes itself, and how long the cart may wait for it. */
export interface TaxForward {
  url: string;
  /** Sent as `Authorization: Bearer …` (B2BCTL_TAX_FORWARD_TOKEN). */
  token?: string;
  budgetMs: number;
}

/** What /healthz counts. */
export interface TaxServerCounts {
  answered: number;
  refused: number;
  noRow: number;
  /** Answers the ERP did not give in time or at all: from the table, or the failure answer. */
  fallbacks: number;
}

/** A cart is small: 1 MB holds thousands of items; anything larger is not a cart. */
const bodyLimit = 1_048_576;

/** Starts `tax serve`: the callback's route and /healthz. */
export async function startTaxServer(options: TaxServerOptions): Promise<RunningServer & { counts: TaxServerCounts }> {
  const counts: TaxServerCounts = { answered: 0, refused: 0, noRow: 0, fallbacks: 0 };
  let closing = false;
  const route: CallbackRoute = {
    path: options.path,
    bodyLimit,
    check: () => undefined,
    answer: (body, arrivedAt) => answerCart(body, arrivedAt, options, counts),
    refused: () => counts.refused++,
    closing: () => closing,
  };
  const app = Fastify({
    logger: false,
    bodyLimit,
    forceCloseConnections: 'idle',
    trustProxy: fastifyTrustProxy(options.trustProxy),
    serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
      createServer(forwardedAware(callbackFirst(route, handler), options.trustProxy, options.proxyHeader)),
  });
  route.check = guardCallback(app, options.auth, options);
  app.get('/healthz', async () => ({
    status: 'ok',
    ...(options.table === undefined ? {} : { table: options.table.tableStatus() }),
    ...(options.forward === undefined
      ? {}
      : { forwardTo: urlShownSafely(options.forward.url), budgetMs: options.forward.budgetMs }),
    ...counts,
  }));
  addFastifyCallbackRoute(app, route);
  await listenOn(app, options.host, options.port);
  const port = listeningPort(app.server.address(), options.port);
  const close = () => {
    closing = true;
    return app.close();
  };
  return { url: baseUrlOf('http', options.host, port), counts, close };
}

/** The callback through fastify's router, for the requests callbackFirst leaves to it: the same check and answers. */
function addFastifyCallbackRoute(app: FastifyInstance, route: CallbackRoute): void {
  // The ERP's budget runs from the request's arrival: its headers, before the body has come and been parsed.
  const arrivals = new WeakMap<FastifyRequest, number>();
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    arrivals.set(request, performance.now());
    // Checked before the body is read: a caller without the credential gets nothing parsed nor computed.
    const refusal = route.check(request.headers.authorization);
    if (refusal === undefined) return;
    route.refused();
    return reply.code(401).header('www-authenticate', refusal.challenge).send(refusal.body);
  };
  app.post(route.path, { onRequest }, async (request, reply) => {
    const answer = await route.answer(request.body, arrivals.get(request) ?? performance.now());
    return reply.code(answer.status).type(jsonContentType).send(answer.json);
  });
}

/** The answer to a cart that passed the check, counted (and logged when refused) as /healthz shows it. */
async function answerCart(
  body: unknown,
  arrivedAt: number,
  options: TaxServerOptions,
  counts: TaxServerCounts,
): Promise<SentAnswer> {
  const answer =
    options.forward === undefined
      ? answerRequest(body, options)
      : await answerThroughErp(body, options, options.forward, counts, performance.now() - arrivedAt);
  if ('status' in answer) {
    if (answer.status === 422) counts.noRow++;
    else if (answer.status !== 503) counts.refused++;
    if (answer.warning !== undefined) options.log.warn(answer.warning);
    return { status: answer.status, json: JSON.stringify(answer.body) };
  }
  counts.answered++;
  // The answer's JSON, written once where it was made: sent as it is.
  return { status: 200, json: answer.json };
}

/** The answer's JSON (text, or bytes written in one pass); or a refusal, with the log line it calls for when it is sent. */
type Answer = { json: string | Buffer } | { status: 400 | 422 | 503; body: Record<string, unknown>; warning?: string };

const refuse = (message: string): Answer => ({ status: 400, body: { error: 'bad-request', message } });

/** The answer to one callback: the taxes, or why not, in the answer's error shape. */
function answerRequest(body: unknown, options: TaxServerOptions): Answer {
  const request = readTaxSale(body, options.shape.request);
  if (typeof request === 'string') return refuse(request);
  const from = request.from.toUpperCase();
  const to = request.to.toUpperCase();
  if (!isFederativeUnit(from) || !isFederativeUnit(to))
    return refuse(`origin "${request.from}" and destination "${request.to}" must be states (UF) such as SP`);
  const buyer = buyerOf(request.paysIcms);
  if (buyer === undefined)
    return refuse(`whether the buyer pays ICMS must be true or false, not ${JSON.stringify(request.paysIcms)}`);
  if (options.table === undefined) throw new Error('answered from a table that was not given');
  const table = options.table.current();
  // Most carts are written in one pass; the rest (a refusal, an amount for the fractions) take the general path.
  const json = answerBytes(
    request.items,
    table.finderFor({ from, to, buyer }),
    { buyer, interstate: from !== to },
    options.shape,
  );
  if (json !== undefined) return { json };
  const items: TaxItem[] = [];
  for (const [index, value] of request.items.entries()) {
    const item = checkTaxItem(itemRecord(value, options.shape.request));
    if (typeof item === 'string') return refuse(`item ${index + 1}: ${item}`);
    items.push(item);
  }
  let quoted: ItemTaxes[];
  try {
    quoted = quoteItems(table, items, { from, to, buyer });
  } catch (error) {
    if (!(error instanceof NoTaxRowError)) throw error;
    return {
      status: 422,
      body: { error: 'no-tax-row', message: error.message, missing: error.missing },
      warning: `tax callback refused: ${error.message}`,
    };
  }
  return {
    json: JSON.stringify({ [options.shape.answer.items]: quoted, [options.shape.answer.totals]: taxTotals(quoted) }),
  };
}

/**
 * The ERP's answer when it gives one within the budget, counted from the request's arrival (a 2xx with JSON,
 * passed on as it came); otherwise the table's, or, without a table, 503 so the platform knows no tax was
 * computed. Every fallback is counted and logged. The table's answer is worked out while the ERP is asked (once
 * the request to it has gone), so that past the budget only its write is left, even behind a queue of carts on
 * the one thread.
 */
async function answerThroughErp(
  body: unknown,
  options: TaxServerOptions,
  forward: TaxForward,
  counts: TaxServerCounts,
  elapsedMs: number,
): Promise<Answer> {
  const abort = new AbortController();
  const asked = askErp(body, forward, abort.signal);
  const fallback = options.table === undefined ? undefined : afterPendingIo(() => answerRequest(body, options));
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<string>((resolve) => {
    const left = Math.max(0, forward.budgetMs - elapsedMs);
    timer = setTimeout(() => resolve(`did not answer in ${forward.budgetMs} ms`), left);
  });
  const outcome = await Promise.race([asked, budget]);
  clearTimeout(timer);
  // The ERP's request is dropped after the answer has been written, not before it.
  setImmediate(() => abort.abort());
  if (typeof outcome !== 'string') return outcome;
  counts.fallbacks++;
  const erp = urlShownSafely(forward.url);
  if (fallback === undefined) {
    options.log.warn(`tax callback: the ERP at ${erp} ${outcome}; answered 503 (no --rules to fall back on).`);
    return { status: 503, body: { error: 'tax-unavailable', message: `The ERP's tax service ${outcome}.` } };
  }
  options.log.warn(`tax callback: the ERP at ${erp} ${outcome}; answered from the tax table.`);
  return await fallback;
}

/**
 * `work` run once the I/O already due has gone (the ERP's request on its way first, then the fallback's CPU).
 * Its failure is the awaiting caller's; unawaited, it is not an unhandled rejection.
 */
function afterPendingIo<T>(work: () => T): Promise<T> {
  const result = new Promise<T>((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error as Error);
      }
    }),
  );
  result.catch(() => undefined);
  return result;
}

/** The ERP's 2xx JSON answer as it came, or why there is none. Aborted once the budget is spent. */
async function askErp(body: unknown, forward: TaxForward, signal: AbortSignal): Promise<Answer | string> {
  try {
    const answer = await httpRequest(forward.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(forward.token === undefined ? {} : { authorization: `Bearer ${forward.token}` }),
      },
      body: JSON.stringify(body),
      signal,
    });
    const text = await answer.body.text();
    if (answer.statusCode < 200 || answer.statusCode > 299) return `answered HTTP ${answer.statusCode}`;
    JSON.parse(text);
    return { json: text };
  } catch (error) {
    return error instanceof SyntaxError
      ? 'answered a body that is not JSON'
      : `failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}

function buyerOf(paysIcms: unknown): BuyerKind | undefined {
  if (paysIcms === true || paysIcms === 'true' || paysIcms === 1) return 'taxpayer';
  if (paysIcms === false || paysIcms === 'false' || paysIcms === 0) return 'non-taxpayer';
  return undefined;
}
