import { AmbiguousRequestError, ExitCode, KeptFailingError, PlatformError } from '../base/errors.js';
import { asClause } from '../lib/clause.js';

/**
 * What a write declares for the rule below (`PlatformRequest` carries it): its method, whether it changes nothing
 * (the empty update that only asks), what it does in words, and whether a 5xx on every attempt leaves it unknown.
 */
export interface WriteRequest {
  method: string;
  changesNothing?: boolean;
  /** What the write does, as the line after a 5xx says it: `applied the batch`, `created the customer`. */
  effect?: string;
  /**
   * Whether a write retried on 502, 503 or 504 and answered so on every attempt is unknown too (a stock batch:
   * docs/bulk-runs.md), rather than only the platform unavailable (a customer update: `kept failing`, exit 69).
   */
  unknownWhenKeptFailing?: boolean;
}

/**
 * A write answered with a server failure (5xx): no refusal, since the platform may have stored the write before it
 * failed (a user test: two customer updates applied, reported "did not go through … to fix"; a 500 to an order move
 * had canceled the order). Its outcome is not known, so the command reports it `unknown` (exit 69 for one write),
 * never `failed`. `failure` is the platform's answer as it came; `status` its status, or none for a write that kept
 * failing (KeptFailingError), which still counts as the platform unavailable in a bulk run.
 */
export class MayHaveBeenAppliedError extends AmbiguousRequestError {
  readonly failure: PlatformError | KeptFailingError;
  constructor(message: string, failure: PlatformError | KeptFailingError, status: number | undefined) {
    super(message, { cause: failure, status });
    this.failure = failure;
  }
}

/**
 * The one place the rule "a 5xx to a write is not a refusal" is applied (PlatformClient.send calls it on every
 * error): `error` as a MayHaveBeenAppliedError when `request` writes and the platform answered 5xx (a 500, not
 * retried; with unknownWhenKeptFailing, a 502-504 on every attempt too), else `error` as it was. A read, a write that
 * changes nothing and a lost login (exit 77) are left alone. A 502-504 to a write never repeated (a create, a move)
 * is already ambiguous in the HTTP client (AmbiguousAnswerError), which knows it unanswered.
 */
export function appliedWriteRule(request: WriteRequest, error: unknown): unknown {
  if (request.method === 'GET' || request.method === 'HEAD' || request.changesNothing === true) return error;
  const effect = request.effect ?? 'applied the request';
  if (error instanceof PlatformError && error.status >= 500 && error.exitCode !== ExitCode.authFailed)
    return new MayHaveBeenAppliedError(
      `${asClause(error.message)}, which may come after the platform ${effect}.`,
      error,
      error.status,
    );
  if (request.unknownWhenKeptFailing === true && error instanceof KeptFailingError && error.status >= 500)
    return new MayHaveBeenAppliedError(
      `${asClause(error.message)}; each ${error.status} may have come after the platform ${effect}.`,
      error,
      undefined,
    );
  return error;
}
