import { dirname, resolve } from 'node:path';
import { type PendingRecord, reportEntry, runBulkJob, type ReportEntry } from '../../bulk/bulk-job.js';
import type { InputFlags, SendFlags } from '../../bulk/flags.js';
import type { RecordChecker } from '../../bulk/validation-pass.js';
import { type ReportRow, withPlaceOf } from '../../bulk/report.js';
import type { Context } from '../../context.js';
import type { Session } from '../../config/session.js';
import type { OrderRoutes } from '../../domain/order-routes.js';
import type { OrderAction } from '../../domain/order-stages.js';
import type { PlatformClient } from '../../platform/client.js';
import type { PlaceSet } from '../../bulk/resume.js';
import { recordPlace } from '../../io/input/open-input.js';
import { inputName } from '../../io/input/byte-source.js';
import { moveCatalogue, type PreparedMove } from '../../orders/moves/move-input.js';
import { newMoveChecker } from './move-checker.js';
import { orderRoutesOf, refuseReplaceWithoutRoutes, routesOriginOf } from '../../io/order-routes-file.js';
import { type MoveResult, MoveSender } from '../../orders/moves/sender.js';
import { sendingConcurrency } from '../../bulk/send-pacing.js';

export interface OrdersUpdateOptions extends InputFlags, SendFlags {
  file: string;
  /** `--routes FILE`: the store's order routes (default: the orders.routes setting, else the sandbox's). */
  routes?: string;
  /** `--branch CODE`: `{branch}` of a row without a branch of its own (default: the branch setting). */
  branch?: string;
  /** False with --no-status-check: the platform alone judges each move against the order's status. */
  statusCheck?: boolean;
  /** `--allow-paths`: invoiceXml may name any file (by default, only files inside the moves file's folder). */
  allowPaths?: boolean;
  /** `--replace`: a move whose data differs from what the order holds is sent through the replace route. */
  replace?: boolean;
}

/** The flags a --resume restores from the interrupted run (or checks against it). */
const movesShaping = [
  { flag: '--routes', key: 'routes', path: true },
  { flag: '--branch', key: 'branch' },
  { flag: '--replace', key: 'replace', unset: false },
  { flag: '--allow-paths', key: 'allowPaths', unset: false },
] as const;

/** What the file's rows leave to each order's detail, which only the real run reads: its number, checked or taken. */
interface NumbersLeft {
  /** A row gives an orderId: whether it is its order's number is checked against the detail. */
  checked: boolean;
  /** A row gives none for a route with `{orderId}`: the number is taken from the detail. */
  taken: boolean;
}

/** Notes what a valid move leaves to its order's detail. */
function noteNumbers(left: NumbersLeft, move: PreparedMove, routes: OrderRoutes): void {
  if (move.values.orderId !== undefined) left.checked = true;
  else if (routes[move.action].path.includes('{orderId}')) left.taken = true;
}

/** What a dry run, which reads no order, leaves to the real run (a fresh user test took its exit 0 for a fine file). */
function dryRunLeaves(left: NumbersLeft): string {
  const found = ['a move their status forbids or has taken', 'an order named both by its id and by its number'];
  if (left.checked) found.push("an orderId that is not its order's number");
  const taken = left.taken
    ? " A route's {orderId} of a row without an orderId takes the number its order's detail shows, read by the real run (a detail that shows none makes the row invalid then)."
    : '';
  return `The orders were not read: ${found.slice(0, -1).join(', ')}, and ${found.at(-1)}, are found by the real run before it sends each.${taken}`;
}

/**
 * Sends a file of order moves through the bulk engine: every row checked first (nothing is sent when one is
 * invalid, unless --skip-invalid), then one request per move, paced, reported and resumable. The moves of one
 * order go in file order, one at a time; different orders go in parallel.
 */
export async function run(options: OrdersUpdateOptions, context: Context): Promise<void> {
  // Given by prepare() once the run has opened it: its refusals, and orders.routes', end with the closing line.
  let session: Session | undefined;
  // Read once the run's flags are settled: a --resume restores the interrupted run's --routes.
  let routes: OrderRoutes | undefined;
  const routesNow = () => (routes ??= orderRoutesOf(options.routes, session as Session));
  let senderReady: Promise<ReturnType<typeof orderedSender>> | undefined;
  /** Per order, the line of its first move that did not go through (refused, or invalid and passed over). */
  const stoppedAt = new Map<string, number>();
  /**
   * Every name the file gives an order (its id or its number) in a move left to send, gathered while the file is
   * checked: a resume reads no order whose moves its report shows done.
   */
  const orderNames = new Set<string>();
  let resumedDone: PlaceSet | undefined;
  const numbersLeft: NumbersLeft = { checked: false, taken: false };
  /** The actions of the file's valid moves: those --replace needs a replace route for. */
  const actions = new Set<OrderAction>();
  await runBulkJob<PreparedMove>(
    {
      name: 'orders update',
      unit: 'moves',
      file: options.file,
      flags: options,
      catalogue: moveCatalogue,
      prepare(opened) {
        session = opened;
        if (!options.resume) routesNow();
      },
      newChecker: () =>
        fileChecker(options, context, options.branch ?? session?.get('branch'), routesNow, (move) => {
          noteNumbers(numbersLeft, move, routesNow());
          actions.add(move.action);
        }),
      resuming: (done) => void (resumedDone = done),
      keyOf: (record) => {
        if (record.values.order !== undefined && !resumedDone?.has(record)) orderNames.add(String(record.values.order));
        return `${String(record.values.order ?? '')} ${String(record.values.action ?? '')}`.trim();
      },
      lockName: 'orders-update',
      // Read once the file is checked, to say what its rows leave to the orders' details.
      get dryRunLeaves() {
        return options.statusCheck === false ? undefined : dryRunLeaves(numbersLeft);
      },
      resumeOfUnknown: 'asks first',
      outcomes: ['applied', 'accepted', 'unchanged', 'conflict', 'rejected', 'invalid', 'failed', 'unknown'],
      sentOutcomes: ['applied', 'accepted'],
      shaping: movesShaping,
      plan: () => movesPlan(options, routesNow(), actions, () => routesOriginOf(options.routes, session as Session)),
      // An invalid row that --skip-invalid passes over is a move that did not go through: the later moves of its
      // order wait for it, as after a refused one.
      skippedInvalid: ({ key, line }) => {
        const order = key.split(' ')[0] ?? '';
        if (!stoppedAt.has(order)) stoppedAt.set(order, line);
      },
      async sendBatch(client, batch, signal) {
        // One sender for the run, made once by whichever batch comes first; the others wait for its reading.
        senderReady ??= (async () => {
          const sender = new MoveSender(client, routesNow(), context.log.warn, {
            checkStatus: options.statusCheck !== false,
            replace: options.replace === true,
            note: (line) => context.log.info(line),
            now: () => context.clock.now(),
            routesFrom: routesOriginOf(options.routes, session as Session),
          });
          await sender.readNames(orderNames, sendingConcurrency(options), signal);
          return orderedSender(stoppedAt, sender, inputName(options.file));
        })();
        const sendInOrder = await senderReady;
        return Promise.all(batch.map((entry) => sendInOrder(client, entry, signal)));
      },
    },
    context,
  );
}

/**
 * How the moves are sent, once the file is checked (its actions known) and before any order is read, a --dry-run
 * too: `--replace` is refused then when the routes lack a replace route its moves may need.
 */
function movesPlan(
  options: OrdersUpdateOptions,
  routes: OrderRoutes,
  actions: ReadonlySet<OrderAction>,
  routesFrom: () => string,
): { batchSize: number; description: string } {
  if (options.replace === true) refuseReplaceWithoutRoutes('orders update', routes, actions, routesFrom());
  const reads = options.statusCheck === false ? '' : "; each order's status read first (one request per order)";
  return {
    batchSize: 1,
    description: `to the order routes; the moves of one order in file order, one at a time${reads}`,
  };
}

/** A fresh judge of the file's rows; `routesNow` gives the routes once a --resume has restored its --routes. */
function fileChecker(
  options: OrdersUpdateOptions,
  context: Context,
  defaultBranch: string | undefined,
  routesNow: () => OrderRoutes,
  valid: (move: PreparedMove) => void,
): RecordChecker<PreparedMove> {
  const shownName = inputName(options.file);
  return newMoveChecker({
    baseDirectory: options.file === '-' ? process.cwd() : dirname(resolve(options.file)),
    confinePaths: options.allowPaths !== true,
    nowMs: context.clock.now(),
    defaultBranch,
    // As on a single command: the number the order's detail shows, read before its first move.
    numberFromDetail: options.statusCheck !== false,
    get routes() {
      return routesNow();
    },
    warn: (field, message, line) => context.log.warn(`warning: ${shownName}:${line}: ${field}: ${message}`),
    valid,
  });
}

/**
 * Sends each order's moves one at a time in the order they are handed over (file order): a move waits for the
 * previous move of its order to be answered. After a move of an order does not go through, its later moves are not
 * sent (reported failed, so a resumed run sends them once the first is fixed).
 */
function orderedSender(stoppedAt: Map<string, number>, sender: MoveSender, shownName: string) {
  const previousOf = new Map<string, Promise<void>>();
  /** The lines of moves whose outcome is unknown: a later move of the order waits on an outcome, not a failure. */
  const unknownLines = new Set<number>();
  return async (
    _client: PlatformClient,
    entry: PendingRecord<PreparedMove>,
    signal: AbortSignal,
  ): Promise<ReportEntry> => {
    const move = entry.value;
    const previous = previousOf.get(move.order);
    let release!: () => void;
    const mine = new Promise<void>((done) => {
      release = done;
    });
    previousOf.set(move.order, mine);
    try {
      await previous;
      const stoppedLine = stoppedAt.get(move.order);
      // Only a move below the one that did not go through waits for it.
      const stopped = stoppedLine !== undefined && stoppedLine < entry.line ? stoppedLine : undefined;
      const taken = stopped === undefined ? undefined : sender.alreadyTaken(move);
      if (taken) return rowOf(entry, { outcome: 'unchanged', message: taken });
      // "did not go through" contradicted the line it pointed to when that line said the move may have (a user test).
      if (stopped !== undefined)
        return rowOf(entry, {
          outcome: 'failed',
          message: unknownLines.has(stopped)
            ? `not sent: the outcome of the move of this order on line ${stopped} is not known`
            : `not sent: the move of this order on line ${stopped} did not go through`,
        });
      const result = await sender.send(move, signal, {
        unanswered: entry.unanswered === true,
        place: `${shownName}:${recordPlace(entry)}`,
      });
      // An unknown move (its answer no proof, the order's status no help) holds back the order's later moves too.
      if (['rejected', 'failed', 'invalid', 'conflict', 'unknown'].includes(result.outcome))
        stoppedAt.set(move.order, entry.line);
      if (result.outcome === 'unknown') unknownLines.add(entry.line);
      return rowOf(entry, result);
    } catch (error) {
      stoppedAt.set(move.order, entry.line);
      throw error;
    } finally {
      release();
      if (previousOf.get(move.order) === mine) previousOf.delete(move.order);
    }
  };
}

/** The report row of a move; its id column is the order's id, also when the row named the order by its number. */
function rowOf(entry: PendingRecord<PreparedMove>, result: MoveResult): ReportEntry {
  const { outcome, status, message } = result;
  const row = withPlaceOf<ReportRow>(
    { line: entry.line, key: entry.key, outcome, status, id: result.id ?? entry.value.order, message },
    entry,
  );
  // A move that may have gone through, which nothing could tell, stays out of the errors file as a resumed run's
  // unanswered one does: the resume reads the order before it sends (docs/orders.md).
  if (result.settledByReadingFirst !== true) return reportEntry(row, entry);
  return reportEntry(row, {
    get original() {
      return entry.original;
    },
    unanswered: true,
  });
}
