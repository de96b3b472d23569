/**
 * `tax serve --forward-to`: the ERP asked first with the platform's request as it came, within a budget counted
 * from the request's arrival; past it, or on an error, the tax table's answer (or 503 without one).
 */
import type { Dispatcher } from 'undici';
import { declaredCharset, decoderOf } from '../lib/declared-charset.js';
import { redactSecrets, secretsOfAuthorization, secretsOfUrl } from '../lib/secret-values.js';
import { urlShownSafely } from '../lib/shown-target.js';
import { dispatcherFor } from '../net/dispatcher.js';
import { errorCodeOf, isConnectionBreak } from '../net/network-error.js';
import type { ProxyEnvironment } from '../net/proxy-route.js';
import { type NoTaxAnswer, noTaxAnswerIn } from './erp-answer.js';
import { requestReaders, type TaxShape } from './shape.js';

/** Where the ERP computes taxes itself, and how long the cart may wait for it. */
export interface TaxForward {
  url: string;
  /** The `Authorization` header (B2BCTL_TAX_FORWARD_TOKEN or _BASIC, or the URL's user), sent with every request. */
  authorization?: string;
  budgetMs: number;
  /** Where the proxy variables are read (the process's environment when not given). */
  env?: ProxyEnvironment;
}

/** The answer's JSON (text, or bytes written in one pass); or a refusal, with the log line it calls for. */
export type Answer =
  { json: string | Buffer } | { status: 400 | 422 | 500 | 503; body: Record<string, unknown>; warning?: string };

/** Why the ERP gave no tax answer: said to the platform (503) and in the log; an answer it gave quoted in the log. */
type Miss = string | NoTaxAnswer;

/** A cart as it came: parsed, and its text when the route kept it (passed on to the ERP byte for byte). */
export interface ArrivedCart {
  body: unknown;
  text?: string;
  /** performance.now() when its headers were read. */
  arrivedAt: number;
  /** Its client's address (after --trust-proxy), read only when a log line names it. */
  clientAddress(): string;
}

/**
 * Requests the ERP may have open at once, and the connections kept to it. A request past its budget is left to
 * finish, so that its connection is used again: dropping it would close the connection (HTTP/1.1 cannot cancel a
 * request), and each cart to a slow ERP would then open a new one, 0.7 ms of CPU a cart between the drop and the
 * new connection, spent in the turns where the next carts wait to be read. With this many open, the ERP is behind:
 * a cart is answered from the table at once, without asking it.
 */
const openRequestLimit = 64;

/**
 * How long a request past its budget is left to finish before its connection is closed: the longest budget too,
 * since the ERP's answer can come no later.
 */
export const overrunLimitMs = 10_000;

/** The ERP's tax endpoint, and the requests open to it. */
export class TaxErp {
  private readonly connections: Dispatcher;
  private readonly origin: string;
  private readonly path: string;
  private readonly headers: Record<string, string>;
  private open = 0;
  /** The URL as logs and /healthz show it, credentials hidden. */
  readonly shownUrl: string;
  /** What an answer quoted in the log may echo of what was sent: the credential, the URL's user or key. */
  private readonly secrets: string[];

  readonly forward: TaxForward;
  readonly shape: TaxShape;
  /** `shape` names the cart's items and the answer's, which an answer must cover (noTaxAnswerIn). */
  constructor(forward: TaxForward, shape: TaxShape) {
    this.forward = forward;
    this.shape = shape;

    const url = new URL(forward.url);
    this.shownUrl = urlShownSafely(forward.url);
    this.secrets = [...secretsOfAuthorization(forward.authorization), ...secretsOfUrl(forward.url)];
    this.connections = dispatcherFor(url, { connections: openRequestLimit, env: forward.env }).dispatcher;
    this.origin = url.origin;
    this.path = `${url.pathname}${url.search}`;
    this.headers = {
      'content-type': 'application/json',
      ...(forward.authorization === undefined ? {} : { authorization: forward.authorization }),
    };
  }

  /**
   * The ERP's 2xx JSON object as it came, or why it is no tax answer for a cart of `cartItems` items (undefined: the
   * cart has no list the shape reads); undefined when too many requests are open.
   */
  ask(body: string, cartItems: number | undefined): Promise<Answer | Miss> | undefined {
    if (this.open >= openRequestLimit) return undefined;
    this.open++;
    return this.send(body, cartItems).finally(() => this.open--);
  }

  /** Requests sent and not yet answered, those past their budget included (on /healthz). */
  get openRequests(): number {
    return this.open;
  }

  /** Drops the requests still open: the server is closing. */
  close(): Promise<void> {
    return this.connections.destroy();
  }

  private async send(body: string, cartItems: number | undefined): Promise<Answer | Miss> {
    try {
      const answer = await this.connections.request({
        origin: this.origin,
        path: this.path,
        method: 'POST',
        headers: this.headers,
        body,
        headersTimeout: overrunLimitMs,
        bodyTimeout: overrunLimitMs,
      });
      const text = await answerText(answer);
      if (answer.statusCode < 200 || answer.statusCode > 299) return `answered HTTP ${answer.statusCode}`;
      if (typeof text !== 'string') return text.miss;
      const notAnAnswer = noTaxAnswerIn(JSON.parse(text), cartItems, this.shape);
      if (notAnAnswer === undefined) return { json: text };
      // The answer is quoted in the log only: an ERP's error may echo the credential it was sent, whole or cut
      // (`token erp-forward-toke... invalid`, a user test), masked there.
      const shown = notAnAnswer.shown === undefined ? undefined : redactSecrets(notAnAnswer.shown, this.secrets);
      return { why: notAnAnswer.why, ...(shown === undefined ? {} : { shown }) };
    } catch (error) {
      if (error instanceof SyntaxError) return 'answered a body that is not JSON';
      const code = errorCodeOf(error);
      // A reset or a close before the answer's end is no slowness: said as such, so the operator looks at the ERP.
      if (isConnectionBreak(code)) return `closed the connection before its answer ended (${code})`;
      return `failed (${code ?? (error as Error).message})`;
    }
  }
}

/**
 * The answer's text, decoded by the charset its `Content-Type` declares: a Brazilian ERP often answers
 * `charset=iso-8859-1`, whose accents read as UTF-8 became U+FFFD, SKUs it echoes included (a user test). The
 * text is passed on re-encoded as UTF-8, which the answer to the platform declares. No charset, or UTF-8, is the
 * fast path it was. A charset no decoder knows, or a `Content-Encoding` b2bctl did not ask for (it sends no
 * `Accept-Encoding`), is said as such rather than as a body that is not JSON.
 */
async function answerText(answer: Dispatcher.ResponseData): Promise<string | { miss: string }> {
  const encoding = headerText(answer.headers['content-encoding']);
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    await answer.body.dump();
    return { miss: `answered a body encoded ${JSON.stringify(encoding.trim())} (Content-Encoding), not asked for` };
  }
  const charset = declaredCharset(headerText(answer.headers['content-type']));
  if (charset === undefined) return await answer.body.text();
  const decoder = decoderOf(charset);
  if (decoder === undefined) {
    await answer.body.dump();
    return { miss: `answered in charset ${JSON.stringify(charset)}, which b2bctl cannot decode` };
  }
  return decoder.decode(await answer.body.arrayBuffer());
}

/** A header's value as text (the first of a repeated one). */
function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The ERP's answer when it gives one within the budget (a 2xx with a JSON object, passed on as it came); otherwise the
 * table's (`fromTable`), or, without a table, 503 so the platform knows no tax was computed. Every fallback is
 * counted and logged. The ERP is asked, and then the table's answer worked out, on later turns of the event loop:
 * the carts that came together are each read and stamped first, so that no cart's budget starts late behind the
 * others' work, and past the budget only the write is left.
 */
export async function answerThroughErp(
  cart: ArrivedCart,
  erp: TaxErp,
  fromTable: (() => Answer) | undefined,
  report: { fallback(): void; warn(line: string): void },
): Promise<Answer> {
  const { budgetMs } = erp.forward;
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<string>((resolve) => {
    const left = Math.max(0, budgetMs - (performance.now() - cart.arrivedAt));
    timer = setTimeout(() => resolve(`did not answer in ${budgetMs} ms`), left);
  });
  const asked = onNextTurn(
    () =>
      erp.ask(cart.text ?? JSON.stringify(cart.body), cartItemCount(cart.body, erp.shape)) ??
      `has ${openRequestLimit} requests open (not asked)`,
  );
  const fallback = fromTable === undefined ? undefined : onNextTurn(() => onNextTurn(fromTable));
  const outcome = await Promise.race([asked, budget]);
  clearTimeout(timer);
  if (typeof outcome !== 'string' && !('why' in outcome)) return outcome;
  report.fallback();
  const why = typeof outcome === 'string' ? outcome : outcome.why;
  const logged = typeof outcome === 'string' || outcome.shown === undefined ? why : `${why}: ${outcome.shown}`;
  if (fallback === undefined) {
    report.warn(`tax callback: the ERP at ${erp.shownUrl} ${logged}; answered 503 (no --rules to fall back on).`);
    return { status: 503, body: { error: 'tax-unavailable', message: `The ERP's tax service ${why}.` } };
  }
  // Said once the table has answered: a cart it has no row for is refused (422), which the line said was "answered
  // from the tax table" (a user test).
  const said = (tableOutcome: string) =>
    report.warn(`tax callback: the ERP at ${erp.shownUrl} ${logged}; ${tableOutcome}.`);
  let answer: Answer;
  try {
    answer = await fallback;
  } catch (error) {
    said('the tax table was asked instead, and failed');
    throw error;
  }
  said(
    'status' in answer
      ? `the tax table, asked instead, answered ${answer.status}${typeof answer.body.error === 'string' ? ` (${answer.body.error})` : ''}`
      : 'answered from the tax table',
  );
  return answer;
}

/** The cart's items as the shape reads them, or undefined when it has no list there (the ERP is asked all the same). */
function cartItemCount(body: unknown, shape: TaxShape): number | undefined {
  const items = requestReaders(shape.request).items(body);
  return Array.isArray(items) ? items.length : undefined;
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
