import type { FastifyInstance } from 'fastify';
import { sendError } from '../http-answers.js';
import type { SandboxState } from '../state.js';

/** One planned fault: the `onRequest`-th request to `route` from now is answered `answer`. */
interface ScheduledFault {
  route: string;
  onRequest: number;
  answer: 429 | 502 | 503 | 'revoke-tokens';
  seen: number;
}

/**
 * `POST /_sandbox/faults/scheduled` `{"route", "onRequest", "answer": 429|502|503|"revoke-tokens"}`: a fault at a
 * chosen request, for tests that need one mid-listing (a throttle, an outage, an expired token) at a known page.
 * A 429 asks to retry at once (Retry-After: 0); revoking tokens turns that request into a 401.
 */
export function registerScheduledFaults(app: FastifyInstance, state: SandboxState): void {
  const planned: ScheduledFault[] = [];
  const open = { config: { public: true, control: true } };
  app.post<{ Body: Partial<ScheduledFault> }>('/_sandbox/faults/scheduled', open, async (request, reply) => {
    const { route, onRequest, answer } = request.body ?? {};
    if (
      typeof route !== 'string' ||
      typeof onRequest !== 'number' ||
      ![429, 502, 503, 'revoke-tokens'].includes(answer ?? 0)
    )
      return sendError(reply, 400, 'Send {"route": path, "onRequest": n, "answer": 429 | 502 | 503 | "revoke-tokens"}');
    planned.push({ route, onRequest, answer: answer as ScheduledFault['answer'], seen: 0 });
    return { scheduled: planned.length };
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.config?.control) return;
    const path = request.url.split('?')[0];
    for (const fault of planned) {
      if (fault.route !== path || ++fault.seen !== fault.onRequest) continue;
      if (fault.answer === 'revoke-tokens') {
        state.tokens.clear();
        continue;
      }
      if (fault.answer === 429) reply.header('retry-after', '0');
      return sendError(
        reply,
        fault.answer,
        fault.answer === 429
          ? 'Rate limit exceeded'
          : fault.answer === 502
            ? 'Bad gateway'
            : 'Service temporarily unavailable',
      );
    }
  });
}
