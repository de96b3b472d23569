import { type Dispatcher, request } from 'undici';
import { dispatcherFor } from '../net/dispatcher.js';
import { explainNetworkProblem, networkProblemSentence, type UrlSource } from '../net/network-error.js';
import type { ProxyEnvironment, ProxyRoute } from '../net/proxy-route.js';
import { bearerTokenText, unsendableTokenCharacter } from '../domain/bearer-token.js';
import type { WebhookKind } from '../domain/webhook-events.js';
import type { TokenStyle } from '../http-server/tokens.js';
import { quotedAnswer } from '../base/quoted-answer.js';
import { redactSecrets, secretsOfAuthorization } from '../lib/secret-values.js';

/** Who asks a token endpoint, and in which of the receiver's three request styles. */
export interface TokenClient {
  style: TokenStyle;
  clientId: string;
  clientSecret: string;
}

/** Where and how to deliver webhooks, as the platform's panel configures a receiver. */
export interface WebhookTarget extends TokenClient {
  /** The receiver's base URL, such as http://127.0.0.1:8788. */
  url: string;
  tokenPath: string;
  customersPath: string;
  ordersPath: string;
}

/** One step of a delivery, as reported by `webhook trigger` and the sandbox's delivery history. */
export interface DeliveryStep {
  step: 'token' | 'event';
  url: string;
  status?: number;
  error?: string;
  /** The answer's first 300 characters (never the token), each secret sent masked where it quotes one (secretsSentBy). */
  answer?: string;
}

export interface DeliveryOutcome {
  delivered: boolean;
  steps: DeliveryStep[];
}

const timeoutMs = 10_000;

/**
 * How deliveries reach the receiver: the proxy environment (HTTPS_PROXY, NO_PROXY), the process's by default; and
 * the flag that gave the receiver's URL, which a failure's fix names.
 */
export interface DeliveryOptions {
  env?: ProxyEnvironment;
  urlFlag: string;
  /** `--verbose`: a line per request and per answer (method, URL, status, time); no header, body or secret. */
  trace?: (line: string) => void;
}

/**
 * Does what the platform does for one event: asks the receiver's token endpoint in the configured style, then
 * POSTs the event with that Bearer token. Never throws: every failure is a step with its status or error.
 */
export async function deliverWebhook(
  target: WebhookTarget,
  kind: WebhookKind,
  payload: unknown,
  options: DeliveryOptions,
): Promise<DeliveryOutcome> {
  const { dispatcher, route } = dispatcherFor(new URL(target.url), { env: options.env });
  // The receiver's answers come within a fixed time: no setting to raise.
  const via = { dispatcher, route, source: { url: options.urlFlag } };
  try {
    const steps: DeliveryStep[] = [];
    const tokenStarted = performance.now();
    options.trace?.(`> POST ${new URL(target.tokenPath, target.url).href} (token, ${target.style} style)`);
    const token = await requestToken(target, steps, via);
    traceAnswer(options.trace, steps.at(-1), tokenStarted);
    if (token === undefined) return { delivered: false, steps };
    const eventStarted = performance.now();
    options.trace?.(`> POST ${eventUrlOf(target, kind).href} (${kind} event)`);
    const eventStep = await postEvent(target, kind, payload, token, via);
    traceAnswer(options.trace, eventStep, eventStarted);
    steps.push(eventStep);
    const delivered = eventStep.status !== undefined && eventStep.status >= 200 && eventStep.status < 300;
    return { delivered, steps };
  } finally {
    await dispatcher.close();
  }
}

/**
 * The way out to a receiver: its dispatcher, the proxy route that explains a network failure, and the flag its
 * URL came from (for the fix a failure names).
 */
export interface Via {
  dispatcher: Dispatcher;
  route: ProxyRoute;
  source: UrlSource;
}

async function requestToken(target: WebhookTarget, steps: DeliveryStep[], via: Via): Promise<string | undefined> {
  const { token, step } = await requestAccessToken(new URL(target.tokenPath, target.url), target, via);
  steps.push(step);
  return token;
}

/** A token as a token endpoint issued it; `expiresInSeconds` when the answer said (`expires_in`). */
export interface AccessToken {
  token?: string;
  expiresInSeconds?: number;
  step: DeliveryStep;
}

/**
 * Asks a token endpoint for a Bearer token in the client's style, as the platform does before it calls an ERP.
 * Never throws: a failure is the step's status, answer or error.
 */
export async function requestAccessToken(
  tokenUrl: URL,
  client: TokenClient,
  via: Via,
  signal?: AbortSignal,
): Promise<AccessToken> {
  const step: DeliveryStep = { step: 'token', url: tokenUrl.href };
  try {
    const answer = await request(tokenRequestUrl(tokenUrl, client.style), {
      method: 'POST',
      ...tokenRequest(client),
      dispatcher: via.dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal,
    });
    const text = await answer.body.text();
    step.status = answer.statusCode;
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      const parsed = safeJson(text) as { access_token?: unknown; expires_in?: unknown } | undefined;
      if (typeof parsed?.access_token === 'string') {
        const token = bearerTokenText(parsed.access_token);
        // A token no header can carry (a line break inside) would fail the event's POST as a network that cannot be
        // reached: said of the token's answer instead, as login says it of the platform's.
        const unsendable = unsendableTokenCharacter(token);
        const expiresIn = parsed.expires_in;
        if (unsendable === undefined)
          return {
            token,
            expiresInSeconds: typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : undefined,
            step,
          };
        step.error = `the answer's access_token holds ${unsendable}, which no HTTP header can carry`;
      } else step.error = 'the answer has no access_token';
    } else step.answer = quotedAnswer(redactSecrets(text, secretsSentBy(client)), 300);
  } catch (error) {
    step.error = networkProblemSentence(await explainNetworkProblem(error, tokenUrl, via.route, timeoutMs, via.source));
  }
  return { step };
}

function eventUrlOf(target: WebhookTarget, kind: WebhookKind): URL {
  return new URL(kind === 'customers' ? target.customersPath : target.ordersPath, target.url);
}

/** The answer's line of a `--verbose` trace: its status (or why there was none) and how long it took. */
function traceAnswer(trace: DeliveryOptions['trace'], step: DeliveryStep | undefined, startedMs: number): void {
  if (trace === undefined || step === undefined) return;
  const outcome = step.status === undefined ? `failed: ${step.error ?? 'no answer'}` : `HTTP ${step.status}`;
  trace(`< ${outcome} in ${Math.round(performance.now() - startedMs)} ms`);
}

async function postEvent(
  target: WebhookTarget,
  kind: WebhookKind,
  payload: unknown,
  token: string,
  via: Via,
): Promise<DeliveryStep> {
  const eventUrl = eventUrlOf(target, kind);
  const eventStep: DeliveryStep = { step: 'event', url: eventUrl.href };
  try {
    const answer = await request(eventUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'user-agent': 'b2bctl-webhook-sender',
      },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      dispatcher: via.dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    eventStep.status = answer.statusCode;
    // The event's route may quote the token it refused (`value [Bearer …] is not allowed`), or the client's secret.
    eventStep.answer = quotedAnswer(redactSecrets(await answer.body.text(), [token, ...secretsSentBy(target)]), 300);
  } catch (error) {
    eventStep.error = networkProblemSentence(
      await explainNetworkProblem(error, eventUrl, via.route, timeoutMs, via.source),
    );
  }
  return eventStep;
}

function tokenRequestUrl(url: URL, style: TokenStyle): URL {
  if (style !== 'headers') return url;
  const withGrant = new URL(url);
  withGrant.searchParams.set('grant_type', 'password');
  return withGrant;
}

/** The `Authorization` header of a token request in the `basic` style: the client's id and secret, as Basic. */
function basicAuthorizationOf(client: Pick<TokenClient, 'clientId' | 'clientSecret'>): string {
  return `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
}

/**
 * The secrets a token request sends, whatever its style: the client secret, and the Basic credential that holds it.
 * An answer quoting one back (a refusal echoing the header or the body it got) is masked by them before it is shown.
 */
export function secretsSentBy(client: Pick<TokenClient, 'clientId' | 'clientSecret'>): string[] {
  return [client.clientSecret, ...secretsOfAuthorization(basicAuthorizationOf(client))];
}

function tokenRequest(target: TokenClient): { headers: Record<string, string>; body?: string } {
  if (target.style === 'basic') {
    return {
      headers: { authorization: basicAuthorizationOf(target), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    };
  }
  if (target.style === 'body') {
    return {
      headers: { 'content-type': 'application/json', 'user-agent': 'b2bctl-webhook-sender' },
      body: JSON.stringify({ clientId: target.clientId, clientSecret: target.clientSecret }),
    };
  }
  return { headers: { username: target.clientId, password: target.clientSecret } };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Realistic sample payloads of the two webhooks, with the fields the platform documents (docs/platform.md, "What the document shows"). */
export function sampleEvent(kind: WebhookKind, now: Date): Record<string, unknown> {
  const iso = now.toISOString();
  if (kind === 'orders') {
    return {
      id: 48213,
      orderId: 100482,
      status: 'AWAITING_PAYMENT',
      approvalWorkflow: false,
      workflowIsApproved: false,
      dateCreated: iso,
      lastUpdated: iso,
      partnerCompanyName: 'Comercial Exemplo Ltda',
      partnerDocument: '11.222.333/0001-81',
    };
  }
  return {
    id: 1017,
    document: '11.222.333/0001-81',
    name: 'Comercial Exemplo Ltda',
    tradingName: 'Exemplo',
    contactName: 'Maria Souza',
    documentType: 'pj',
    dateCreated: iso,
    email: 'compras@exemplo.com.br',
    phone: '(11) 3333-4444',
    address: [
      {
        id: 2201,
        name: 'Matriz',
        street: 'Rua das Flores',
        number: '100',
        complement: null,
        quarter: 'Centro',
        city: 'São Paulo',
        state: 'SP',
        zipcode: '01001-000',
        principal: true,
      },
    ],
  };
}
