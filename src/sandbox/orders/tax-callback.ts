import { request } from 'undici';
import { dispatcherFor } from '../../net/dispatcher.js';
import { redactSecrets } from '../../lib/secret-values.js';
import { requestAccessToken, secretsSentBy, type TokenClient } from '../../webhook/sender.js';
import { quotedAnswer } from '../../base/quoted-answer.js';
import { describeNetworkProblem, networkProblemSentence } from '../../net/network-error.js';

/** Where the sandbox asks for an order's taxes before closing it, as a store with the callback activated does. */
export interface TaxCallback {
  url: string;
  /** Sent as `Authorization: Bearer …` (B2BCTL_TAX_TOKEN), as `tax serve --auth bearer` expects. */
  token?: string;
  /**
   * Asks a token endpoint first, in one of the receiver's styles, as the platform authenticates before it calls the
   * ERP (`tax serve --auth token`); `tokenPath` is resolved against the callback's URL.
   */
  client?: TokenClient & { tokenPath: string };
  /** How long the cart waits for the answer, the token's request included. */
  timeoutMs: number;
}

/** The cart as the sandbox sends it: the default shape of `tax serve` (docs/tax.md, "The callback's shape"). */
export interface TaxCart {
  origin: { state: string };
  destination: { state: string };
  customer: { document: string; paysIcms: boolean };
  items: { sku: string; ncm: string; quantity: number; unitPrice: number; discount: number; freight: number }[];
}

export type TaxAnswer = { ok: true; taxes: unknown } | { ok: false; status: 502 | 504; message: string };

/** A token is asked again this long before the end its endpoint gave it, so no call carries one about to expire. */
const tokenRenewalMarginMs = 30_000;

/**
 * The platform's side of the tax callback: asks for a cart's taxes and waits, as the buyer's checkout does; past
 * the time-out, or on anything but a 2xx with JSON, the order is not closed and the answer says why. With a token
 * endpoint, its token is kept until shortly before it expires, and asked again once when the callback answers 401
 * (a restarted `tax serve` forgets the tokens it issued).
 */
export class TaxCallbackCaller {
  private kept: { token: string; renewAt: number } | undefined;

  private readonly callback: TaxCallback;
  constructor(callback: TaxCallback) {
    this.callback = callback;
  }

  /**
   * The cart's taxes, or why not, for whoever posted `/_sandbox/orders` (no credential needed there): what the
   * callback or its token endpoint quotes back of the secrets sent to it (an auth layer's `bad credential Bearer …`,
   * a token endpoint echoing the request's body) is masked, as every message of b2bctl masks it: whole, or cut or upper-cased as such a layer
   * quotes it (redactSecrets).
   */
  async ask(cart: TaxCart): Promise<TaxAnswer> {
    const answer = await this.answerOf(cart);
    return answer.ok ? answer : { ...answer, message: redactSecrets(answer.message, this.secretsSent()) };
  }

  /** The secrets this caller sends: the tax token, the client's secret (and its Basic header), the token issued. */
  private secretsSent(): string[] {
    const client = this.callback.client;
    return [this.callback.token, this.kept?.token, ...(client === undefined ? [] : secretsSentBy(client))].filter(
      (secret): secret is string => secret !== undefined && secret !== '',
    );
  }

  private async answerOf(cart: TaxCart): Promise<TaxAnswer> {
    const signal = AbortSignal.timeout(this.callback.timeoutMs);
    try {
      const reused = this.kept !== undefined && performance.now() < this.kept.renewAt;
      const first = await this.bearer(signal, !reused);
      if (typeof first !== 'string') return first;
      const answer = await this.post(cart, first, signal);
      if (answer.statusCode !== 401 || !reused || this.callback.client === undefined) return answer.taxes;
      const fresh = await this.bearer(signal, true);
      if (typeof fresh !== 'string') return fresh;
      return (await this.post(cart, fresh, signal)).taxes;
    } catch (error) {
      if (signal.aborted)
        return { ok: false, status: 504, message: `the tax callback did not answer in ${this.callback.timeoutMs} ms` };
      // In words, as every command says a failed connection: undici's own text (`other side closed`) told a
      // person posting a cart nothing (a user test).
      const problem = describeNetworkProblem(error, new URL(this.callback.url), { kind: 'direct' }, undefined, {
        url: '--tax-callback',
      });
      return { ok: false, status: 502, message: `the tax callback failed: ${networkProblemSentence(problem)}` };
    }
  }

  /** The Bearer token to send (none: ''), or the refusal when the token endpoint gave none. */
  private async bearer(signal: AbortSignal, renew: boolean): Promise<string | TaxAnswer> {
    const client = this.callback.client;
    if (client === undefined) return this.callback.token ?? '';
    if (!renew && this.kept !== undefined) return this.kept.token;
    const tokenUrl = new URL(client.tokenPath, this.callback.url);
    const { dispatcher, route } = dispatcherFor(tokenUrl, {});
    try {
      const issued = await requestAccessToken(
        tokenUrl,
        client,
        { dispatcher, route, source: { url: '--tax-callback' } },
        signal,
      );
      if (signal.aborted) throw signal.reason;
      if (issued.token === undefined) {
        const { status, answer, error } = issued.step;
        const said = error ?? `HTTP ${status}${answer ? `: ${answer}` : ''}`;
        return {
          ok: false,
          status: 502,
          message: `the tax callback's token endpoint ${tokenUrl.href} gave no token: ${said}`,
        };
      }
      const lifetimeMs = (issued.expiresInSeconds ?? 300) * 1000;
      this.kept = { token: issued.token, renewAt: performance.now() + Math.max(0, lifetimeMs - tokenRenewalMarginMs) };
      return issued.token;
    } finally {
      await dispatcher.close();
    }
  }

  private async post(
    cart: TaxCart,
    token: string,
    signal: AbortSignal,
  ): Promise<{ statusCode: number; taxes: TaxAnswer }> {
    const answer = await request(this.callback.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === '' ? {} : { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(cart),
      signal,
    });
    const text = await answer.body.text();
    if (answer.statusCode < 200 || answer.statusCode > 299)
      return {
        statusCode: answer.statusCode,
        taxes: {
          ok: false,
          status: 502,
          message: `the tax callback answered HTTP ${answer.statusCode}: ${quotedAnswer(text, 500)}`,
        },
      };
    return { statusCode: answer.statusCode, taxes: parsedTaxes(answer.statusCode, text) };
  }
}

/**
 * A 2xx's body as the taxes, or a 502 saying it is no JSON, quoting it: JavaScript's parser's words (`Unexpected
 * token 'o', "not json" is not valid JSON`) were the message (a user test).
 */
function parsedTaxes(status: number, text: string): TaxAnswer {
  try {
    return { ok: true, taxes: JSON.parse(text) as unknown };
  } catch {
    return {
      ok: false,
      status: 502,
      message: `the tax callback answered HTTP ${status} with a body that is not JSON: ${text.trim() === '' ? '(empty)' : quotedAnswer(text, 500)}`,
    };
  }
}
