import { request } from 'undici';

/** Where the sandbox asks for an order's taxes before closing it, as a store with the callback activated does. */
export interface TaxCallback {
  url: string;
  /** Sent as `Authorization: Bearer …` (B2BCTL_TAX_TOKEN), as `tax serve --auth bearer` expects. */
  token?: string;
  /** How long the cart waits for the answer. */
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

/**
 * Asks the callback for a cart's taxes and waits, as the buyer's checkout does; past the time-out, or on anything
 * but a 2xx with JSON, the order is not closed and the answer says why.
 */
export async function askTaxes(callback: TaxCallback, cart: TaxCart): Promise<TaxAnswer> {
  try {
    const answer = await request(callback.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(callback.token === undefined ? {} : { authorization: `Bearer ${callback.token}` }),
      },
      body: JSON.stringify(cart),
      signal: AbortSignal.timeout(callback.timeoutMs),
    });
    const text = await answer.body.text();
    if (answer.statusCode < 200 || answer.statusCode > 299)
      return {
        ok: false,
        status: 502,
        message: `the tax callback answered HTTP ${answer.statusCode}: ${text.slice(0, 500)}`,
      };
    return { ok: true, taxes: JSON.parse(text) as unknown };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      return { ok: false, status: 504, message: `the tax callback did not answer in ${callback.timeoutMs} ms` };
    return { ok: false, status: 502, message: `the tax callback failed: ${(error as Error).message}` };
  }
}
