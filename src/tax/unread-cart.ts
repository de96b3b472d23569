import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { CallbackRoute } from './callback-route.js';
import { CartRefusalError, cartText, internalErrorBody, readCartBody } from './cart-body.js';
import { decodedCodings } from '../http-server/content-coding.js';

/** An answer of the callback's error shape, as the refusals of what a cart holds (400 `bad-request`). */
interface UnreadAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The codings a body may come in, as RFC 9110 (15.5.16) says a 415 for a coding tells them. */
const acceptedCodings = { 'accept-encoding': decodedCodings.join(', ') };

/**
 * The callback's carts that fastify refuses before the handler has them (over the body limit, a content type that
 * is not JSON, a body that does not parse or is empty): each logged, naming its client, counted in `unreadable`, as
 * the carts the handler cannot read are, and answered in the callback's error shape. Without this, fastify answered
 * with its own code and shape (`"error":"Bad Request"`) and the log said nothing: a platform whose every cart was
 * refused so left no trace. The JSON is read by the own route's reader, so both routes answer alike. Set on the
 * callback's scope alone.
 */
export function refuseUnreadCarts(scope: FastifyInstance, route: CallbackRoute): void {
  scope.removeContentTypeParser('application/json');
  // As bytes: the cart is read in the charset its Content-Type declares (cartText), as the own route reads it.
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
    const contentType = request.headers['content-type'];
    const decoded = cartText(bytes as Buffer, contentType);
    if ('refusal' in decoded) return done(new CartRefusalError(decoded.refusal), undefined);
    const read = readCartBody(decoded.text, contentType, sizeSent(request), route.refusesKeysTwice);
    if ('refusal' in read) done(new CartRefusalError(read.refusal), undefined);
    else {
      route.cartRead(read.body, decoded.text);
      done(null, read.body);
    }
  });
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    // A failure of b2bctl's own: counted and logged where it happened, answered in the callback's error shape.
    if (status < 400 || status >= 500) return reply.code(500).send(internalErrorBody(error));
    if (error instanceof CartRefusalError) {
      route.unreadable(request.ip, error.refusal.reason);
      return reply.code(status).send(error.refusal.body);
    }
    const { reason, answer } = unreadCart(error, status, request, route.bodyLimit);
    route.unreadable(request.ip, reason);
    return reply
      .code(answer.status)
      .headers(answer.headers ?? {})
      .send(answer.body);
  });
}

/** Why the cart was refused, in b2bctl's words, and its answer in the callback's error shape. */
function unreadCart(
  error: FastifyError,
  status: number,
  request: FastifyRequest,
  bodyLimit: number,
): { reason: string; answer: UnreadAnswer } {
  const type = request.headers['content-type']?.slice(0, 100);
  const length = request.headers['content-length'];
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const message = `the cart is larger than ${bodyLimit / 1_048_576} MB (${bodyLimit} bytes), the most tax serve reads`;
      const sent =
        length === undefined ? 'sent without a Content-Length, read up to the limit' : `Content-Length ${length}`;
      return { reason: `${message} (${sent}).`, answer: { status: 413, body: { error: 'too-large', message } } };
    }
    case undefined: {
      // The body's Content-Encoding (content-coding.ts): a coding not decoded (415), or a body not in its coding.
      const coding = request.headers['content-encoding']?.slice(0, 40);
      const message = `the body could not be decoded (Content-Encoding ${coding ?? 'none'}): ${error.message}`;
      if (status === 415)
        return {
          reason: `${message}.`,
          answer: { status, body: { error: 'unsupported-encoding', message }, headers: acceptedCodings },
        };
      return { reason: `${message}.`, answer: { status, body: { error: 'bad-request', message } } };
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      // Not read as JSON whatever it holds: a JSON cart sent as text/plain is refused for its type, not its items.
      const given = type === undefined ? 'no Content-Type' : `Content-Type ${type}`;
      const message = `the body was not read as JSON (${given}): send application/json`;
      return { reason: `${message}.`, answer: { status: 415, body: { error: 'not-json', message } } };
    }
    default: {
      // Another way the body could not be read (its length not the Content-Length said): fastify's words, in the
      // callback's shape.
      const message = `the body could not be read: ${error.message}`;
      return {
        reason: `its body could not be read (${sizeSent(request)}, content-type ${type ?? 'none'}): ${error.message}.`,
        answer: { status, body: { error: 'bad-request', message } },
      };
    }
  }
}

/** How much the request said it sends, as a refusal's log line names it: its Content-Length, or none. */
function sizeSent(request: FastifyRequest): string {
  const length = request.headers['content-length'];
  return length === undefined ? 'no content-length' : `${length} bytes`;
}
