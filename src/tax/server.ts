import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { quotedJson } from '../base/quoted-answer.js';
import { isFederativeUnit } from '../domain/brazil-codes.js';
import { taxTotals } from '../domain/tax/compute.js';
import type { ItemTaxes, TaxItem } from '../domain/tax/terms.js';
import { clientAddressReader, trustedPeerCheck } from '../http-server/client-address.js';
import { decodedBody } from '../http-server/content-coding.js';
import { answerUnmetExpectations, clientErrorAnswer, type RefusalShape } from '../http-server/client-errors.js';
import { limitConnections } from '../http-server/connection-limit.js';
import { serverTimeouts } from '../http-server/server-timeouts.js';
import { ThrottledLog } from '../http-server/throttled-log.js';
import { defaultTokenFailureLimit } from '../http-server/token-endpoint.js';
import { countOf } from '../lib/plural.js';
import { listenOn } from '../http-server/listen.js';
import { forwardedAware } from '../http-server/forwarded.js';
import { baseUrlOf, listeningPort, type RunningServer } from '../http-server/serve.js';
import { fastifyTrustProxy, type ProxyHeader, type TrustedProxies } from '../http-server/trust-proxy.js';
import { guardCallback, type TaxAuth, type TaxAuthOptions } from './callback-auth.js';
import { type CallbackRoute, callbackFirst, jsonContentType, type SentAnswer } from './callback-route.js';
import { type Answer, answerThroughErp, type ArrivedCart, type TaxForward, TaxErp } from './erp-forward.js';
import { NoTaxRowError, quoteItems, TaxRowFailedError } from './quote-items.js';
import { CartScan } from './cart-scan.js';
import { buyerOf, onePassAnswer, scannedAnswer } from './one-pass-answer.js';
import { declaredCharset } from '../lib/declared-charset.js';
import { answerUnknownRoutes } from './unknown-route.js';
import { checkCartItem, skusAsSent } from './cart-item.js';
import { readTaxSale, type TaxShape } from './shape.js';
import { nestingProblem } from '../lib/json-shape.js';
import { refuseUnreadCarts } from './unread-cart.js';
import { skuNumberWatch } from './sku-number-text.js';
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
  /** Time a client has to send a whole request before it is answered 408 and its connection closed. */
  requestTimeoutMs: number;
  /** Connections open at once, in all and from one client address (a trusted proxy aside). */
  maxConnections: number;
  maxConnectionsPerAddress: number;
  log: { warn(line: string): void };
}

/** What /healthz counts. */
export interface TaxServerCounts {
  answered: number;
  /** Requests refused for their credential. */
  refused: number;
  /** Carts refused unread: over the body limit (413), not sent as JSON (415), not JSON, no list of items (400). */
  unreadable: number;
  /** Items without a row of the table (a cart of three such items counts three). */
  noRow: number;
  /** Answers the ERP did not give in time or at all: from the table, or the failure answer. */
  fallbacks: number;
  /** Carts whose table row could not be computed (answered 500, logged with the row's place). */
  failed: number;
}

/** A cart is small: 1 MB holds thousands of items; anything larger is not a cart. */
const bodyLimit = 1_048_576;

/** The callback's refusal shape, `{"error":"…","message":…}`, for what node refuses before any route. */
const earlyRefusalShape: RefusalShape = ({ code, message }) => ({ error: code, message });

/** Starts `tax serve`: the callback's route and /healthz. */
export async function startTaxServer(options: TaxServerOptions): Promise<RunningServer & { counts: TaxServerCounts }> {
  const counts: TaxServerCounts = { answered: 0, refused: 0, unreadable: 0, noRow: 0, fallbacks: 0, failed: 0 };
  let closing = false;
  const erp = options.forward === undefined ? undefined : new TaxErp(options.forward, options.shape);
  const cartRefused = refusedCartLine(options);
  const route: CallbackRoute = {
    path: options.path,
    bodyLimit,
    check: () => undefined,
    countsByAddress: false,
    refusingSome: () => false,
    answer: (cart) => answerCart(cart, options, erp, { counts, cartRefused }),
    refused: () => counts.refused++,
    unreadable: (clientAddress, reason) => {
      counts.unreadable++;
      cartRefused(clientAddress, reason);
    },
    clientAddress: clientAddressReader(options.trustProxy),
    answerScanned: erp === undefined ? scannedCarts(options, counts) : undefined,
    cartRead: skuNumberWatch(options.shape.request, (line) => options.log.warn(line)),
    // A key twice reads two ways only where a second reader reads the same text: the ERP behind --forward-to. From the
    // table, the parse is the one reader, and the look (~3% of an answer) is left out of the hot path.
    refusesKeysTwice: erp !== undefined,
    closing: () => closing,
  };
  const app = Fastify({
    logger: false,
    bodyLimit,
    forceCloseConnections: 'idle',
    // Refusals node makes before any route (431, 408, 400, 417) in the one shape of every refusal, not fastify's.
    clientErrorHandler: clientErrorAnswer(earlyRefusalShape),
    trustProxy: fastifyTrustProxy(options.trustProxy),
    serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void) =>
      createServer(
        serverTimeouts(options.requestTimeoutMs),
        forwardedAware(callbackFirst(route, handler), options.trustProxy, options.proxyHeader),
      ),
  });
  answerUnmetExpectations(app.server, earlyRefusalShape);
  limitConnections(
    app.server,
    {
      max: options.maxConnections,
      perAddress: options.maxConnectionsPerAddress,
      trustedPeer: trustedPeerCheck(options.trustProxy),
    },
    (line) => options.log.warn(`tax serve: ${line}`),
  );
  const guard = guardCallback(app, options.auth, options);
  route.check = guard.check;
  route.countsByAddress = guard.countsByAddress;
  route.refusingSome = guard.refusingSome;
  app.get('/healthz', async () => ({
    status: 'ok',
    ...(options.table === undefined ? {} : { table: options.table.tableStatus() }),
    // The ERP's figures, never its URL: the page needs no credential, and the host, port and path are the ERP's.
    ...(erp === undefined ? {} : { budgetMs: erp.forward.budgetMs, erpOpen: erp.openRequests }),
    ...counts,
  }));
  addFastifyCallbackRoute(app, route);
  answerUnknownRoutes(app, [
    { path: options.path, methods: ['POST'] },
    { path: '/healthz', methods: ['GET', 'HEAD'] },
    ...(options.auth.kind === 'token' ? [{ path: options.auth.tokenPath, methods: ['POST'] }] : []),
  ]);
  await listenOn(app, options.host, options.port);
  const port = listeningPort(app.server.address(), options.port);
  const close = async () => {
    closing = true;
    await app.close();
    await erp?.close();
  };
  return {
    url: baseUrlOf('http', options.host, port),
    counts,
    close,
    dropConnections: () => app.server.closeAllConnections(),
  };
}

/** The callback through fastify's router, for the requests callbackFirst leaves to it: the same check and answers. */
function addFastifyCallbackRoute(app: FastifyInstance, route: CallbackRoute): void {
  // The ERP's budget runs from the request's arrival: its headers, before the body has come and been parsed.
  const arrivals = new WeakMap<FastifyRequest, number>();
  const onRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    arrivals.set(request, performance.now());
    // Checked before the body is read: a caller without the credential gets nothing parsed nor computed.
    const refusal = route.check(request.headers.authorization, request.ip);
    if (refusal === undefined) return;
    route.refused();
    refusal.report?.(request.ip);
    return reply.code(refusal.status).headers(refusal.headers).send(refusal.body);
  };
  // A scope of its own: the callback alone refuses text/plain and says so; the token route keeps fastify's parsers.
  void app.register(async (scope) => {
    // Only JSON is read as a cart: a body sent as text/plain is refused for its type (415, saying to send
    // application/json), not read as text and refused for the items it seems to lack. As the webhook receiver does.
    scope.removeContentTypeParser('text/plain');
    refuseUnreadCarts(scope, route);
    // A compressed cart (Content-Encoding gzip, deflate, br, zstd) is decoded as it streams in, as the webhook
    // receiver decodes an event, the body limit counting the decoded bytes (a small body that would inflate to
    // gigabytes stops at 1 MB); another coding is refused 415 naming it. Read as it came, it was "not JSON".
    scope.addHook('preParsing', async (request, _reply, payload) =>
      request.method === 'POST' ? decodedBody(request.raw, request.routeOptions.bodyLimit) : payload,
    );
    scope.post(route.path, { onRequest }, async (request, reply) => {
      const arrivedAt = arrivals.get(request) ?? performance.now();
      // This route has no cart's text to forward to an ERP: it writes the body again, which a value nested a few
      // thousand levels deep would overflow. Such a cart is no cart: refused as the callback's own route refuses it.
      const nested = nestingProblem(request.body, cartDepthLimit);
      if (nested !== undefined) {
        route.unreadable(request.ip, `the cart is ${nested}`);
        return reply
          .code(400)
          .type(jsonContentType)
          .send(JSON.stringify(refusal(`the cart is ${nested}`)));
      }
      const answer = await route.answer({ body: request.body, arrivedAt, clientAddress: () => request.ip });
      return reply.code(answer.status).type(jsonContentType).send(answer.json);
    });
  });
}

/**
 * Logs a cart refused unread or for what it holds (400, 413, 415), naming its client: through the servers' one
 * ThrottledLog, a client address's first in the window a refused token is logged once in, at most ten such lines a
 * window, the others said in one line when it ends (a platform whose every cart is wrong sends thousands a minute);
 * /healthz counts each.
 */
function refusedCartLine(options: TaxServerOptions): (clientAddress: string, reason: string) => void {
  const lines = new ThrottledLog({
    log: (line) => options.log.warn(line),
    windowMs: (options.tokenFailureLimit ?? defaultTokenFailureLimit).windowMs,
    now: options.now,
    summary: ({ count, from, seconds }) =>
      `tax callback refused ${countOf(count, 'more carts')} in the last ${seconds} s, not logged one by one: ${from}.`,
  });
  return (clientAddress, reason) =>
    lines.event(clientAddress, () => `tax callback refused a cart from ${clientAddress}: ${reason}`);
}

/** The answer to a cart that passed the check, counted (and logged when refused) as /healthz shows it. */
async function answerCart(
  cart: ArrivedCart,
  options: TaxServerOptions,
  erp: TaxErp | undefined,
  { counts, cartRefused }: { counts: TaxServerCounts; cartRefused: (clientAddress: string, reason: string) => void },
): Promise<SentAnswer> {
  const fromTable = options.table === undefined ? undefined : () => answerRequest(cart.body, options);
  const report = { fallback: () => counts.fallbacks++, warn: (line: string) => options.log.warn(line) };
  let answer: Answer;
  try {
    answer =
      erp === undefined ? answerRequest(cart.body, options) : await answerThroughErp(cart, erp, fromTable, report);
  } catch (error) {
    // A failure no rule foresaw: answered 500 by the route, and counted and said here, so it leaves a trace.
    counts.failed++;
    options.log.warn(`tax callback failed on a cart from ${cart.clientAddress()}: ${(error as Error).message}`);
    throw error;
  }
  if ('status' in answer) {
    if (answer.status === 422) counts.noRow += Array.isArray(answer.body.missing) ? answer.body.missing.length : 1;
    else if (answer.status === 500) counts.failed++;
    else if (answer.status === 400) counts.unreadable++;
    // A cart refused for what it holds is said, naming its client: the platform's side may need a fix. A missing
    // row (422) is said every time: each names the NCMs the table lacks, the operator's to add.
    if (answer.status === 400) cartRefused(cart.clientAddress(), String(answer.body.message));
    else if (answer.status === 422)
      options.log.warn(`tax callback refused a cart from ${cart.clientAddress()}: ${String(answer.body.message)}`);
    else if (answer.warning !== undefined) options.log.warn(answer.warning);
    return { status: answer.status, json: JSON.stringify(answer.body) };
  }
  counts.answered++;
  // The answer's JSON, written once where it was made: sent as it is.
  return { status: 200, json: answer.json };
}

const refusal = (message: string) => ({ error: 'bad-request', message });
const refuse = (message: string): Answer => ({ status: 400, body: refusal(message) });

/** The answer to one callback: the taxes, or why not, in the answer's error shape. */
function answerRequest(body: unknown, options: TaxServerOptions): Answer {
  // Most carts are written in one pass; the rest (a refusal, an amount for the fractions) take the general path.
  const json = options.table === undefined ? undefined : onePassAnswer(body, options.table.current(), options.shape);
  if (json !== undefined) return { json };
  // Walked only here, off the common path: the refusals below word the cart's values (JSON.stringify, String),
  // which overflow the stack on a value nested a few thousand levels deep, a depth JSON.parse takes.
  const nested = nestingProblem(body, cartDepthLimit);
  if (nested !== undefined) return refuse(`the cart is ${nested}`);
  return generalAnswer(body, options);
}

/** As deep as the webhook receiver takes an event: a cart of any real shape is a few levels deep. */
const cartDepthLimit = 64;

/**
 * The answer to carts read from their bytes (cart-scan.ts), when the shape's paths are plain keys and a table answers:
 * a cart in UTF-8 that the scan vouches for and the one pass answers, counted as answered. Undefined for any other
 * cart, which is parsed and answered as before.
 */
function scannedCarts(
  options: TaxServerOptions,
  counts: TaxServerCounts,
): ((bytes: Buffer, contentType: string | undefined) => SentAnswer | undefined) | undefined {
  const scan = new CartScan(options.shape.request);
  const table = options.table;
  if (!scan.usable || table === undefined) return undefined;
  return (bytes, contentType) => {
    // A cart in another charset is decoded before it is read.
    if (declaredCharset(contentType) !== undefined || !scan.scan(bytes)) return undefined;
    const json = scannedAnswer(scan, table.current(), options.shape);
    if (json === undefined) return undefined;
    counts.answered++;
    return { status: 200, json };
  };
}

/** The answer of the general path: every refusal worded, and amounts of any size or number of decimals. */
function generalAnswer(body: unknown, options: TaxServerOptions): Answer {
  const request = readTaxSale(body, options.shape.request);
  if (typeof request === 'string') return refuse(request);
  const from = request.from.trim().toUpperCase();
  const to = request.to.trim().toUpperCase();
  if (!isFederativeUnit(from) || !isFederativeUnit(to))
    return refuse(
      [stateProblem(request.from, options.shape.request.from), stateProblem(request.to, options.shape.request.to)]
        .filter((problem) => problem !== undefined)
        .join('; '),
    );
  const buyer = buyerOf(request.paysIcms);
  if (buyer === undefined) return refuse(buyerProblem(request.paysIcms, options.shape.request.buyerPaysIcms));
  if (options.table === undefined) throw new Error('answered from a table that was not given');
  const table = options.table.current();
  const items: TaxItem[] = [];
  for (const [index, value] of request.items.entries()) {
    const item = checkCartItem(value, options.shape.request);
    if (typeof item === 'string') return refuse(`item ${index + 1}: ${item}`);
    items.push(item);
  }
  let quoted: ItemTaxes[];
  try {
    quoted = quoteItems(table, items, { from, to, buyer });
  } catch (error) {
    if (error instanceof TaxRowFailedError)
      return {
        status: 500,
        body: { error: 'tax-row-failed', message: error.message },
        warning: `tax callback failed: ${error.message}`,
      };
    if (!(error instanceof NoTaxRowError)) throw error;
    return { status: 422, body: { error: 'no-tax-row', message: error.message, missing: error.missing } };
  }
  const answered = skusAsSent(quoted, request.items, options.shape.request);
  return {
    json: JSON.stringify({ [options.shape.answer.items]: answered, [options.shape.answer.totals]: taxTotals(quoted) }),
  };
}

/**
 * What is wrong with a state of the cart, named by its path as the buyer's flag is: the refusal blamed a valid origin
 * too and quoted `""` for a destination that was not sent (a user test). Undefined when it is a state.
 */
function stateProblem(written: string, path: string): string | undefined {
  if (isFederativeUnit(written.trim().toUpperCase())) return undefined;
  if (written.trim() === '') return `${path} is missing: the state (UF) such as SP`;
  return `${path} must be a state (UF) such as SP, not ${quotedJson(JSON.stringify(written), 41)}`;
}

/**
 * Why the buyer's ICMS flag cannot be read, naming its path in the shape: "not undefined" was a JavaScript word for a
 * flag the cart left out. A long value is quoted by its start.
 */
function buyerProblem(paysIcms: unknown, path: string): string {
  if (paysIcms === undefined || paysIcms === null)
    return `${path} is missing: whether the buyer pays ICMS must be true or false`;
  const written = JSON.stringify(paysIcms);
  // Its first 40 characters, as the refusals of an item's values quote a long one, and its length.
  const start = quotedJson(written, 41);
  const quoted = start === written ? written : `${start} (${written.length.toLocaleString('en')} characters)`;
  return `${path} (whether the buyer pays ICMS) must be true or false, not ${quoted}`;
}
