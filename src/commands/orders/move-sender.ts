import { type OrderRoutes } from '../../domain/order-routes.js';
import { forbiddenMove, reachedStage, statusAfter } from '../../domain/order-stages.js';
import { AmbiguousRequestError, ExitCode, PlatformError } from '../../errors.js';
import type { Outcome } from '../../bulk/report.js';
import type { PlatformClient } from '../../platform/client.js';
import { orderStatus, sendOrderMove } from '../../platform/order-moves.js';
import type { PreparedMove } from './move-input.js';

/** How one move went: the report's outcome, the HTTP status and a message. */
export interface MoveResult {
  outcome: Extract<Outcome, 'applied' | 'accepted' | 'unchanged' | 'rejected' | 'invalid' | 'failed' | 'unknown'>;
  status?: number;
  message?: string;
}

/**
 * Sends moves and judges their answers by status code only: a 2xx is done (`applied`, or `accepted` when its body
 * is of no shape b2bctl knows, with one warning per run); a 4xx is the platform's refusal of this move (`rejected`);
 * an answer that may have come after the platform applied the move is settled by reading the order's status.
 */
export class MoveSender {
  private warned = false;
  /** Each order's status as read before its first move of this run, then as its moves left it. */
  private readonly statuses = new Map<string, string>();

  constructor(
    private readonly client: PlatformClient,
    private readonly routes: OrderRoutes,
    private readonly warn: (message: string) => void,
    /** Reads each order's status before its first move and refuses locally a move that status forbids. */
    private readonly checkStatus = true,
  ) {}

  /**
   * Sends one move. `unanswered` (a resumed run's record the killed run may have sent) reads the order's status even
   * without the status check, so a move that went through is not sent again.
   */
  async send(move: PreparedMove, signal?: AbortSignal, unanswered = false): Promise<MoveResult> {
    const before = await this.statusBefore(move, signal, unanswered);
    // Sent by the killed run, answer never seen, and no status to tell: a second send could apply it twice.
    if (unanswered && before === undefined) return { outcome: 'unknown', message: unknownMessage(move.order) };
    // A move the order has taken already (or gone past) is not sent: re-running a nightly file changes nothing.
    if (before !== undefined && reachedStage(before, move.action))
      return { outcome: 'unchanged', message: `the order is already ${before}: not sent${unanswered ? ' again' : ''}` };
    const refusal = this.checkStatus && before !== undefined ? forbiddenMove(before, move.action) : undefined;
    if (refusal) return { outcome: 'invalid', message: `not sent: the order is ${before} on the platform; ${refusal}` };
    try {
      const { status, answer } = await sendOrderMove(this.client, this.routes[move.action], move.values, signal);
      if (!answer.recognised) this.warnOnce(status);
      this.statuses.set(move.order, answer.status ?? statusAfter[move.action]);
      return {
        outcome: answer.recognised ? 'applied' : 'accepted',
        status,
        message: answer.status ? `now ${answer.status}` : undefined,
      };
    } catch (error) {
      this.statuses.delete(move.order);
      if (error instanceof AmbiguousRequestError) return this.settle(move, error, signal);
      if (!(error instanceof PlatformError) || error.exitCode === ExitCode.authFailed || error.status >= 500)
        throw error;
      return { outcome: 'rejected', status: error.status, message: refusalMessage(error) };
    }
  }

  /** The order's status as known in this run, when it shows the move taken already (the report's message), else undefined. */
  alreadyTaken(move: PreparedMove): string | undefined {
    const known = this.statuses.get(move.order);
    return known !== undefined && reachedStage(known, move.action)
      ? `the order is already ${known}: not sent`
      : undefined;
  }

  /** The order's status before this move: known from this run, or read (one request) when a check needs it. */
  private async statusBefore(move: PreparedMove, signal: AbortSignal | undefined, unanswered: boolean) {
    const known = this.statuses.get(move.order);
    if (known !== undefined || (!this.checkStatus && !unanswered)) return known;
    try {
      const status = await orderStatus(this.client, move.order, signal);
      if (status !== undefined) this.statuses.set(move.order, status);
      return status;
    } catch (error) {
      // An order the detail route does not find: the move's own answer says what the platform thinks of it.
      if (error instanceof PlatformError && error.status < 500 && error.exitCode !== ExitCode.authFailed)
        return undefined;
      throw error;
    }
  }

  /** After an ambiguous failure: the order's status says whether the move went through. */
  private async settle(move: PreparedMove, error: AmbiguousRequestError, signal?: AbortSignal): Promise<MoveResult> {
    let status: string | undefined;
    try {
      status = await orderStatus(this.client, move.order, signal);
    } catch {
      return { outcome: 'failed', message: `${error.message}; its status could not be read to check` };
    }
    if (status !== undefined && reachedStage(status, move.action))
      return { outcome: 'applied', message: `the answer was lost; the order is ${status}, so the move went through` };
    return {
      outcome: 'failed',
      message: `${error.message}; the order is ${status ?? 'of a status b2bctl cannot read'}, not ${statusAfter[move.action]}: send it again`,
    };
  }

  private warnOnce(status: number): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(
      `warning: the platform answered a move with HTTP ${status} and a body b2bctl does not recognise; taken as done (reported "accepted"). b2bctl orders get ID shows the order's status.`,
    );
  }
}

/** Why a resumed run's unanswered move was not sent again, and how to settle it. */
function unknownMessage(order: string): string {
  return `unknown: sent by the interrupted run, its answer not seen, and the order's status cannot be read to tell whether it went through; not sent again. Check with b2bctl orders get ${order}; to send it anyway, feed the row back from the errors file`;
}

/** The platform's own words when its body has them, else the status alone: never b2bctl's guess at its wording. */
function refusalMessage(error: PlatformError): string {
  if (error.platformMessage) return error.platformMessage;
  return error.status === 404 ? 'HTTP 404: the platform knows no such order (or route)' : `HTTP ${error.status}`;
}
