import type { FastifyReply } from 'fastify';
import { type ErrorAnswer, undocumentedErrorStatuses } from './dialects/dialect.js';
import { dialectNamed, type Dialect } from './dialects/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How this sandbox answers what the platform document does not show. */
    dialect: Dialect;
  }
}

/** The dialect a reply speaks (the default one for a server without). */
export function dialectOf(reply: FastifyReply): Dialect {
  return reply.server.dialect ?? (dialectNamed('default') as Dialect);
}

/**
 * Error bodies in the platform's style: `{"status":"UNPROCESSABLE_ENTITY","message":"..."}` for the
 * documented 422; the dialect's body for 400/401/403/404, whose body the document does not show.
 */
export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  if (undocumentedErrorStatuses.has(statusCode)) {
    return sendAnswer(
      reply,
      statusCode,
      dialectOf(reply).errorAnswer(statusCode as 400, message, reply.request.url.split('?')[0] ?? '/'),
    );
  }
  return reply.code(statusCode).send({ status: statusNames[statusCode] ?? 'ERROR', message });
}

/** A dialect's error answer: its body (or none), content type and headers. */
export function sendAnswer(reply: FastifyReply, statusCode: number, answer: ErrorAnswer): FastifyReply {
  reply.code(statusCode);
  if (answer.headers) reply.headers(answer.headers);
  if (answer.contentType) reply.type(answer.contentType);
  return answer.body === undefined ? reply.send() : reply.send(answer.body);
}

const statusNames: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

/** A query parameter as a whole number of at least `minimum`, or the message that explains why not. */
export function wholeNumberParameter(
  query: Record<string, unknown>,
  name: string,
  minimum: number,
  fallback: number,
): number | string {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  const text = Array.isArray(raw) ? String(raw[0]) : String(raw);
  if (!/^\d+$/.test(text) || Number(text) < minimum) {
    return `Query parameter [${name}] with value [${text}] must be a whole number of at least ${minimum}`;
  }
  return Number(text);
}
