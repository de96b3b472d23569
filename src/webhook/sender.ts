import { request } from 'undici';
import type { WebhookKind } from '../domain/webhook-events.js';
import type { TokenStyle } from './tokens.js';

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

/**
 * Does what the platform does for one event: asks the receiver's token endpoint in the configured style, then
 * POSTs the event with that Bearer token. Never throws: every failure is a step with its status or error.
 */
export async function deliverWebhook(
  target: WebhookTarget,
  kind: WebhookKind,
  payload: unknown,
): Promise<DeliveryOutcome> {
  const steps: DeliveryStep[] = [];
  const tokenUrl = new URL(target.tokenPath, target.url);
  const tokenStep: DeliveryStep = { step: 'token', url: tokenUrl.href };
  steps.push(tokenStep);
  let token: string | undefined;
  try {
    const answer = await request(tokenRequestUrl(tokenUrl, target.style), {
      method: 'POST',
      ...tokenRequest(target),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await answer.body.text();
    tokenStep.status = answer.statusCode;
    if (answer.statusCode >= 200 && answer.statusCode < 300) {
      const parsed = safeJson(text) as { access_token?: unknown } | undefined;
      if (typeof parsed?.access_token === 'string') token = parsed.access_token;
      else tokenStep.error = 'the answer has no access_token';
    } else tokenStep.answer = text.slice(0, 300);
  } catch (error) {
    tokenStep.error = (error as Error).message;
  }
  if (token === undefined) return { delivered: false, steps };

  const eventUrl = new URL(kind === 'customers' ? target.customersPath : target.ordersPath, target.url);
  const eventStep: DeliveryStep = { step: 'event', url: eventUrl.href };
  steps.push(eventStep);
  try {
    const answer = await request(eventUrl, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'user-agent': 'b2bctl-webhook-sender',
      },
      body: typeof payload === 'string' ? payload : JSON.stringify(payload),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    eventStep.status = answer.statusCode;
    eventStep.answer = (await answer.body.text()).slice(0, 300);
  } catch (error) {
    eventStep.error = (error as Error).message;
  }
  const delivered = eventStep.status !== undefined && eventStep.status >= 200 && eventStep.status < 300;
  return { delivered, steps };
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

/** Realistic sample payloads of the two webhooks, with the fields of platform-spec.md "Events". */
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
