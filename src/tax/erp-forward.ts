/**
 * `tax serve --forward-to`: the ERP asked first with the platform's request as it came, within a budget counted
 * from the request's arrival; past it, or on an error, the tax table's answer (or 503 without one).
 */
import { request as httpRequest } from 'undici';
import { urlShownSafely } from '../lib/shown-target.js';

/** Where the ERP computes taxes itself, and how long the cart may wait for it. */
export interface TaxForward {
  url: string;
  /** Sent as `Authorization: Bearer …` (B2BCTL_TAX_FORWARD_TOKEN). */
  token?: string;
  budgetMs: number;
}

/** The answer's JSON (text, or bytes written in one pass); or a refusal, with the log line it calls for. */
export type Answer =
  { json: string | Buffer } | { status: 400 | 422 | 503; body: Record<string, unknown>; warning?: string };

/** A cart as it came: parsed, and its text when the route kept it (passed on to the ERP byte for byte). */
export interface ArrivedCart {
  body: unknown;
  text?: string;
  /** performance.now() when its headers were read. */
  arrivedAt: number;
}

/** The reason the ERP's request is dropped with: one object, not an error and its stack for every cart. */
const budgetSpent = new Error('the answer was given without the ERP');

/**
 * The ERP's answer when it gives one within the budget (a 2xx with JSON, passed on as it came); otherwise the
 * table's (`fromTable`), or, without a table, 503 so the platform knows no tax was computed. Every fallback is
 * counted and logged. The ERP is asked, and then the table's answer worked out, on later turns of the event loop:
 * the carts that came together are each read and stamped first, so that no cart's budget starts late behind the
 * others' work, and past the budget only the write is left.
 */
export async function answerThroughErp(
  cart: ArrivedCart,
  forward: TaxForward,
  fromTable: (() => Answer) | undefined,
  report: { fallback(): void; warn(line: string): void },
): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<string>((resolve) => {
    const left = Math.max(0, forward.budgetMs - (performance.now() - cart.arrivedAt));
    timer = setTimeout(() => resolve(`did not answer in ${forward.budgetMs} ms`), left);
  });
  const abort = new AbortController();
  const asked = onNextTurn(() => askErp(cart.text ?? JSON.stringify(cart.body), forward, abort.signal));
  const fallback = fromTable === undefined ? undefined : onNextTurn(() => onNextTurn(fromTable));
  const outcome = await Promise.race([asked, budget]);
  clearTimeout(timer);
  // The ERP's request is dropped after the answer has been written, not before it.
  setImmediate(() => abort.abort(budgetSpent));
  if (typeof outcome !== 'string') return outcome;
  report.fallback();
  const erp = urlShownSafely(forward.url);
  if (fallback === undefined) {
    report.warn(`tax callback: the ERP at ${erp} ${outcome}; answered 503 (no --rules to fall back on).`);
    return { status: 503, body: { error: 'tax-unavailable', message: `The ERP's tax service ${outcome}.` } };
  }
  report.warn(`tax callback: the ERP at ${erp} ${outcome}; answered from the tax table.`);
  return await fallback;
}

/**
 * `work` run on the event loop's next turn, once the I/O already due has been read. Its failure is the awaiting
 * caller's; unawaited, it is not an unhandled rejection.
 */
function onNextTurn<T>(work: () => T | Promise<T>): Promise<T> {
  const result = new Promise<T>((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error as Error);
      }
    }),
  );
  result.catch(() => undefined);
  return result;
}

/** The ERP's 2xx JSON answer as it came, or why there is none. Aborted once the budget is spent. */
async function askErp(body: string, forward: TaxForward, signal: AbortSignal): Promise<Answer | string> {
  try {
    const answer = await httpRequest(forward.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(forward.token === undefined ? {} : { authorization: `Bearer ${forward.token}` }),
      },
      body,
      signal,
    });
    const text = await answer.body.text();
    if (answer.statusCode < 200 || answer.statusCode > 299) return `answered HTTP ${answer.statusCode}`;
    JSON.parse(text);
    return { json: text };
  } catch (error) {
    return error instanceof SyntaxError
      ? 'answered a body that is not JSON'
      : `failed (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}
