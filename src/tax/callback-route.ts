/**
 * The callback's own route, taken before fastify's router for the requests every platform sends (POST to the path,
 * a JSON body with its Content-Length): fastify's request path (hooks, reply, async resources) cost 6–30 µs of a
 * cart's ~200 µs of CPU once the answer was written in one pass (docs/decisions/0023-tax-callback-one-pass.md).
 * The same check of the credential before the body is read, the same body limit, JSON parser and answers. Fastify's
 * route for the callback stays, and answers every request this one leaves (another form of the URL or content type,
 * a chunked body, an empty one).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseJsonSafely } from 'secure-json-parse';
import type { CallbackCheck } from './callback-auth.js';
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
  /** True once the server is closing: fastify then answers 503. */
  closing(): boolean;
}

export const jsonContentType = 'application/json; charset=utf-8';

/** A request handler that takes the callback's common requests and hands every other one to `others`. */
export function callbackFirst(
  route: CallbackRoute,
  others: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    if (takes(route, request)) answerCallback(route, request, response, others);
    else others(request, response);
  };
}

/** The requests fastify would read as JSON under this route, in the forms a platform sends them. */
function takes(route: CallbackRoute, request: IncomingMessage): boolean {
  if (request.method !== 'POST' || request.url !== route.path || route.closing() || route.refusingSome()) return false;
  const length = Number(request.headers['content-length']);
  if (!(length > 0 && length <= route.bodyLimit) || request.headers['transfer-encoding'] !== undefined) return false;
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
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const text = chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      // As fastify's JSON parser: a prototype's keys (`__proto__`, `constructor.prototype`) are refused.
      body = parseJsonSafely(text, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      route.unreadable(
        route.clientAddress(request),
        notJson(request.headers['content-type'], `${text.length} characters`),
      );
      send(response, invalidJson, true);
      return;
    }
    route.answer({ body, text, arrivedAt, clientAddress: () => route.clientAddress(request) }).then(
      (answer) => send(response, answer),
      (error: unknown) => send(response, internalError(error)),
    );
  });
}

/** Why a cart whose body did not parse as JSON was refused, as both routes log it. */
export function notJson(contentType: string | undefined, size: string): string {
  return `its body is not JSON (${size}, content-type ${contentType ?? 'none'}).`;
}

/** Fastify's answer to a body that is not JSON, word for word. */
const invalidJson: SentAnswer = {
  status: 400,
  json: JSON.stringify({
    statusCode: 400,
    code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    error: 'Bad Request',
    message: "Body is not valid JSON but content-type is set to 'application/json'",
  }),
};

/** Fastify's answer to a handler's failure. */
function internalError(error: unknown): SentAnswer {
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, json: JSON.stringify({ statusCode: 500, error: 'Internal Server Error', message }) };
}

/** Writes the answer; `closing` when the rest of the connection cannot be trusted (a body not read as JSON). */
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
