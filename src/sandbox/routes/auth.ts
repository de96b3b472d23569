import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxOptions } from '../options.js';
import type { SandboxState } from '../state.js';
import { sendAnswer, sendError } from '../http-answers.js';
import { sameSecret } from '../../http-server/same-secret.js';

/** `POST /v1/auth/token` (docs/sandbox.md) and the Bearer check every platform route sits behind. */
export function registerAuth(app: FastifyInstance, state: SandboxState, options: SandboxOptions): void {
  const dialect = app.dialect;
  app.post(dialect.tokenPath, { config: { public: true } }, async (request, reply) => {
    const credentials = credentialsOf(request, dialect.tokenStyles);
    if (!credentials) {
      return sendError(reply, 400, 'Send {"username","password"} as JSON, a form, or Basic credentials');
    }
    if (!sameSecret(credentials.username, options.username) || !sameSecret(credentials.password, options.password)) {
      return dialect.loginRefused
        ? sendAnswer(reply, 401, dialect.loginRefused)
        : sendError(reply, 401, 'Invalid username or password');
    }
    const token = state.issueToken(state.clock.now(), options.tokenTtlSeconds);
    return dialect.tokenAnswer(token, options.tokenTtlSeconds);
  });

  app.addHook('preHandler', async (request, reply) => {
    // An unknown route is a 404 whoever asks, so a wrong paths.* setting is not mistaken for bad credentials.
    if (request.routeOptions.config?.public || request.routeOptions.url === undefined) return;
    const header = request.headers.authorization;
    if (!header) return sendError(reply, 401, 'Token missing: send Authorization: Bearer <ACCESS_TOKEN>');
    const match = /^Bearer ([\w.~+/=-]+)$/i.exec(header);
    if (!match?.[1]) return sendError(reply, 401, 'Token malformed: send Authorization: Bearer <ACCESS_TOKEN>');
    const verdict = state.checkToken(match[1], state.clock.now());
    if (verdict === 'expired') return sendError(reply, 401, 'Token expired');
    if (verdict === 'unknown') return sendError(reply, 401, 'Token invalid');
  });
}

function credentialsOf(
  request: FastifyRequest,
  styles: 'any' | 'form',
): { username: string; password: string } | undefined {
  if (styles === 'form') {
    // An OAuth password grant: a form body with grant_type=password, nothing else.
    const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
    const fields = request.body as Record<string, unknown> | undefined;
    if (!form || fields?.grant_type !== 'password') return undefined;
  }
  const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body.username === 'string' && typeof body.password === 'string') {
    return { username: body.username, password: body.password };
  }
  return undefined;
}
