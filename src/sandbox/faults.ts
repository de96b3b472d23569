import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { SandboxOptions } from './options.js';
import { sendError } from './http-answers.js';

/**
 * The faults a real platform shows under load, on demand: latency before each answer, 429 above a request rate
 * (with Retry-After), 503s, and connections reset without an answer. Control routes are spared.
 */
export function registerFaults(
  app: FastifyInstance,
  options: SandboxOptions,
  random: () => number = Math.random,
): void {
  let windowStartedAt = 0;
  let requestsInWindow = 0;
  // The latency sits between the platform's work and its answer, as on a real network: a client that
  // dies while waiting has had its request applied and lost the answer, the case resume must handle.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (options.latencyMs > 0 && !request.routeOptions.config?.control)
      await latencyOn(request.raw.socket, options.latencyMs);
    return payload;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.control) return;
    if (options.rateLimit > 0) {
      // Real time on purpose: the rate limit paces real requests, whatever the test has set the platform clock to.
      const now = Date.now();
      if (now - windowStartedAt >= 1000) {
        windowStartedAt = now;
        requestsInWindow = 0;
      }
      requestsInWindow++;
      if (requestsInWindow > options.rateLimit) {
        const retryAfterSeconds = Math.max(1, Math.ceil((windowStartedAt + 1000 - now) / 1000));
        reply.header('retry-after', String(retryAfterSeconds));
        return sendError(reply, 429, `Rate limit of ${options.rateLimit} requests per second exceeded`);
      }
    }
    if (options.resetRate > 0 && random() < options.resetRate) {
      reply.hijack();
      request.raw.socket.resetAndDestroy();
      return reply;
    }
    if (options.failRate > 0 && random() < options.failRate) {
      return sendError(reply, 503, 'Service temporarily unavailable');
    }
  });
}

/**
 * Waits `ms` before an answer, or until its connection closes: a client that gave up, or a stop past its 10 s that
 * closed the connections still open. An answer no one can read needs no wait, and the wait's timer would hold a
 * stopped sandbox's process alive until it fired: `--latency 14000` printed "Sandbox stopped." at 10 s and exited at
 * 24 (a user test).
 */
async function latencyOn(socket: Socket, ms: number): Promise<void> {
  if (socket.destroyed) return;
  const closed = new AbortController();
  const cancel = () => closed.abort();
  socket.once('close', cancel);
  try {
    await delay(ms, undefined, { signal: closed.signal });
  } catch {
    // Aborted: the connection closed, nothing waits for the answer.
  } finally {
    socket.off('close', cancel);
  }
}
