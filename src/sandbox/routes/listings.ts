import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendAnswer, sendError, wholeNumberParameter } from '../http-answers.js';
import { listingItemIn, noRecordFoundAnswer } from '../listings/answers.js';
import { type ListingName, listingNames, listingSpecs, noRecordFound, pageOf, pageWindow } from '../listings/rules.js';
import type { ListingItem } from '../listings/store.js';
import type { SandboxState } from '../state.js';

/**
 * The listings the document names by name only (pending quotes, store and branch contracts, cashback balance and
 * history, credit limits, customer groups, lead time) at the sandbox's paths, with limit/offset, the caps and the
 * end of each; a branch not linked to the token's head office gets 403.
 */
export function registerListings(app: FastifyInstance, state: SandboxState): void {
  for (const name of listingNames) {
    if (name === 'branchContracts') continue;
    app.get(listingSpecs[name].path, async (request, reply) =>
      answerPage(request, reply, name, state.listings.items.get(name) ?? [], state),
    );
  }
  app.get<{ Params: { branch: string } }>(listingSpecs.branchContracts.path, async (request, reply) => {
    const branch = request.params.branch;
    if (!state.listings.isLinked(branch))
      return sendError(reply, 403, `Branch [${branch}] is not linked to the head office of this token`);
    return answerPage(request, reply, 'branchContracts', state.listings.branchContracts.get(branch) ?? [], state);
  });
}

function answerPage(
  request: FastifyRequest,
  reply: FastifyReply,
  name: ListingName,
  items: readonly ListingItem[],
  state: SandboxState,
) {
  const spec = listingSpecs[name];
  const query = request.query as Record<string, unknown>;
  const limit = wholeNumberParameter(query, 'limit', 1, spec.defaultLimit);
  if (typeof limit === 'string') return sendError(reply, 400, limit);
  const offset = wholeNumberParameter(query, 'offset', 0, 0);
  if (typeof offset === 'string') return sendError(reply, 400, offset);
  const window = pageWindow(spec, limit, state.listings.ignoreOffset ? 0 : offset);
  const page = pageOf(items, spec, window);
  const dialect = reply.server.dialect;
  if (page.length === 0 && spec.end === 'no-record-found')
    return sendAnswer(reply, 400, noRecordFoundAnswer(dialect, noRecordFound, request.url.split('?')[0] ?? '/'));
  if (page.length === 0 && spec.end === 'empty-object') return {};
  return dialect.listingAnswer(
    page.map((item) => listingItemIn(dialect, item)),
    offset,
  );
}

/**
 * `/_sandbox/listings`: the test controls of the named listings.
 * - `POST /_sandbox/listings/:name/generate` `{"count": n}` appends n newer items (`branchContracts` takes `"branch"`).
 * - `DELETE /_sandbox/listings/:name` empties a listing.
 * - `PUT /_sandbox/listings/settings` `{"ignoreOffset": true}` answers the first page whatever the offset.
 */
export function registerListingControls(app: FastifyInstance, state: SandboxState): void {
  const open = { config: { public: true, control: true } };
  app.post<{ Params: { name: string }; Body: { count?: number; branch?: string } }>(
    '/_sandbox/listings/:name/generate',
    open,
    async (request, reply) => {
      const { name } = request.params;
      const count = request.body?.count;
      if (!named(name)) return sendError(reply, 404, `No listing [${name}]: one of ${listingNames.join(', ')}`);
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
        return sendError(reply, 400, 'Send {"count": a whole number}');
      if (name === 'branchContracts') state.listings.generateBranch(request.body?.branch ?? '0001', count);
      else state.listings.generate(name, count);
      return { name, count: (state.listings.items.get(name) ?? []).length };
    },
  );
  app.delete<{ Params: { name: string } }>('/_sandbox/listings/:name', open, async (request, reply) => {
    if (!named(request.params.name)) return sendError(reply, 404, `No listing [${request.params.name}]`);
    state.listings.clear(request.params.name);
    return { ok: true };
  });
  app.put<{ Body: { ignoreOffset?: boolean } }>('/_sandbox/listings/settings', open, async (request) => {
    state.listings.ignoreOffset = request.body?.ignoreOffset === true;
    return { ignoreOffset: state.listings.ignoreOffset };
  });
}

function named(name: string): name is ListingName {
  return (listingNames as string[]).includes(name);
}
