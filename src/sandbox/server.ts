import Fastify, { type FastifyInstance } from 'fastify';
import { baseUrlOf, listeningPort } from '../http-server/serve.js';
import { SandboxClock } from './clock.js';
import { listenOn } from '../http-server/listen.js';
import { registerFaults } from './faults.js';
import { dialectNamed, type Dialect } from './dialects/index.js';
import { sendError } from './http-answers.js';
import type { SandboxOptions } from './options.js';
import { registerAuth } from './routes/auth.js';
import { registerControl } from './routes/control.js';
import { registerCustomers } from './routes/customers.js';
import { registerSellers } from './routes/sellers.js';
import { registerStock } from './routes/stock.js';
import { registerOrderControls, registerOrders } from './routes/orders.js';
import { registerOrderMoves } from './routes/order-moves.js';
import { seedSandboxState } from './seed.js';
import type { SandboxState } from './state.js';
import { registerWebhookControl } from './routes/webhooks.js';
import { registerListingControls, registerListings } from './routes/listings.js';
import { registerScheduledFaults } from './routes/scheduled-faults.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No Bearer token needed (the token route, control routes). */
    public?: boolean;
    /** A /_sandbox route: no faults injected, not counted. */
    control?: boolean;
  }
}

export interface RunningSandbox {
  /** Base URL to give b2bctl, such as http://127.0.0.1:40123. */
  url: string;
  state: SandboxState;
  app: FastifyInstance;
  close(): Promise<void>;
  /** Ends every connection still open: for a stop that has waited long enough (serveUntilInterrupted). */
  dropConnections(): void;
}

/**
 * Starts the simulated platform on loopback, seeded from the seed folder. `clock` is the platform's time; an
 * in-process test passes one that reads its fake clock, so the CLI and the platform agree on the time.
 */
export async function startSandbox(options: SandboxOptions, clock = new SandboxClock()): Promise<RunningSandbox> {
  const state = seedSandboxState(options, clock);

  // Closing ends only idle connections: a request in flight at Ctrl-C gets its answer (as from `tax serve`), not
  // a reset that a bulk run must count as a create that may have reached the platform.
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024, forceCloseConnections: 'idle' });
  app.decorate('dialect', options.dialect ?? (dialectNamed('default') as Dialect));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config?.control)
      state.countRequest(`${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`);
  });
  if (options.logRequest) {
    const log = options.logRequest;
    app.addHook('onResponse', async (request, reply) => {
      log(`${request.method} ${request.url} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`);
    });
  }
  // A platform whose clock is off (--clock-offset, PUT /_sandbox/clock) shows it in the Date header, which is
  // what b2bctl doctor measures.
  if (options.clockOffsetSeconds) state.clock.shiftBy(options.clockOffsetSeconds * 1000);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('date', new Date(state.clock.now()).toUTCString());
  });
  registerFaults(app, options);
  // An answer finished after Ctrl-C closes its connection: left open, a keep-alive client's would hold the stop for
  // the keep-alive timeout (72 s). Runs after the latency, during which the stop may have come.
  app.addHook('onSend', async (_request, reply) => {
    if (!app.server.listening) reply.header('connection', 'close');
  });
  registerScheduledFaults(app, state);
  registerAuth(app, state, options);
  registerSellers(app, state);
  registerCustomers(app, state, options);
  registerStock(app, state, options);
  registerOrders(app, state);
  registerOrderMoves(app, state, options.orderRoutes);
  registerListings(app, state);
  registerListingControls(app, state);
  registerControl(app, state);
  registerOrderControls(app, state, options.taxCallback);
  registerWebhookControl(app, state);
  if (options.webhook) state.webhooks.configure(options.webhook);
  state.webhooks.onFailure = options.logWebhookFailure;
  if (options.ordersWebhook === 'full') state.orderWebhookPayload = (order) => app.dialect.orderDetail(order);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, `No route ${request.method} ${request.url.split('?')[0]}`),
  );
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    return sendError(reply, status, status === 400 ? `Body cannot be parsed: ${error.message}` : error.message);
  });

  await listenOn(app, options.host, options.port);
  const url = baseUrlOf('http', options.host, listeningPort(app.server.address(), options.port));
  return { url, state, app, close: () => app.close(), dropConnections: () => app.server.closeAllConnections() };
}
