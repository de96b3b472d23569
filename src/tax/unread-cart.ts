import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { type CallbackRoute, notJson } from './callback-route.js';

/** An answer of the callback's error shape, as the refusals of what a cart holds (400 `bad-request`). */
interface UnreadAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The callback's carts that fastify refuses before the handler has them (over the body limit, a content type that
 * is not JSON, and on fastify's route a body that does not parse): each logged, naming its client, and counted in
 * `unreadable`, as the carts the handler cannot read are. Without this, fastify answered 413 and 415 with its own
 * code and the log said nothing: a platform whose every cart was refused so left no trace. Set on the callback's
 * scope alone.
 */
export function refuseUnreadCarts(scope: FastifyInstance, route: CallbackRoute): void {
  scope.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    // Failures of b2bctl's own keep fastify's answer.
    if (status < 400 || status >= 500) return reply.send(error);
    const { reason, answer } = unreadCart(error, request, route.bodyLimit);
    route.unreadable(request.ip, reason);
    if (answer === undefined) return reply.send(error);
    return reply.code(answer.status).send(answer.body);
  });
}

/** Why the cart was refused, in b2bctl's words, and the answer when fastify's own would not say what to send. */
function unreadCart(
  error: FastifyError,
  request: FastifyRequest,
  bodyLimit: number,
): { reason: string; answer?: UnreadAnswer } {
  const type = request.headers['content-type']?.slice(0, 100);
  const length = request.headers['content-length'];
  const size = length === undefined ? 'no content-length' : `${length} bytes`;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const message = `the cart is larger than ${bodyLimit / 1_048_576} MB (${bodyLimit} bytes), the most tax serve reads`;
      const sent =
        length === undefined ? 'sent without a Content-Length, read up to the limit' : `Content-Length ${length}`;
      return { reason: `${message} (${sent}).`, answer: { status: 413, body: { error: 'too-large', message } } };
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      // Not read as JSON whatever it holds: a JSON cart sent as text/plain is refused for its type, not its items.
      const given = type === undefined ? 'no Content-Type' : `Content-Type ${type}`;
      const message = `the body was not read as JSON (${given}): send application/json`;
      return { reason: `${message}.`, answer: { status: 415, body: { error: 'not-json', message } } };
    }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { reason: notJson(type, size) };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { reason: `its body is empty (content-type ${type ?? 'none'}).` };
    default:
      return { reason: `its body could not be read (${size}, content-type ${type ?? 'none'}): ${error.message}.` };
  }
}
