import type { FastifyInstance } from 'fastify';
import type { SandboxState } from '../state.js';

/** `/_sandbox/*`: inspection and control for tests; not part of the platform, no token needed. */
export function registerControl(app: FastifyInstance, state: SandboxState): void {
  const open = { config: { public: true, control: true } };
  app.get('/_sandbox/requests', open, async () => Object.fromEntries(state.requestCounts));
  app.delete('/_sandbox/requests', open, async () => {
    state.requestCounts.clear();
    return { ok: true };
  });
  app.get('/_sandbox/events', open, async () => state.events.list());
  app.post('/_sandbox/tokens/revoke', open, async () => {
    const revoked = state.tokens.size;
    state.tokens.clear();
    return { revoked };
  });
}
