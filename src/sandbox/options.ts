import type { OrderRoutes } from '../domain/order-routes.js';
import type { StockSchema } from '../domain/stock.js';
import type { WebhookTarget } from '../webhook/sender.js';
import type { Dialect } from './dialects/dialect.js';
import type { TaxCallback } from './orders/tax-callback.js';

/** How a sandbox behaves: who may log in, and the faults it injects for tests and benchmarks. */
export interface SandboxOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  username: string;
  password: string;
  /** Lifetime of issued tokens, in seconds (the platform's is 12 hours). */
  tokenTtlSeconds: number;
  /** Added before every platform answer, in milliseconds. */
  latencyMs: number;
  /** Share of platform requests answered 503, from 0 to 1. */
  failRate: number;
  /** Share of platform requests whose connection is reset without an answer, from 0 to 1. */
  resetRate: number;
  /** Platform requests allowed per second before 429 with Retry-After; 0 for no limit. */
  rateLimit: number;
  /** Folder with the seed files (sellers.json, ...). */
  seedDirectory: string;
  /** How many generated SKUs (GEN-0000001 … GEN-<N>) the stock catalogue knows beside products.json. */
  generatedSkus: number;
  /** The store's stock item field names on the wire; identity when absent. */
  stockSchema?: StockSchema;
  /** Where the store takes the order moves (ready, invoice, ship, cancel); the defaults when absent. */
  orderRoutes?: OrderRoutes;
  /** JSON store settings (ZIP validation, lat/lng, SSO ids, price tags, customer types and groups) merged over <seed>/store-settings.json. */
  settingsFile?: string;
  /** Share of order listing requests that first update a few orders and create one (0 to 1). */
  orderChurn?: number;
  /** How many orders the seed creates over the last 30 days (default 300). */
  orderCount?: number;
  /** The receiver of the customers and orders webhooks; none when absent (settable by PUT /_sandbox/webhook-config). */
  webhook?: WebhookTarget;
  /** The orders webhook's variant: the summary fields (`simplified`, the default) or the whole order (`full`). */
  ordersWebhook?: 'simplified' | 'full';
  /** Where a cart posted to /_sandbox/orders asks for its taxes before it becomes an order; none when absent. */
  taxCallback?: TaxCallback;
  /** How it answers what the platform document does not show; the default dialect when absent. */
  dialect?: Dialect;
  /** Seconds the platform's clock (its `Date` header) is ahead of this machine's. */
  clockOffsetSeconds?: number;
  /** Called with one line per request handled, when the operator wants to watch. */
  logRequest?: (line: string) => void;
  /**
   * Called with one line per webhook delivery that failed: the sandbox is where an integrator watches whether a
   * receiver works, and a failure seen only in GET /_sandbox/webhook-deliveries went unnoticed (a user test).
   */
  logWebhookFailure?: (line: string) => void;
}

export const sandboxDefaults = {
  host: '127.0.0.1',
  port: 8787,
  username: 'integration@sandbox.test',
  password: 'sandbox-secret',
  tokenTtlSeconds: 12 * 60 * 60,
  latencyMs: 0,
  failRate: 0,
  resetRate: 0,
  rateLimit: 0,
  generatedSkus: 2_000_000,
} as const;
