import pLimit from 'p-limit';
import { NotAListingPage } from '../../platform/answers/listing.js';
import { NumberSearchCutShort } from '../../platform/order-numbers.js';
import type { MoveAnswer } from '../../platform/answers/order-moves.js';
import { type BodyPlaceholder, type OrderRoute, type OrderRoutes, placeholdersOf } from '../../domain/order-routes.js';
import {
  carriedDataShownEmpty,
  conflictNotSent,
  type CorrectedField,
  dataHeldUnderUnknownStatus,
  correctionSeen,
  forbiddenMove,
  type HeldMoveData,
  isKnownStatus,
  keptFieldOf,
  moveAddsData,
  moveConflict,
  type MoveConflict,
  moveNeverTaken,
  reachedStage,
  type ReplaceableAction,
  statusAfter,
  statusShowsMove,
} from '../../domain/order-stages.js';
import { AmbiguousRequestError, ExitCode, PlatformError, UnavailableError } from '../../base/errors.js';
import type { Outcome } from '../../bulk/report.js';
import type { PlatformClient } from '../../platform/client.js';
import { orderAnswers, UnreadableOrderDetail } from '../../platform/orders.js';
import {
  type MoveValues,
  orderState,
  orderStateOf,
  type OrderState,
  sendOrderMove,
} from '../../platform/order-moves.js';
import { howToGive, type MoveFieldsGivenAs, type PreparedMove } from './move-input.js';
import { numbered, numberRefusal, recipientRefusal, totalMismatch } from './order-checks.js';
import { noSuchOrderReason, OrderLookup } from '../order-lookup.js';
import { asClause } from '../../lib/clause.js';

/** How one move went: the report's outcome, the HTTP status, a message, and the order's id when a number named it. */
export interface MoveResult {
  outcome: Extract<
    Outcome,
    'applied' | 'accepted' | 'unchanged' | 'rejected' | 'conflict' | 'invalid' | 'failed' | 'unknown'
  >;
  status?: number;
  message?: string;
  id?: string;
  /**
   * True when the order was not sent because the platform knows no order by that name (neither its detail nor the
   * number search found it): a single command exits as `orders get` does for it.
   */
  noSuchOrder?: boolean;
  /**
   * True for an `unknown` move that was sent and may have been applied, whose order's status could not be read to
   * tell: only a run that reads the order first settles it (a resume), so a file run keeps it out of the errors
   * file, which fed back as the run was made (--no-status-check) would send it a second time, unchecked.
   */
  settledByReadingFirst?: boolean;
}

export interface MoveSenderOptions {
  /** Reads each order's state before its first move and refuses locally a move its status forbids (default true). */
  checkStatus?: boolean;
  /** `--replace`: a move whose data differs from what the order holds goes through the routes file's replace route. */
  replace?: boolean;
  /** Where `order 100217 is id 217` is said. */
  note?: (line: string) => void;
  /** How the user gives a move's fields, for the words of a refusal (default: a file's columns). */
  givenAs?: MoveFieldsGivenAs;
  /** The run's clock, which ages the status read before anything was sent (default: the system's). */
  now?: () => number;
  /** Where the routes came from, as a 404 to a move names it (`--routes routes.json`, the orders.routes setting). */
  routesFrom?: string;
}

/** What the caller knows of a move beside the move itself. */
export interface MoveSending {
  /**
   * A resumed run's record the killed run may have sent: the order's status is read even without the status check,
   * so a move that went through is not sent again.
   */
  unanswered?: boolean;
  /** Where a file's record is, as its messages name it (`pedidos.csv:7`): a warning about the move names it too. */
  place?: string;
}

/**
 * How old the status read before anything was sent may be when an order's first move would go: older, it is read
 * again first, so a move made meanwhile (by hand, by the store's staff) is `unchanged`, not sent twice. A file that
 * takes longer than this costs one more request per order it moves on; one that does not, none.
 */
export const statusFreshForMs = 1000;

/**
 * Sends moves and judges their answers: a 2xx is done (`applied`, or `accepted` when its body is of no shape b2bctl
 * knows, with one warning per run) unless its body refuses the move, shows no proof of it, or says nothing at all (no
 * body: judged); a 4xx is the platform's refusal of this move (`rejected`); a 5xx or a lost answer, which may come
 * after the platform applied the move, and a 2xx without proof, are settled by reading the order's status
 * (docs/decisions/0045-a-moves-answer-read-as-the-store-writes-it.md).
 * A move the order has taken is `unchanged` when the order holds its data, a `conflict` when it holds other data
 * (docs/decisions/0012-order-conflicts-and-numbers.md).
 */
export class MoveSender {
  private warned = false;
  private warnedUnread = false;
  /** Each order's state as read before its first move of this run, then as its moves left it. */
  private readonly states = new Map<string, OrderState>();
  /** When each order's state was read from the platform; absent once this run's own move of it is known. */
  private readonly readAt = new Map<string, number>();
  /** The order's id → how this run's file first named it (its id, or its number). */
  private readonly namedAs = new Map<string, string>();
  /** Names of an order the file also names another way (found before anything was sent): the refusal of each. */
  private readonly twoWays = new Map<string, string>();
  /** Names of orders the read before the move did not find: no order has that id, nor that number. */
  private readonly notFound = new Set<string>();
  private readonly lookup: OrderLookup;
  private readonly checkStatus: boolean;

  private readonly client: PlatformClient;
  private readonly routes: OrderRoutes;
  private readonly warn: (message: string) => void;
  private readonly options: MoveSenderOptions;
  constructor(
    client: PlatformClient,
    routes: OrderRoutes,
    warn: (message: string) => void,
    options: MoveSenderOptions = {},
  ) {
    this.client = client;
    this.routes = routes;
    this.warn = warn;
    this.options = options;

    this.checkStatus = options.checkStatus !== false;
    this.lookup = new OrderLookup(client, options.note ?? (() => undefined));
  }

  /** Sends one move. */
  async send(move: PreparedMove, signal?: AbortSignal, sending: MoveSending = {}): Promise<MoveResult> {
    const unanswered = sending.unanswered === true;
    const namedTwice = this.twoWays.get(move.order);
    if (namedTwice !== undefined) return { outcome: 'invalid', message: namedTwice };
    let before: OrderState | undefined;
    try {
      before = await this.currentState(move, signal, unanswered);
    } catch (error) {
      if (!unanswered && error instanceof UnreadableOrderDetail) return unreadOrder(move.order, error);
      if (!unanswered) throw error;
      return unreadStatusOfUnanswered(move.order, error);
    }
    const target = numbered(this.addressed(move), before);
    const id = target.values.id === move.order ? undefined : target.values.id;
    const otherNumber =
      numberRefusal(move, before, id, this.options.givenAs) ?? this.namedTwoWays(move, target.values.id, id);
    if (otherNumber) return otherNumber;
    // Sent by the killed run, answer never seen, and no status to tell: a second send could apply it twice.
    if (unanswered && before?.status === undefined)
      return { outcome: 'unknown', id, message: unknownMessage(move.order) };
    const heldUnderWord =
      before?.status === undefined ? undefined : dataHeldUnderUnknownStatus(before.status, before.held, move.action);
    // Nor does a status word b2bctl does not know (a store's own, PRONTO_PARA_ENVIO), unless the order holds this
    // move's data: taken for "not there yet", the resume sent again every move the killed run had applied (a user test).
    if (unanswered && heldUnderWord === undefined && before?.status !== undefined && !isKnownStatus(before.status))
      return { outcome: 'unknown', id, message: unknownMessage(move.order, undefined, before.status) };
    // Only then: the killed run sent this move to an order there then, which a detail route refusing it now does
    // not show gone (docs/orders.md: unknown, not sent again).
    if (before === undefined && this.notFound.has(move.order)) return this.noSuchOrder(move.order);
    // A detail that shows no status b2bctl reads (none where it looks, or under another name, `situacao`): no check
    // can run, as for a detail it cannot read at all; sent, a move the order took went again (a user test).
    if (before !== undefined && before.status === undefined) return this.unreadDetail(id, before.unread === true);
    if (before?.status !== undefined && (heldUnderWord !== undefined || reachedStage(before.status, move.action))) {
      const conflict =
        moveConflict(before.held, move.action, move.values) ?? moveAddsData(before.held, move.action, move.values);
      const neverTaken = conflict ? undefined : moveNeverTaken(before.status, before.held, move.action);
      if (neverTaken !== undefined) return { outcome: 'conflict', id, message: neverTaken };
      const shows =
        heldUnderWord === undefined
          ? `the order is already ${before.status}`
          : `the order is ${before.status}, a status word b2bctl does not know, and holds this move's ${heldUnderWord}`;
      if (!conflict) return { outcome: 'unchanged', id, message: `${shows}: not sent${unanswered ? ' again' : ''}` };
      return (
        recipientRefusal(move, before, id) ??
        this.correct(target, conflict, before.status, signal, totalMismatch(move, before, sending.place))
      );
    }
    const refusal =
      this.checkStatus && before?.status !== undefined ? forbiddenMove(before.status, move.action) : undefined;
    if (refusal)
      return {
        outcome: 'invalid',
        id,
        message: `not sent: the order is ${before?.status} on the platform; ${refusal}`,
      };
    const warning = totalMismatch(move, before, sending.place);
    return recipientRefusal(move, before, id) ?? this.deliver(target, this.routes[move.action], signal, { warning });
  }

  /**
   * Before anything is sent: each order the file names is read (as the status check would read it, so no move reads
   * it again), and an order named by its id on some rows and by its number on others has all its moves refused. Its
   * moves under two names would go as two groups side by side: a ship under the id could go before the ready and
   * invoice above it under the number, and the order be shipped with neither.
   */
  async readNames(names: Iterable<string>, concurrency: number, signal?: AbortSignal): Promise<void> {
    if (!this.checkStatus) return;
    const limit = pLimit(Math.max(1, concurrency));
    const given = [...new Set(names)];
    await Promise.all(given.map((name) => limit(() => this.readAhead(name, signal))));
    const namesOf = new Map<string, string[]>();
    for (const name of given) {
      const id = this.lookup.knownIdOf(name) ?? name;
      namesOf.set(id, [...(namesOf.get(id) ?? []), name]);
    }
    for (const spellings of namesOf.values()) {
      if (spellings.length < 2) continue;
      const message = `not sent: this file names one order both as ${spellings.join(' and as ')}; name each order one way (its id or its number), so its moves go in file order`;
      for (const name of spellings) this.twoWays.set(name, message);
    }
  }

  /**
   * One order's read before the run's first send. A read that fails (the platform unavailable, a 5xx) costs that
   * order alone: nothing is known of it, so its first move reads it again when it is sent, where a failure is that
   * move's own. Thrown, it would fail every batch waiting for this reading, each with this order's error.
   */
  private async readAhead(name: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.stateBefore({ order: name } as PreparedMove, signal, false);
    } catch (error) {
      // Refused credentials would refuse every request: they still stop the run here.
      const failedRequest =
        error instanceof UnavailableError || (error instanceof PlatformError && error.exitCode !== ExitCode.authFailed);
      if (!failedRequest) throw error;
    }
  }

  /**
   * One order named by its id on some rows and by its number on others: the file's moves of it would be two groups,
   * sent side by side instead of in file order (a cancel could go before the ship above it). The first name the run
   * meets is kept; a move under the other is not sent, and says why.
   */
  private namedTwoWays(move: PreparedMove, resolvedId: string | undefined, id: string | undefined) {
    const key = resolvedId ?? move.order;
    const first = this.namedAs.get(key);
    if (first === undefined) {
      this.namedAs.set(key, move.order);
      return undefined;
    }
    if (first === move.order) return undefined;
    const result: MoveResult = {
      outcome: 'invalid',
      id,
      message: `not sent: this file names one order both as ${first} and as ${move.order}; name each order one way (its id or its number), so its moves go in file order`,
    };
    return result;
  }

  /** The order's state as known in this run, when it shows the move taken already (the report's message), else undefined. */
  alreadyTaken(move: PreparedMove): string | undefined {
    const known = this.states.get(move.order);
    return known?.status !== undefined &&
      reachedStage(known.status, move.action) &&
      !moveConflict(known.held, move.action, move.values) &&
      !moveAddsData(known.held, move.action, move.values) &&
      moveNeverTaken(known.status, known.held, move.action) === undefined
      ? `the order is already ${known.status}: not sent`
      : undefined;
  }

  /** A conflict, reported; with --replace, sent through the routes file's replace route when it has one. */
  private async correct(
    move: PreparedMove,
    conflict: MoveConflict,
    status: string,
    signal: AbortSignal | undefined,
    warning: string | undefined,
  ): Promise<MoveResult> {
    const id = move.values.id === move.order ? undefined : move.values.id;
    const route = this.routes.replace?.[move.action as ReplaceableAction];
    if (!this.options.replace) return { outcome: 'conflict', id, message: conflictNotSent(status, conflict) };
    if (!route || !(move.action in keptFieldOf))
      return {
        outcome: 'conflict',
        id,
        message: `${conflict.message}: not sent; the routes file has no replace.${move.action} route to correct it`,
      };
    const lacks = replaceLacks(route, conflict.field, move.values);
    if (lacks !== undefined)
      return {
        outcome: 'conflict',
        id,
        message: `${conflict.message}: not sent; the routes file's replace.${move.action} route does not carry ${lacks}`,
      };
    const result = await this.deliver(move, route, signal, { keepStatus: status, corrects: conflict.field, warning });
    return result.outcome === 'applied' || result.outcome === 'accepted'
      ? { ...result, message: `${conflict.done}${result.message ? `; ${result.message}` : ''}` }
      : result;
  }

  /**
   * Sends `move` through `route`; `keepStatus` for a correction, which leaves the order where it is. `warning` (an
   * NF-e total that is not the order's, totalMismatch) is said as the move goes, a correction's too: the NF-e that
   * replaces another may be the other order's as well.
   */
  private async deliver(
    move: PreparedMove,
    route: OrderRoute,
    signal: AbortSignal | undefined,
    { keepStatus, corrects, warning }: { keepStatus?: string; corrects?: CorrectedField; warning?: string } = {},
  ): Promise<MoveResult> {
    const id = move.values.id === move.order ? undefined : move.values.id;
    const numberMissing = this.numberMissing(move, route, id);
    if (numberMissing) return numberMissing;
    if (warning !== undefined) this.warn(warning);
    let sent: Awaited<ReturnType<typeof sendOrderMove>>;
    const wasRead = this.states.get(move.order) !== undefined;
    try {
      sent = await sendOrderMove(this.client, route, move.values, signal);
    } catch (error) {
      this.states.delete(move.order);
      // A 5xx (the client's MayHaveBeenAppliedError), a 502-504, an answer lost: the move may have been applied (a 500
      // reported "did not go through", with an errors file "to fix", had canceled the order). The order's status tells.
      if (error instanceof AmbiguousRequestError) {
        const answered: Unproven = { status: error.status, what: asClause(error.message), kind: 'failure' };
        return keepStatus === undefined
          ? this.settle(move, answered, signal)
          : { ...(await this.settleCorrection(move, answered, corrects, signal)), id };
      }
      if (!(error instanceof PlatformError) || error.exitCode === ExitCode.authFailed) throw error;
      // Without the status check nothing looked the order up: a number the routes do not know is tried as one.
      if (error.status === 404 && !this.checkStatus && id === undefined) {
        const found = await this.lookup.idOfNumber(move.order, signal);
        if (found !== undefined) return this.deliver(this.addressed(move), route, signal, { keepStatus, corrects });
      }
      const message = error.status === 404 && wasRead ? this.missingRoute(error, move.action) : refusalMessage(error);
      return { outcome: 'rejected', status: error.status, id, message };
    }
    return this.judged(move, sent, { keepStatus, corrects, id }, signal);
  }

  /**
   * A 2xx to a move, judged by its body (read as the store's detail is: answers.order.*): done when it shows nothing
   * against it (an acknowledgement, the order in the move's status, or a body of no shape b2bctl knows or whose
   * status is the request's own result, `OK` or `PROCESSING`: `accepted` with one warning; a 202 with no body,
   * `accepted`). A body that refuses the move, shows the order in a status the move does not lead to, or is another
   * order's record is no proof, nor is no body at all: the order is read again, as after a 502-504, and its status
   * tells; a 200 `{"status":"ERROR"}` was reported `applied`, "now ERROR" (a user test). A correction leaves the
   * status as it was: its value tells.
   */
  private async judged(
    move: PreparedMove,
    { status, answer, held }: Awaited<ReturnType<typeof sendOrderMove>>,
    { keepStatus, corrects, id }: { keepStatus?: string; corrects?: CorrectedField; id?: string },
    signal: AbortSignal | undefined,
  ): Promise<MoveResult> {
    const shownStatus = answer.status;
    // No body at all (a 200 or 204 with nothing in it) says nothing of the order: read back, as a 2xx without proof
    // is. Taken as done, a store's empty 200 to a move it had not made was `applied`, exit 0 (a user test). A 202
    // says the store applies it later: `accepted` below, not read back (a queued move would always read `unknown`).
    if (answer.empty === true && keepStatus === undefined && status !== 202) {
      this.states.delete(move.order);
      return { ...(await this.settle(move, { status, what: 'the answer has no body', kind: 'unproven' }, signal)), id };
    }
    // A correction answered with the order's record still holding the old value: its unchanged status is no proof.
    const unmade =
      keepStatus === undefined || held === undefined
        ? undefined
        : correctionSeen(held, move.action as ReplaceableAction, move.values, corrects);
    const proof =
      answer.refusal === undefined &&
      answer.otherOrder === undefined &&
      unmade?.seen !== 'notMade' &&
      (shownStatus === undefined || shownStatus === keepStatus || statusShowsMove(shownStatus, move.action));
    if (proof) {
      const unshown =
        keepStatus === undefined || held !== undefined
          ? undefined
          : await this.ackedCorrection(move, { status, answer, corrects }, signal);
      if (unshown !== undefined) return { ...unshown, id };
      const dropped =
        keepStatus === undefined && held !== undefined && shownStatus !== undefined
          ? dataDropped(move, { status, shownStatus }, held)
          : undefined;
      if (dropped !== undefined) {
        this.states.delete(move.order);
        return { ...dropped, id };
      }
      if (!answer.recognised) this.warnOnce(status);
      this.remember(move, shownStatus ?? keepStatus ?? statusAfter[move.action]);
      const queued = answer.empty === true && status === 202;
      return {
        outcome: answer.recognised && !queued ? 'applied' : 'accepted',
        status,
        id,
        message: shownStatus
          ? `now ${shownStatus}`
          : queued
            ? 'the answer has no body: the platform took the move to apply it later'
            : requestResultNote(answer.requestResult),
      };
    }
    this.states.delete(move.order);
    const what =
      answer.refusal !== undefined
        ? `the answer's body refuses the move: ${answer.refusal}`
        : answer.otherOrder !== undefined
          ? `the answer is the record of another order (id ${answer.otherOrder})`
          : unmade?.seen === 'notMade'
            ? "the answer's record of the order shows the correction not made"
            : shownStatus !== undefined && !isKnownStatus(shownStatus)
              ? `the answer shows the order ${shownStatus}, a status word b2bctl does not know`
              : `the answer shows the order ${shownStatus}, which this move does not lead to`;
    const kind = answer.refusal === undefined ? 'unproven' : 'refusal';
    const settled =
      keepStatus === undefined
        ? await this.settle(move, { status, what, kind }, signal)
        : await this.settleCorrection(move, { status, what, kind }, corrects, signal);
    return { ...settled, id };
  }

  /**
   * A correction answered with a bare acknowledgement (`204`, `{"success": true}`), which shows no order: the order
   * is read back, since only its value can show a correction made (a store that ignored one answered so, and it was
   * `applied`, exit 0, the order still holding the old value: a user test). The old value still held:
   * `unknown` (a store may answer before it applies it), never `applied`. Undefined, the answer's word standing, when
   * the order shows the new value, does not show the field, or cannot be read; and for a `202` or a request's own
   * result (`PROCESSING`), which say the store applies it later.
   */
  private async ackedCorrection(
    move: PreparedMove,
    { status, answer, corrects }: { status: number; answer: MoveAnswer; corrects?: CorrectedField },
    signal: AbortSignal | undefined,
  ): Promise<MoveResult | undefined> {
    if (!answer.recognised || status === 202 || answer.requestResult !== undefined) return undefined;
    let held: OrderState['held'];
    try {
      held = (await orderState(this.client, move.values.id ?? move.order, signal)).held;
    } catch {
      return undefined;
    }
    const seen = correctionSeen(held, move.action as ReplaceableAction, move.values, corrects);
    if (seen.seen !== 'notMade') return undefined;
    this.states.delete(move.order);
    return {
      outcome: 'unknown',
      status,
      message: `the answer shows no order; read back, ${seen.holds}: the platform may not have taken the correction, or take it later; check with b2bctl orders get ${move.order} before sending it again`,
    };
  }

  /**
   * A 404 to a move of an order read a moment ago: the store lacks the route, not the order. Names the method and
   * path sent and where the route came from; "HTTP 404, HTTP 404: the platform knows no such order" said neither.
   */
  private missingRoute(error: PlatformError, action: string): string {
    const said = error.platformMessage === undefined ? '' : `${error.platformMessage}; `;
    const from = this.options.routesFrom ?? 'the routes in force';
    return `${said}the order was read a moment ago, so the store has no route ${error.request.method} ${error.request.url}: check the ${action} route of ${from}`;
  }

  /**
   * A route with `{orderId}` for a move that gives no number, whose order's detail shows none either (a single
   * command lets the detail give it): not sent, saying how to give it.
   */
  private numberMissing(move: PreparedMove, route: OrderRoute, id: string | undefined): MoveResult | undefined {
    if (move.values.orderId || !route.path.includes('{orderId}')) return undefined;
    const read = this.states.get(move.order) !== undefined;
    const where = !this.checkStatus
      ? ''
      : read
        ? ", and the order's detail shows no number"
        : ', and the order could not be read for its number';
    return {
      outcome: 'invalid',
      id,
      message: `not sent: the ${move.action} route (${route.path}) needs {orderId}${where}: give ${howToGive('orderId', this.options.givenAs)}`,
    };
  }

  /** The move addressed to the order's id when the user gave its number. */
  private addressed(move: PreparedMove): PreparedMove {
    const id = this.lookup.knownIdOf(move.order);
    return id === undefined ? move : { ...move, values: { ...move.values, id } };
  }

  /** After a move went through: the order's status and the data it now holds. */
  private remember(move: PreparedMove, status: string): void {
    const held = { ...this.states.get(move.order)?.held };
    if (move.action in keptFieldOf) {
      const field = keptFieldOf[move.action as ReplaceableAction];
      if (move.values[field] !== undefined) held[field] = move.values[field];
    }
    if (move.action === 'invoice' && (move.values.invoiceXml ?? move.values.invoiceXmlBase64) !== undefined)
      held.invoiceXml = 'sent';
    for (const field of ['carrier', 'trackingUrl'] as const)
      if (move.action === 'ship' && move.values[field] !== undefined) held[field] = move.values[field];
    const known = this.states.get(move.order);
    this.states.set(move.order, { status, held, buyer: known?.buyer, number: known?.number });
    this.readAt.delete(move.order);
  }

  /**
   * The order's state before this move. One read before the run's first send (`readNames`) may be minutes old when
   * a move would go: when it is older than statusFreshForMs and shows the move still to be made, it is read again.
   */
  private async currentState(move: PreparedMove, signal: AbortSignal | undefined, unanswered: boolean) {
    const before = await this.stateBefore(move, signal, unanswered);
    const readAt = this.readAt.get(move.order);
    const now = this.options.now ?? Date.now;
    if (readAt === undefined || before?.status === undefined || reachedStage(before.status, move.action)) return before;
    if (now() - readAt <= statusFreshForMs) return before;
    this.states.delete(move.order);
    return this.stateBefore(move, signal, unanswered);
  }

  /** The order's state before this move: known from this run, or read (one request) when a check needs it. */
  private async stateBefore(move: PreparedMove, signal: AbortSignal | undefined, unanswered: boolean) {
    const known = this.states.get(move.order);
    if (known !== undefined || (!this.checkStatus && !unanswered)) return known;
    try {
      const found = await this.lookup.find(move.order, signal);
      if (found === undefined) {
        this.notFound.add(move.order);
        return undefined;
      }
      this.notFound.delete(move.order);
      const state = orderStateOf(found.order, orderAnswers(this.client));
      this.states.set(move.order, state);
      this.readAt.set(move.order, (this.options.now ?? Date.now)());
      return state;
    } catch (error) {
      // A listing that answered an error with 200 while the number was searched for found nothing, as a 5xx would
      // not: the move, sent to the number as an id, would be refused as an order that does not exist.
      if (error instanceof NotAListingPage) throw error;
      // Nor a search the store's offset limit cut short: the number may be on a page it would not list.
      if (error instanceof NumberSearchCutShort) throw error;
      // Nor a 2xx that holds no order, another order's record among them (a gateway's mix-up): read as "no state", the
      // move went unchecked to an order whose status nobody saw (a user test). Its move is not sent (unreadOrder).
      if (error instanceof UnreadableOrderDetail) throw error;
      if (error instanceof PlatformError && error.status < 500 && error.exitCode !== ExitCode.authFailed)
        return undefined;
      throw error;
    }
  }

  /**
   * After an ambiguous failure: the order's status says whether the move went through. The report's status column
   * holds the move's own answer when one came (a 503, a 200 cut short), as for any other move.
   */
  private async settle(move: PreparedMove, answered: Unproven, signal?: AbortSignal): Promise<MoveResult> {
    const { what } = answered;
    let status: string | undefined;
    let held: HeldMoveData = {};
    try {
      ({ status, held } = await orderState(this.client, move.values.id ?? move.order, signal));
    } catch {
      // Nothing tells whether the move was made: a 2xx, or a 5xx or lost answer, which may come after the platform
      // made it (platform/applied-write.ts). It was reported "failed" after a 5xx, and fed back from the errors file
      // it was sent a second time (a repeated ready is accepted); `unknown`, settled by a run that reads it first.
      const check = `check with b2bctl orders get ${move.order}`;
      if (answered.kind === 'failure')
        return {
          outcome: 'unknown',
          status: answered.status,
          settledByReadingFirst: true,
          message: `${what}; its status could not be read to tell whether it went through: ${check} (a run that reads the order's status first sends it only if the order has not taken it)`,
        };
      return {
        outcome: 'unknown',
        status: answered.status,
        message: `${what}; its status could not be read: ${check}`,
      };
    }
    if (status === 'CANCELED' || status === 'DELIVERED')
      if (statusAfter[move.action] !== status)
        return {
          outcome: 'failed',
          status: answered.status,
          message: `${what}; the order is ${status} now: it moves no further`,
        };
    if (status !== undefined && reachedStage(status, move.action)) {
      const how = answered.kind !== 'failure' ? what : answeredHow(answered.status);
      return {
        outcome: 'applied',
        status: answered.status,
        message: `${how}; the order is ${status}, so the move went through`,
      };
    }
    if (status === undefined || !isKnownStatus(status)) return unplacedStatus(move, answered, status, held);
    const now = `the order is ${status}, not ${statusAfter[move.action]}`;
    // The order's old status in a 200 may be the platform's answer before it applies the move, later: not "failed".
    if (answered.kind === 'unproven')
      return {
        outcome: 'unknown',
        status: answered.status,
        message: `${what}; ${now}: the platform may not have taken the move, or take it later; check with b2bctl orders get ${move.order} before sending it again`,
      };
    const end = answered.kind === 'refusal' ? 'the move did not go through' : 'send it again';
    return { outcome: 'failed', status: answered.status, message: `${what}; ${now}: ${end}` };
  }

  /**
   * After a correction's answer that does not tell (a 5xx, a lost answer, a 2xx that refuses it or shows no proof):
   * a correction leaves the order's status as it is, so its status proves nothing (a 500 the store had not applied
   * was reported applied, "the order is READY_TO_SHIP, so the move went through", exit 0: a user test). The
   * value the order's detail shows now tells (correctionSeen): the corrected one, applied; the old one, failed, or
   * unknown after a 2xx that may come before the store applies it; a detail that does not show it, unknown.
   */
  private async settleCorrection(
    move: PreparedMove,
    answered: Unproven,
    corrects: CorrectedField | undefined,
    signal?: AbortSignal,
  ): Promise<MoveResult> {
    const { what, status } = answered;
    const check = `check with b2bctl orders get ${move.order}`;
    let held: OrderState['held'];
    try {
      held = (await orderState(this.client, move.values.id ?? move.order, signal)).held;
    } catch {
      return { outcome: 'unknown', status, message: `${what}; the order's detail could not be read again: ${check}` };
    }
    const seen = correctionSeen(held, move.action as ReplaceableAction, move.values, corrects);
    if (seen.seen === 'unseen')
      return {
        outcome: 'unknown',
        status,
        message: `${what}; the order's detail does not show its ${seen.field}, and a correction leaves its status as it is, so b2bctl cannot tell whether the correction was made: ${check}`,
      };
    if (seen.seen === 'made') {
      const how = answered.kind !== 'failure' ? what : answeredHow(status);
      return { outcome: 'applied', status, message: `${how}; ${seen.holds}, so the correction went through` };
    }
    if (answered.kind === 'unproven')
      return {
        outcome: 'unknown',
        status,
        message: `${what}; ${seen.holds}: the platform may not have taken the correction, or take it later; ${check} before sending it again`,
      };
    const end = answered.kind === 'refusal' ? 'the correction did not go through' : 'send it again';
    return { outcome: 'failed', status, message: `${what}; ${seen.holds}: ${end}` };
  }

  /**
   * A move of an order the read before it did not find: the detail route knows no such id, and no order has that
   * number. Not sent (it was sent, and reported "rejected" by the store: a user test): a write to an id the
   * detail route has just denied is at best useless, and on a store whose moves another backend serves, a write to an
   * order nobody checked. Said as `orders get` says it; --no-status-check sends without reading (docs/orders.md).
   */
  private noSuchOrder(order: string): MoveResult {
    return {
      outcome: 'invalid',
      noSuchOrder: true,
      message: `not sent: ${noSuchOrderReason(order, this.lookup.searched(order))}`,
    };
  }

  /**
   * A move of an order whose detail showed no status b2bctl reads: not sent, `unknown`, with one warning a run. Sent,
   * a move the order took went again and another ERP number replaced the one it held, exit 0 (a user test); the
   * check the user did not switch off would silently not run. `unread`: it showed no id either, so the order is
   * likely in an envelope b2bctl does not know (answers.order.detail names it); else the status is under a name it
   * does not read (`situacao`: answers.order.status names it).
   */
  private unreadDetail(id: string | undefined, unread: boolean): MoveResult {
    if (!this.warnedUnread) {
      this.warnedUnread = true;
      this.warn(
        unread
          ? "warning: the platform's order detail shows neither a status nor an id where b2bctl reads them (the answer's root, or a data, order, result or content envelope), so what an order has taken cannot be checked and its moves are not sent. Set answers.order.detail to where the answer holds the order (b2bctl orders get ID shows the answer; b2bctl config set answers.order.detail pedido), or give --no-status-check to send them unchecked."
          : "warning: the platform's order detail shows the order but no status where b2bctl reads it (a status field, as a word or an object with a code), so what an order has taken cannot be checked and its moves are not sent. Set answers.order.status to the field that holds it (b2bctl orders get ID shows the answer; b2bctl config set answers.order.status situacao), or give --no-status-check to send them unchecked.",
      );
    }
    const fix = `set answers.order.${unread ? 'detail' : 'status'}, or --no-status-check sends it unchecked`;
    return {
      outcome: 'unknown',
      id,
      message: `not sent: the order's detail shows no status b2bctl reads, so whether the order has taken this move cannot be checked (${fix})`,
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

/**
 * The placeholders a replace route lacks to carry data the order lacks (`{carrier}`), or undefined when it carries
 * it with the move's value: a correction without it would be reported done with the data still missing. A kept
 * value (the ERP number, key, tracking code) every replace route carries: the routes file is checked for that.
 */
function replaceLacks(route: OrderRoute, field: MoveConflict['field'], values: MoveValues): string | undefined {
  if ((Object.values(keptFieldOf) as string[]).includes(field)) return undefined;
  const names: BodyPlaceholder[] = field === 'invoiceXml' ? ['invoiceXml', 'invoiceXmlBase64'] : [field];
  const used = placeholdersOf(route.body);
  if (names.some((name) => used.includes(name) && values[name] !== undefined)) return undefined;
  return names.map((name) => `{${name}}`).join(' or ');
}

/**
 * A 2xx whose record of the order shows the move's status but the place of the data it carried empty (`"erpOrderNumber":
 * null`): the store may have moved the status and dropped the data. `unknown`, never `applied` (a user test), and kept
 * out of the errors file: the order may hold the move's status, and fed back unchecked it would go again. Undefined
 * when the record shows the data, or does not show its place at all (which tells nothing).
 */
function dataDropped(
  move: PreparedMove,
  { status, shownStatus }: { status: number; shownStatus: string },
  held: HeldMoveData,
): MoveResult | undefined {
  const words = carriedDataShownEmpty(held, move.action, move.values);
  if (words === undefined) return undefined;
  return {
    outcome: 'unknown',
    status,
    settledByReadingFirst: true,
    message: `the answer shows the order ${shownStatus} but holding no ${words}: the platform may have taken the move without its ${words}; check with b2bctl orders get ${move.order}`,
  };
}

/** A failure that may come after the platform applied the move, said as what came: a 5xx, or no answer at all. */
function answeredHow(status: number | undefined): string {
  return status === undefined ? 'the answer was lost' : `the move was answered HTTP ${status}`;
}

/**
 * What an `accepted` move's answer said of the request itself (`"status": "PROCESSING"`), quoted so that it is not
 * read as the order's status; undefined when it said nothing of the kind.
 */
function requestResultNote(result: string | undefined): string | undefined {
  return result === undefined ? undefined : `the answer's status ${result} is the request's, not the order's`;
}

/**
 * Why a resumed run's unanswered move was not sent again, and how to settle it: `failedRead` is why its status read
 * failed, when it failed. Not "feed the row back": the errors file, fed back as the run was made (--no-status-check),
 * sends it unchecked, a second time (a user test); the resume reads the order before it sends.
 */
function unknownMessage(order: string, failedRead?: string, statusWord?: string): string {
  const read = failedRead === undefined ? '' : ` (${failedRead})`;
  if (statusWord !== undefined)
    return `unknown: sent by the interrupted run, its answer not seen, and the order is ${statusWord}, a status word b2bctl does not know, so it cannot tell whether the move went through; not sent again. Check with b2bctl orders get ${order}, and send it by hand only if the order has not taken it`;
  return `unknown: sent by the interrupted run, its answer not seen, and the order's status cannot be read to tell whether it went through${read}; not sent again. Check with b2bctl orders get ${order}; a later --resume reads its status again and sends it only if the order has not taken it`;
}

/**
 * A move whose answer did not prove it (a 5xx, a lost answer, a 2xx that refuses it or shows no proof), read again to
 * an order whose status tells neither way: a word b2bctl does not know (a store's own, `PRONTO_PARA_ENVIO`), or none
 * it reads. `unknown`, never "failed … send it again", which had a move the store applied sent a second time (a user
 * test). Kept out of the errors file as any move that may have been applied: fed back, a run taking the word for
 * "not there yet" would send it again; the resume reads it and does not. An order holding the very data the move
 * carried (its ERP number, NF-e key or tracking code) shows it reached the order: `applied`.
 */
function unplacedStatus(
  move: PreparedMove,
  answered: Unproven,
  status: string | undefined,
  held: HeldMoveData,
): MoveResult {
  // The order holding the very data this move carried shows it reached the order, whatever the word.
  const holds = status === undefined ? undefined : dataHeldUnderUnknownStatus(status, held, move.action);
  if (holds !== undefined && moveConflict(held, move.action, move.values) === undefined) {
    const how = answered.kind !== 'failure' ? answered.what : answeredHow(answered.status);
    return {
      outcome: 'applied',
      status: answered.status,
      message: `${how}; the order is ${status}, a status word b2bctl does not know, and holds this move's ${holds}, so the move went through`,
    };
  }
  const order = move.order;
  const shown =
    status === undefined
      ? "the order's detail shows no status b2bctl reads"
      : `the order is ${status}, a status word b2bctl does not know`;
  return {
    outcome: 'unknown',
    status: answered.status,
    settledByReadingFirst: true,
    message: `${answered.what}; ${shown}, so it cannot tell whether the move went through: check with b2bctl orders get ${order} before sending it again`,
  };
}

/**
 * A resumed run's unanswered move whose status read failed (a 5xx, a 200 that is no listing page, a platform that did
 * not answer): not sent, and `unknown`, never `failed` with the read's error, which said the move was not sent and
 * put it in the errors file "to fix and feed back" (a user test). Refused credentials still stop the run (no row: the
 * next resume checks the move again). A platform that did not answer at all fails the batch as unknown, so that
 * failures in a row stop the run as for any request, rather than each row's read spending its retries in turn.
 */
function unreadStatusOfUnanswered(order: string, error: unknown): MoveResult {
  const refusedCredentials = error instanceof PlatformError && error.exitCode === ExitCode.authFailed;
  if (refusedCredentials || !(error instanceof PlatformError || error instanceof UnavailableError)) throw error;
  const message = unknownMessage(order, error.message);
  if (error instanceof UnavailableError && error.answeredStatus === undefined)
    throw new AmbiguousRequestError(message, { cause: error, timedOutAfterMs: error.timedOutAfterMs });
  return { outcome: 'unknown', message };
}

/**
 * A move whose order's read before it answered 2xx with no order in it (UnreadableOrderDetail): another order's record
 * (a gateway's mix-up), JSON `null`, an empty envelope. Not sent, `failed`: what the order has taken cannot be checked,
 * and nothing was sent, so the errors file may feed it back. It went unchecked to the order as if it had been read (a
 * user test).
 */
function unreadOrder(order: string, error: UnreadableOrderDetail): MoveResult {
  return {
    outcome: 'failed',
    status: error.status,
    message: `not sent: the read of order ${order} answered ${error.instead}, so what the order has taken cannot be checked; b2bctl orders get ${order} reads it again`,
  };
}

/**
 * The platform's own words when its body has them, else the status alone: never b2bctl's guess at its wording. A
 * 404 says what it may mean, beside the status the report and the command's line show already.
 */
function refusalMessage(error: PlatformError): string {
  if (error.platformMessage) return error.platformMessage;
  return error.status === 404 ? 'the platform knows no such order (or route)' : `HTTP ${error.status}`;
}

/**
 * An answer that does not show the move made, which the order's status settles: a failure that may come after the
 * platform applied it (a 5xx, a lost answer), a 2xx whose body refuses it, or a 2xx that shows no proof of it.
 * `what` says the answer, as the report's message starts.
 */
interface Unproven {
  status?: number;
  what: string;
  kind: 'failure' | 'refusal' | 'unproven';
}
