import type { FastifyReply } from 'fastify';

/** Error bodies in the platform's style: `{"status":"UNPROCESSABLE_ENTITY","message":"..."}`. */
export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.code(statusCode).send({ status: statusNames[statusCode] ?? 'ERROR', message });
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
