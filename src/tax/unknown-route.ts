import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { printable } from '../lib/printable.js';

/** A path `tax serve` answers and the methods it takes there. */
export interface KnownRoute {
  path: string;
  methods: readonly string[];
}

/**
 * Answers a request to no route in the callback's error shape, as every other refusal is: `405` with `Allow` for a
 * known path asked with another method (a `PUT /tax`), `404` naming the routes there are otherwise. Fastify's own
 * answer (`{"message":"Route PUT:/tax not found","error":"Not Found","statusCode":404}`) was a second shape for a
 * platform to parse, and said "not found" of the callback's own path. What fastify refuses before (a body to no
 * route that does not parse) is answered so too: the body of a request to no route does not matter.
 */
export function answerUnknownRoutes(app: FastifyInstance, routes: readonly KnownRoute[]): void {
  app.setNotFoundHandler((request, reply) => noRoute(request, reply, routes));
  // The callback's scope and the token endpoint's answer their own errors; this one is reached by the others.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (request.is404) return noRoute(request, reply, routes);
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    return reply.code(status).send({ error: status >= 500 ? 'internal-error' : 'bad-request', message: error.message });
  });
}

function noRoute(request: FastifyRequest, reply: FastifyReply, routes: readonly KnownRoute[]): FastifyReply {
  const path = request.url.split('?')[0] ?? '';
  const method = printable(request.method);
  const known = routes.find((route) => route.path === path);
  if (known !== undefined) {
    const message = `${known.path} takes ${known.methods.join(' or ')}, not ${method}`;
    return reply.code(405).header('allow', known.methods.join(', ')).send({ error: 'method-not-allowed', message });
  }
  const served = routes.map((route) => `${route.methods[0] ?? ''} ${route.path}`).join(', ');
  const asked = `${method} ${JSON.stringify(printable(path.slice(0, 100)))}`;
  return reply.code(404).send({ error: 'not-found', message: `no route ${asked}: tax serve answers ${served}` });
}
