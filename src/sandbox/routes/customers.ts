import type { FastifyInstance, FastifyReply } from 'fastify';
import { documentLookupKey } from '../../domain/documents.js';
import {
  createCustomer,
  customerAddresses,
  setCustomerActive,
  updateCustomer,
  type Outcome,
} from '../customers/rules.js';
import { mergePatch, parseStoreSettings } from '../customers/settings.js';
import { sendError } from '../http-answers.js';
import type { SandboxOptions } from '../options.js';
import type { SandboxState } from '../state.js';

/**
 * The customer routes of the platform document (create, update, status, addresses) and the
 * `/_sandbox` routes tests use to read customers and the e-mail outbox and to switch store settings.
 */
export function registerCustomers(app: FastifyInstance, state: SandboxState, _options: SandboxOptions): void {
  const store = state.customers;

  app.post('/v1/customer', async (request, reply) =>
    answer(reply, createCustomer(store, request.body, new Date(state.clock.now()))),
  );
  app.put<{ Params: { document: string } }>('/v1/customer/:document', async (request, reply) =>
    answer(reply, updateCustomer(store, request.params.document, request.body, new Date(state.clock.now()))),
  );
  app.put<{ Params: { document: string; active: string } }>(
    '/v1/customer/updateStatus/:document/:active',
    async (request, reply) => answer(reply, setCustomerActive(store, request.params.document, request.params.active)),
  );
  app.get<{ Params: { document: string } }>('/v1/customer/addresses/:document', async (request, reply) =>
    answer(reply, customerAddresses(store, request.params.document)),
  );

  // A formatted CNPJ holds a '/': sent unencoded it splits the path in two, and is still the same document.
  app.put<{ Params: { root: string; branch: string } }>('/v1/customer/:root/:branch', async (request, reply) =>
    answer(
      reply,
      updateCustomer(
        store,
        `${request.params.root}/${request.params.branch}`,
        request.body,
        new Date(state.clock.now()),
      ),
    ),
  );
  app.put<{ Params: { root: string; branch: string; active: string } }>(
    '/v1/customer/updateStatus/:root/:branch/:active',
    async (request, reply) =>
      answer(reply, setCustomerActive(store, `${request.params.root}/${request.params.branch}`, request.params.active)),
  );
  app.get<{ Params: { root: string; branch: string } }>(
    '/v1/customer/addresses/:root/:branch',
    async (request, reply) =>
      answer(reply, customerAddresses(store, `${request.params.root}/${request.params.branch}`)),
  );

  const open = { config: { public: true, control: true } };
  app.get('/_sandbox/customers', open, async () => store.list().map((stored) => stored.customer));
  app.get<{ Params: { document: string } }>('/_sandbox/customers/:document', open, async (request, reply) => {
    const stored = store.find(documentLookupKey(request.params.document));
    return stored
      ? stored.customer
      : sendError(reply, 404, `No customer with document ${request.params.document} in the store`);
  });
  app.delete('/_sandbox/customers', open, async () => {
    const removed = store.size;
    store.clear();
    return { removed };
  });
  app.get('/_sandbox/outbox', open, async () => store.outbox);
  app.get('/_sandbox/settings', open, async () => store.settings);
  app.put('/_sandbox/settings', open, async (request, reply) => {
    if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) {
      return sendError(reply, 400, 'Send a JSON object of store settings to merge (RFC 7396)');
    }
    try {
      store.settings = parseStoreSettings(mergePatch(store.settings, request.body), 'PUT /_sandbox/settings');
    } catch (error) {
      return sendError(reply, 400, (error as Error).message);
    }
    return store.settings;
  });
}

/** The outcome as an answer: 200 with the value at the root, or the platform's error body. */
function answer<T>(reply: FastifyReply, outcome: Outcome<T>): FastifyReply | T {
  if (outcome.ok) return outcome.value;
  // Why the sandbox refused, for a person debugging a rehearsal; the body keeps the platform's exact wording.
  if (outcome.detail) reply.header('x-sandbox-detail', asciiHeader(outcome.detail));
  return sendError(reply, outcome.status, outcome.message);
}

function asciiHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .slice(0, 500);
}
