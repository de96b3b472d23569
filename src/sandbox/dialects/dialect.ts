import type { OrderSummary } from '../orders/rules.js';
import type { OrderDetail } from '../orders/store.js';

/**
 * A dialect answers the parts the platform document does not show (the token route, the bodies of
 * 400/401/403/404, the stock routes' answers, listing envelopes) in one plausible way. Routes call
 * these small functions, so they stay about the documented behaviour.
 */
export interface ErrorAnswer {
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface BatchItemResult {
  index: number;
  sku: string | null;
  status: string;
  message: string | null;
}

export interface Dialect {
  name: string;
  description: string;
  /** Where the token route listens. */
  tokenPath: string;
  /** Credentials it accepts: any style (JSON, form, Basic) or the OAuth form only. */
  tokenStyles: 'any' | 'form';
  tokenAnswer(token: string, ttlSeconds: number): unknown;
  /** Bodies of the statuses whose body the document does not show; 422 keeps the documented one. */
  errorAnswer(status: 400 | 401 | 403 | 404, message: string, path: string): ErrorAnswer;
  /** The token route's 401 for wrong credentials, when it differs from `errorAnswer`'s. */
  loginRefused?: ErrorAnswer;
  batchAnswer(results: readonly BatchItemResult[]): unknown;
  /** Undefined: the 202 has no body. */
  queueAnswer(batchId: string, items: number): unknown;
  listingAnswer(items: readonly unknown[], offset: number): unknown;
  /** An order of the listing as this platform names its fields (the listing's envelope is `listingAnswer`'s). */
  orderSummary(summary: OrderSummary): unknown;
  /** The order detail answer: its nesting (items, totals, customer) and envelope. */
  orderDetail(detail: OrderDetail): unknown;
}

/** The statuses whose bodies the document leaves to each platform ("Body format …: not shown"). */
export const undocumentedErrorStatuses = new Set([400, 401, 403, 404]);
