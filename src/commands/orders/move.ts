import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { type OrderAction, type OrderMove } from '../../domain/order-stages.js';
import {
  AmbiguousRequestError,
  ExitCode,
  InputError,
  InterruptedAfterSendingError,
  NotFoundError,
  PartialFailureError,
  PlatformError,
  UnavailableError,
} from '../../base/errors.js';
import { orderRoutesOf, refuseReplaceWithoutRoutes, routesOriginOf } from '../../io/order-routes-file.js';
import { writeObject } from '../../io/output/write-object.js';
import { RedirectAnswerError } from '../../platform/redirect.js';
import { checkMove } from '../../orders/moves/move-input.js';
import { type MoveResult, MoveSender } from '../../orders/moves/sender.js';

/** `orders ready|invoice|ship|cancel ORDER …`: one move of one order, its fields named as in an update file. */
export interface OrdersMoveOptions extends Partial<OrderMove> {
  order: string;
  action: OrderAction;
  /** `--routes FILE`: the store's order routes (default: the orders.routes setting, else the sandbox's). */
  routes?: string;
  /** False with --no-status-check: no read of the order's status before the move. */
  statusCheck?: boolean;
  /** `--replace`: data that differs from what the order holds is sent through the replace route. */
  replace?: boolean;
}

const doneWords: Readonly<Record<OrderAction, string>> = {
  ready: 'ready to ship',
  invoice: 'invoiced',
  ship: 'shipped',
  cancel: 'canceled',
};

/** Checks the move locally (nothing is sent when it fails), sends it, and prints one line of outcome. */
export async function run(options: OrdersMoveOptions, context: Context): Promise<void> {
  // A file that is not there is exit 66, as every command that reads one says it (orders update names its rows').
  if (options.invoiceXml !== undefined && !existsSync(resolve(options.invoiceXml)))
    throw new InputError(`--xml ${options.invoiceXml}: no such file; nothing was sent.`, {
      file: options.invoiceXml,
      missing: true,
    });
  const session = await context.session();
  session.requireBaseUrl();
  const routes = orderRoutesOf(options.routes, session);
  const routesFrom = routesOriginOf(options.routes, session);
  if (options.replace === true)
    refuseReplaceWithoutRoutes(`orders ${options.action}`, routes, [options.action], routesFrom);
  const verdict = checkMove(options, {
    baseDirectory: process.cwd(),
    nowMs: context.clock.now(),
    routes,
    defaultBranch: session.get('branch'),
    warn: (field, message) => context.log.warn(`warning: ${field}: ${message}`),
    givenAs: 'flags',
    numberFromDetail: options.statusCheck !== false,
  });
  if (!verdict.ok)
    throw new InputError(`${verdict.problems.map((problem) => problem.message).join('; ')}; nothing was sent.`, {
      field: verdict.problems[0]?.field,
    });
  const client = await context.platform();
  const sender = new MoveSender(client, routes, context.log.warn, {
    checkStatus: options.statusCheck !== false,
    replace: options.replace === true,
    note: (line) => context.log.info(line),
    givenAs: 'flags',
    routesFrom,
  });
  const wantsData = context.globals.output !== undefined ? context.globals.output !== 'table' : !context.io.isStdoutTTY;
  let result: MoveResult;
  try {
    result = await sender.send(verdict.value, context.interrupt);
  } catch (error) {
    throw await thrownMove(error, options, verdict.value.order, wantsData, context);
  }
  const summary = {
    order: result.id ?? verdict.value.order,
    action: options.action,
    outcome: result.outcome,
    status: result.status,
    message: result.message,
  };
  if (wantsData) await writeObject(context, summary);
  const code = result.status === undefined ? undefined : `HTTP ${result.status}`;
  // A message that is the code alone (a refusal with no words of the platform's) is not said twice.
  const detail = [code, result.message === code ? undefined : result.message].filter(Boolean);
  const line = `order ${summary.order}: ${result.outcome === 'applied' || result.outcome === 'accepted' ? doneWords[options.action] : result.outcome}${detail.length > 0 ? ` (${detail.join(', ')})` : ''}`;
  // No order by that name: exit as `orders get` exits for it (1), not as a move's own data refused (65).
  if (result.noSuchOrder === true) throw new NotFoundError(`order ${summary.order}: ${result.message}.`);
  if (result.outcome === 'invalid')
    throw new InputError(`order ${summary.order}: ${result.message ?? 'refused'}.`, { field: 'order' });
  if (['rejected', 'failed', 'conflict', 'unknown'].includes(result.outcome)) throw new PartialFailureError(line);
  if (!wantsData) context.io.stdout.write(`${line}\n`);
  else context.log.info(line);
}

/**
 * What a move that ended in an error says, on stdout too with -o json: a script reading it got nothing. Returns the
 * error to throw.
 */
async function thrownMove(
  error: unknown,
  options: OrdersMoveOptions,
  order: string,
  wantsData: boolean,
  context: Context,
): Promise<unknown> {
  // A redirect to the write: it may have been applied, so the move is `unknown`, and -o json still says so.
  if (error instanceof RedirectAnswerError && error.unknownOutcome !== undefined && wantsData)
    await writeObject(context, {
      order,
      action: options.action,
      outcome: 'unknown',
      status: error.status,
      message: error.unknownOutcome,
    });
  // A platform unavailable or throttling on every attempt (a 429 each time): the move was not taken, and -o json
  // still gives its outcome, as every other outcome does.
  if (error instanceof UnavailableError && wantsData)
    await writeObject(context, {
      order,
      action: options.action,
      outcome: error instanceof AmbiguousRequestError ? 'unknown' : 'failed',
      status: error.answeredStatus,
      message: error.message,
    });
  // The read of the order before the move answered an error (a 500): nothing was sent. It printed no outcome, and a
  // line naming neither the order, the move, nor that it was not sent (a user test). With the status check, only the
  // reads before the move throw so (after a 404 to a move sent unchecked, the number search may: it was sent).
  if (error instanceof PlatformError && error.exitCode !== ExitCode.authFailed && options.statusCheck !== false) {
    const message = `not sent: the order's status could not be read: ${error.message}`;
    if (wantsData)
      await writeObject(context, { order, action: options.action, outcome: 'failed', status: error.status, message });
    return new PartialFailureError(`order ${order}: failed (HTTP ${error.status}, ${message})`);
  }
  if (!(error instanceof InterruptedAfterSendingError)) return error;
  return interruptedMove(error, options, order, wantsData, context);
}

/**
 * A move interrupted after it was sent, its answer never read: it may have been applied. Its outcome object is
 * `unknown`, as for any move b2bctl cannot tell; and running the command again is safe, since it reads the order's
 * status first and sends no move the order has taken (MoveSender.send), unless --no-status-check skipped that read.
 */
async function interruptedMove(
  error: InterruptedAfterSendingError,
  options: OrdersMoveOptions,
  order: string,
  wantsData: boolean,
  context: Context,
): Promise<InterruptedAfterSendingError> {
  const advice =
    options.statusCheck === false
      ? `check with b2bctl orders get ${order} before sending it again (or run it again without --no-status-check: it then reads the order's status first and sends no move the order has taken)`
      : "running the same command again is safe: it reads the order's status first and sends no move the order has taken";
  const stopped = new InterruptedAfterSendingError(error.interrupted, advice);
  if (wantsData)
    await writeObject(context, {
      order,
      action: options.action,
      outcome: 'unknown',
      status: undefined,
      message: stopped.message,
    });
  return stopped;
}
