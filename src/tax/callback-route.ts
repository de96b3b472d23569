/**
 * The callback's own route, taken before fastify's router for the requests every platform sends (POST to the path,
 * a JSON body with its Content-Length): fastify's request path (hooks, reply, async resources) cost 6–30 µs of a
 * cart's ~200 µs of CPU once the answer was written in one pass (docs/decisions/0023-tax-callback-one-pass.md).
 * The same check of the credential before the body is read, the same body limit, JSON parser and answers. Fastify's
 * route for the callback stays, and answers every request this one leaves (another form of the URL or content type,
 * a chunked body, an empty one, a Content-Encoding).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallbackCheck } from './callback-auth.js';
import { type CartRefusal, cartText, internalErrorBody, readCartBody } from './cart-body.js';
import type { ArrivedCart } from './erp-forward.js';

/** An answer ready to send: its status and its JSON. */
export interface SentAnswer {
  status: number;
  json: string | Buffer;
  /** Headers beyond the content's (a 401's challenge). */
  headers?: Record<string, string>;
}

export interface CallbackRoute {
  path: string;
  bodyLimit: number;
  check: CallbackCheck;
  /** Wrong credentials are counted per client address, which only fastify's route knows: it answers refusals. */
  countsByAddress: boolean;
  /** True while some client address is refused whatever it sends: fastify's route then takes every request. */
  refusingSome(): boolean;
  /** The answer to a cart that passed the check. */
  answer(cart: ArrivedCart): Promise<SentAnswer>;
  /** Counts a request refused for its credential. */
  refused(): void;
  /** Counts and logs a cart refused unread (not JSON, too large, of another type), naming its client. */
  unreadable(clientAddress: string, reason: string): void;
  /** The client's address as fastify's request.ip would read it (after --trust-proxy), for the log lines. */
  clientAddress(request: IncomingMessage): string;
  /**
   * The answer to a cart read from its bytes without parsing it (cart-scan.ts), counted as answered; undefined when
   * the scan declines the cart, which is then read as JSON and answered as every other.
   */
  answerScanned?(bytes: Buffer, contentType: string | undefined): SentAnswer | undefined;
  /** Sees each cart read as JSON, with the text it was read from (both routes): what only the text shows. */
  cartRead(body: unknown, text: string): void;
  /** With --forward-to: a cart holding a key twice in one object is refused (readCartBody). */
  refusesKeysTwice?: boolean;
  /** True once the server is closing: every request then is answered 503 (stoppingAnswer). */
  closing(): boolean;
}

export const jsonContentType = 'application/json; charset=utf-8';

/** A request handler that takes the callback's common requests and hands every other one to `others`. */
export function callbackFirst(
  route: CallbackRoute,
  others: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    // Before fastify, which would answer its own 503 shape (`"error":"Service Unavailable","statusCode":503`) to a
    // request arriving on a connection still open while the server stops: the callback's refusals have one shape.
    if (route.closing()) send(response, stoppingAnswer, true);
    else if (takes(route, request)) answerCallback(route, request, response, others);
    else others(request, response);
  };
}

/**
 * The answer to a request that arrives while `tax serve` stops (a keep-alive connection with a cart in flight, or
 * one pipelined after it): 503 in the callback's error shape, the connection closed (as fastify closes it), so the
 * platform asks again on a new connection, to another instance or to this one once it is back. Its body is not read.
 */
const stoppingAnswer: SentAnswer = {
  status: 503,
  json: JSON.stringify({
    error: 'shutting-down',
    message: 'tax serve is stopping and takes no more requests: send it again to another instance, or once it is back',
  }),
};

/** The requests fastify would read as JSON under this route, in the forms a platform sends them. */
function takes(route: CallbackRoute, request: IncomingMessage): boolean {
  if (request.method !== 'POST' || request.url !== route.path || route.refusingSome()) return false;
  const length = Number(request.headers['content-length']);
  if (!(length > 0 && length <= route.bodyLimit) || request.headers['transfer-encoding'] !== undefined) return false;
  // An encoded body (gzip) is decoded by fastify's route, as it streams in.
  if (request.headers['content-encoding'] !== undefined) return false;
  const type = request.headers['content-type']?.toLowerCase();
  return type === 'application/json' || (type?.startsWith('application/json;') ?? false);
}

function answerCallback(
  route: CallbackRoute,
  request: IncomingMessage,
  response: ServerResponse,
  others: (request: IncomingMessage, response: ServerResponse) => void,
): void {
  const arrivedAt = performance.now();
  // Checked before the body is read: a caller without the credential gets nothing parsed nor computed.
  const refusal = route.check(request.headers.authorization);
  if (refusal !== undefined && route.countsByAddress) {
    // Fastify's route knows the client's address, which the failure counts against; it reads no body either.
    others(request, response);
    return;
  }
  if (refusal !== undefined) {
    route.refused();
    refusal.report?.(route.clientAddress(request));
    send(response, { status: refusal.status, json: JSON.stringify(refusal.body), headers: refusal.headers });
    return;
  }
  const contentType = request.headers['content-type'];
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    const scanned = scannedAnswer(route, bytes, contentType);
    if (scanned !== undefined) {
      send(response, scanned);
      return;
    }
    const decoded = cartText(bytes, contentType);
    const text = 'text' in decoded ? decoded.text : '';
    const read =
      'text' in decoded
        ? readCartBody(text, contentType, `${text.length} characters`, route.refusesKeysTwice)
        : decoded;
    if ('refusal' in read) {
      route.unreadable(route.clientAddress(request), read.refusal.reason);
      send(response, refusalAnswer(read.refusal), true);
      return;
    }
    const body = read.body;
    route.cartRead(body, text);
    route.answer({ body, text, arrivedAt, clientAddress: () => route.clientAddress(request) }).then(
      (answer) => send(response, answer),
      (error: unknown) => send(response, internalError(error)),
    );
  });
}

/**
 * The scan's answer, if it gives one. A failure of the scan's own (a fault in it, not in the cart) leaves the cart
 * to the parse, which answers it, or answers 500 and counts it, as any failure of an answer.
 */
function scannedAnswer(route: CallbackRoute, bytes: Buffer, contentType: string | undefined): SentAnswer | undefined {
  try {
    return route.answerScanned?.(bytes, contentType);
  } catch {
    return undefined;
  }
}

/** A refusal of what arrived, as it is sent. */
export function refusalAnswer(refusal: CartRefusal): SentAnswer {
  return { status: refusal.status, json: JSON.stringify(refusal.body), headers: refusal.headers };
}

/** The answer to a handler's failure, as fastify's route answers it. */
function internalError(error: unknown): SentAnswer {
  return { status: 500, json: JSON.stringify(internalErrorBody(error)) };
}

/**
 * Writes the answer; `closing` when the rest of the connection cannot be trusted (a body not read as JSON) or the
 * server stops.
 */
function send(response: ServerResponse, answer: SentAnswer, closing = false): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(answer.status, {
    ...answer.headers,
    'content-type': jsonContentType,
    'content-length': typeof answer.json === 'string' ? Buffer.byteLength(answer.json) : answer.json.length,
    ...(closing ? { connection: 'close' } : {}),
  });
  response.end(answer.json);
}
