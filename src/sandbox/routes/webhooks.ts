import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sendError } from '../http-answers.js';
import type { SandboxState } from '../state.js';

const targetSchema = z.object({
  url: z.string().url(),
  style: z.enum(['basic', 'body', 'headers']).default('basic'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  tokenPath: z.string().startsWith('/').default('/oauth/token'),
  customersPath: z.string().startsWith('/').default('/webhooks/customers'),
  ordersPath: z.string().startsWith('/').default('/webhooks/orders'),
});

/** The webhook panel of the store: the receiver's configuration, the delivery history, and resend. */
export function registerWebhookControl(app: FastifyInstance, state: SandboxState): void {
  const open = { config: { public: true, control: true } };
  app.get('/_sandbox/webhook-config', open, async () => state.webhooks.describe() ?? {});
  // A partial body changes the fields it gives and keeps the others: correcting the URL alone asked for the secret
  // again (a user test). The first configuration needs url, clientId and clientSecret.
  app.put('/_sandbox/webhook-config', open, async (request, reply) => {
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return sendError(reply, 400, 'Webhook configuration: the body must be a JSON object of the fields to set');
    const current = state.webhooks.configured();
    const parsed = targetSchema.safeParse({ ...current, ...body });
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
      const first =
        current === undefined ? ' (no receiver is configured yet: url, clientId and clientSecret are needed)' : '';
      return sendError(reply, 400, `Webhook configuration: ${issues}${first}`);
    }
    state.webhooks.configure(parsed.data);
    return state.webhooks.describe();
  });
  app.delete('/_sandbox/webhook-config', open, async () => {
    state.webhooks.configure(undefined);
    return { ok: true };
  });
  app.get('/_sandbox/webhook-deliveries', open, async () => state.webhooks.list());
  app.post<{ Params: { id: string } }>('/_sandbox/webhook-deliveries/:id/resend', open, async (request, reply) => {
    const delivery = state.webhooks.resend(Number(request.params.id));
    if (!delivery) return sendError(reply, 404, `No webhook delivery ${request.params.id}`);
    await state.webhooks.idle();
    return delivery;
  });
}
