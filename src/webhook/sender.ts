import { type Dispatcher, request } from 'undici';
import { dispatcherFor } from '../net/dispatcher.js';
import { explainNetworkProblem, networkProblemSentence } from '../net/network-error.js';
import type { ProxyEnvironment, ProxyRoute } from '../net/proxy-route.js';
import type { WebhookKind } from '../domain/webhook-events.js';
import type { TokenStyle } from '../http-server/tokens.js';

/** Where and how to deliver webhooks, as the platform's panel configures a receiver. */
export interface WebhookTarget {
  /** The receiver's base URL, such as http://127.0.0.1:8788. */
  url: string;
  style: TokenStyle;
  clientId: string;
  clientSecret: string;
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
  /** The answer's first 300 characters (never the token). */
  answer?: string;
}

export interface DeliveryOutcome {
  delivered: boolean;
  steps: DeliveryStep[];
}

const timeoutMs = 10_000;

/** How deliveries reach the receiver: the proxy environment (HTTPS_PROXY, NO_PROXY), the process's by default. */
export interface DeliveryOptions {
  env?: ProxyEnvironment;
}

/**
 * Does what the platform does for one event: asks the receiver's token endpoint in the configured style, then
 * POSTs the event with that Bearer token. Never throws: every failure is a step with its status or error.
 */
export async function deliverWebhook(
  target: WebhookTarget,
  kind: WebhookKind,
  payload: unknown,
  options: DeliveryOptions = {},
): Promise<DeliveryOutcome> {
  const { dispatcher, route } = dispatcherFor(new URL(target.url), { env: options.env });
  const via = { dispatcher, route };
  try {
    const steps: DeliveryStep[] = [];
    const token = await requestToken(target, steps, via);
    if (token === undefined) return { delivered: false, steps };
    const eventStep = await postEvent(target, kind, payload, token, via);
    steps.push(eventStep);
    const delivered = eventStep.status !== undefined && eventStep.status >= 200 && eventStep.status < 300;
    return { delivered, steps };
  } finally {
    await dispatcher.close();
  }
}

interface Via {
  dispatcher: Dispatcher;
  route: ProxyRoute;
}

async function requestToken(target: WebhookTarget, steps: DeliveryStep[], via: Via): Promise<string | undefined> {
  const tokenUrl = new URL(target.tokenPath, target.url);
  const tokenStep: DeliveryStep = { step: 'token', url: tokenUrl.href };
  steps.push(tokenStep);
  try {
    const answer = await request(tokenRequestUrl(tokenUrl, target.style), {
      method: 'POST',
      ...tokenRequest(target),
      dispatcher: via.dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await answer.body.text();
    tokenStep.status = answer.statusCode;
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      const parsed = safeJson(text) as { access_token?: unknown } | undefined;
      if (typeof parsed?.access_token === 'string') return parsed.access_token;
      tokenStep.error = 'the answer has no access_token';
    } else tokenStep.answer = text.slice(0, 300);
  } catch (error) {
    tokenStep.error = networkProblemSentence(await explainNetworkProblem(error, tokenUrl, via.route, timeoutMs));
  }
  return undefined;
}

async function postEvent(
  target: WebhookTarget,
  kind: WebhookKind,
  payload: unknown,
  token: string,
  via: Via,
): Promise<DeliveryStep> {
  const eventUrl = new URL(kind === 'customers' ? target.customersPath : target.ordersPath, target.url);
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
    eventStep.answer = (await answer.body.text()).slice(0, 300);
  } catch (error) {
    eventStep.error = networkProblemSentence(await explainNetworkProblem(error, eventUrl, via.route, timeoutMs));
  }
  return eventStep;
}

function tokenRequestUrl(url: URL, style: TokenStyle): URL {
  if (style !== 'headers') return url;
  const withGrant = new URL(url);
  withGrant.searchParams.set('grant_type', 'password');
  return withGrant;
}

function tokenRequest(target: WebhookTarget): { headers: Record<string, string>; body?: string } {
  if (target.style === 'basic') {
    const credentials = Buffer.from(`${target.clientId}:${target.clientSecret}`).toString('base64');
    return {
      headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' },
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
