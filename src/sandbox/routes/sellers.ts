import type { FastifyInstance } from 'fastify';
import type { SandboxState } from '../state.js';
import { sendError, wholeNumberParameter } from '../http-answers.js';

/** `GET /sellerModule/listSellers`: limit (default 20, no ceiling), offset (default 0), email (partial, case-insensitive). */
export function registerSellers(app: FastifyInstance, state: SandboxState): void {
  app.get('/sellerModule/listSellers', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const limit = wholeNumberParameter(query, 'limit', 1, 20);
    if (typeof limit === 'string') return sendError(reply, 400, limit);
    const offset = wholeNumberParameter(query, 'offset', 0, 0);
    if (typeof offset === 'string') return sendError(reply, 400, offset);
    const email = typeof query.email === 'string' ? query.email.toLowerCase() : '';
    const matching = email ? state.sellers.filter((rep) => rep.username.toLowerCase().includes(email)) : state.sellers;
    return reply.server.dialect.listingAnswer(matching.slice(offset, offset + limit), offset);
  });
}
