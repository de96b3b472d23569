/**
 * The stages the integration moves an order through, and the local rules of each move. Pure. The platform names
 * ready to ship (needs the integrator's order number), shipped (carries tracking) and canceled (needs a reason),
 * and says a shipped order does not go back to ready to ship; the invoice stage and the status names past
 * AWAITING_PAYMENT are b2bctl's (and its sandbox's) reading of it.
 */
import { isSpreadsheetExponent, scientificNotationReason } from './spreadsheet-numbers.js';
import { trackingCodeProblem, trackingUrlProblem } from './tracking.js';
import { fieldProblem, type FieldProblem } from './validation.js';
import { knownStatuses, statusWordKey, type StoreStatusWords } from './store-status-words.js';

export const orderActions = ['ready', 'invoice', 'ship', 'cancel'] as const;
export type OrderAction = (typeof orderActions)[number];

/** The status an action moves an order to. */
export const statusAfter: Readonly<Record<OrderAction, string>> = {
  ready: 'READY_TO_SHIP',
  invoice: 'INVOICED',
  ship: 'SHIPPED',
  cancel: 'CANCELED',
};

/** Words for a status in messages. */
const stageWords: Readonly<Record<string, string>> = {
  READY_TO_SHIP: 'ready to ship',
  INVOICED: 'invoiced',
  SHIPPED: 'shipped',
  DELIVERED: 'delivered',
  CANCELED: 'canceled',
};

/**
 * An order's status as b2bctl compares it: the platform's word for a stage it knows, whatever its case or spelling
 * (`canceled`, `Cancelled` and `CANCELLED` are `CANCELED`), and a status given as an object
 * (`{"code":"CANCELED","name":"Cancelado"}`) by its `code` (else its `status`). Any other word stays as written; a
 * value with no word (a number, an empty text, an object with neither) is no status. Read only `CANCELED` in capitals,
 * a canceled order's detail in lower case had its move sent (a user test).
 */
export function orderStatusOf(value: unknown, storeWords?: StoreStatusWords): string | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    return orderStatusOf(typeof fields.code === 'string' ? fields.code : fields.status, storeWords);
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const word = value.trim();
  const normal = statusWordKey(word);
  // A store's own word (`CANCELADO`) as the stage its answers.order.statusWords setting names.
  const stage = storeWords?.get(normal);
  if (stage !== undefined) return stage;
  if (normal === 'CANCELLED') return 'CANCELED';
  return knownStatuses.has(normal) ? normal : word;
}

/**
 * A status filter as the platform is asked for it: a status b2bctl knows in the platform's own spelling (`shipped`,
 * `ready-to-ship` and `Cancelled` are `SHIPPED`, `READY_TO_SHIP`, `CANCELED`), any other as given. The listing
 * filters by the exact text: `status=shipped` listed nothing, and the run moved its cursor past every shipped
 * order (a user test).
 */
export function statusAsAsked(status: string): string {
  return orderStatusOf(status) ?? status;
}

/**
 * Whether b2bctl reads a meaning in an order's status word (orderStatusOf's): the platform's first status and the
 * stages it moves orders through. Any other word (a store's own, `PRONTO_PARA_ENVIO`) tells nothing of the moves the
 * order took: read as "not there yet", a move a store had applied was reported "failed … send it again" and sent a
 * second time (a user test).
 */
export function isKnownStatus(status: string): boolean {
  return knownStatuses.has(status);
}

/**
 * Whether a move's answer showing the order in `status` shows the move made: the move's own status, or (for a ready,
 * invoice or ship move) a later stage. A canceled order's status does not show a ready move made, nor does the
 * order's old status (`AWAITING_PAYMENT` after a ready move) or a word that is no stage (`ERROR`).
 */
export function statusShowsMove(status: string, action: OrderAction): boolean {
  if (status === statusAfter[action]) return true;
  return action !== 'cancel' && status !== 'CANCELED' && reachedStage(status, action);
}

/** How far along an order is: statuses the platform generates (unknown ones included) are 0. */
const stageRank: Readonly<Record<string, number>> = { READY_TO_SHIP: 1, INVOICED: 2, SHIPPED: 3, DELIVERED: 4 };

export const maximumErpNumberLength = 64;
export const maximumReasonLength = 500;
export const maximumCarrierLength = 64;

/** One action on one order as a row of `orders update` or a single command gives it. */
export interface OrderMove {
  order: string;
  action: OrderAction;
  erpNumber?: string;
  invoiceXml?: string;
  invoiceKey?: string;
  carrier?: string;
  trackingCode?: string;
  trackingUrl?: string;
  reason?: string;
  branch?: string;
  orderId?: string;
}

/**
 * Why moving an order from `status` with `action` is refused, or undefined. Moves go forward only (ready to ship,
 * invoiced, shipped; repeating a stage is allowed); nothing moves a canceled or delivered order; a shipped order is
 * not canceled.
 */
export function forbiddenMove(status: string, action: OrderAction): string | undefined {
  const words = stageWords[status] ?? status;
  if (status === 'CANCELED' || status === 'DELIVERED') return `the order is ${words}: it moves no further`;
  const rank = stageRank[status] ?? 0;
  if (action === 'cancel')
    return rank >= 3
      ? `${article(words)} ${words} order is not canceled (it has left; a return is another process)`
      : undefined;
  const target = stageRank[statusAfter[action]] ?? 0;
  if (target < rank) return `${article(words)} ${words} order does not go back to ${stageWords[statusAfter[action]]}`;
  return undefined;
}

/**
 * True when an order in `status` has already taken `action` or moved past it: a re-run or a resumed run does not
 * send again a move the order has taken. Moves of one file go forward only, so a later stage means this move (or a
 * later one of the file) went through; a delivered order has passed every stage, and so, by its status, has a
 * canceled one (a file that makes an order ready and then cancels it is all taken on its second run), though only
 * its detail can say which moves it took before (moveNeverTaken).
 */
export function reachedStage(status: string, action: OrderAction): boolean {
  if (status === 'CANCELED' || status === 'DELIVERED') return true;
  if (action === 'cancel') return false;
  return (stageRank[status] ?? 0) >= (stageRank[statusAfter[action]] ?? 0);
}

/** What an order keeps from the moves it took, as its detail shows it (a field the detail does not show is absent). */
export interface HeldMoveData {
  erpNumber?: string;
  invoiceKey?: string;
  trackingCode?: string;
  /** The NF-e XML beside the key, or what the detail shows of it (its size, a link to it). */
  invoiceXml?: string;
  carrier?: string;
  trackingUrl?: string;
}

/** The moves whose data an order keeps, and the field that holds it: the actions a correction can replace. */
export const keptFieldOf = { ready: 'erpNumber', invoice: 'invoiceKey', ship: 'trackingCode' } as const;
export type ReplaceableAction = keyof typeof keptFieldOf;

/**
 * What a move may carry beside its kept value, which the order may hold or lack apart from it: an invoice sent by
 * its key alone holds no XML, a shipment sent with its code alone no carrier. A move that adds them is not the same
 * move again.
 */
const addedFieldsOf: Readonly<Partial<Record<OrderAction, readonly (keyof HeldMoveData)[]>>> = {
  invoice: ['invoiceXml'],
  ship: ['carrier', 'trackingUrl'],
};

/** Words for a kept field in messages. */
const keptFieldWords: Readonly<Record<keyof HeldMoveData, string>> = {
  erpNumber: 'ERP number',
  invoiceKey: 'NF-e key',
  trackingCode: 'tracking code',
  invoiceXml: 'NF-e XML',
  carrier: 'carrier',
  trackingUrl: 'tracking link',
};

export interface MoveConflict {
  field: keyof HeldMoveData;
  held: string;
  sent: string;
  /** `the order holds NF-e key A; this move has B` */
  message: string;
  /** What `--replace` sends: `the correction`, or what the order lacks. */
  offer: string;
  /** What the report says once `--replace` sent it: `replaced A with B`. */
  done: string;
}

/**
 * When a move that the order has taken carries another value than the order holds (another NF-e key, ERP number or
 * tracking code): the correction is not the same move again, so it is not "unchanged". Undefined when they agree or
 * either value is unknown.
 */
export function moveConflict(
  held: HeldMoveData,
  action: OrderAction,
  values: Readonly<Partial<Record<keyof HeldMoveData, string>>>,
  field: keyof HeldMoveData | undefined = Object.hasOwn(keptFieldOf, action)
    ? keptFieldOf[action as ReplaceableAction]
    : undefined,
): MoveConflict | undefined {
  if (field === undefined) return undefined;
  const heldValue = held[field]?.trim();
  const sent = values[field]?.trim();
  if (!heldValue || !sent || comparable(field, heldValue) === comparable(field, sent)) return undefined;
  const words = keptFieldWords[field];
  return {
    field,
    held: heldValue,
    sent,
    message: `the order holds ${words} ${heldValue}; this move has ${sent}`,
    offer: 'the correction',
    done: `replaced ${heldValue} with ${sent}`,
  };
}

/**
 * When a move the order has taken, with the same kept value, carries data the order's detail does not show it
 * holding (the NF-e XML after an invoice sent by its key alone, a carrier after a shipment sent with its code alone)
 * or shows other data (another carrier): that data never reached the order, so the move is not "unchanged".
 * Undefined when the detail shows no kept value for this move (a store whose detail shows none cannot be compared),
 * or shows every added value the same. `values.invoiceXmlBase64` counts as the XML.
 */
export function moveAddsData(
  held: HeldMoveData,
  action: OrderAction,
  values: Readonly<Partial<Record<keyof HeldMoveData | 'invoiceXmlBase64', string>>>,
): MoveConflict | undefined {
  if (!(action in keptFieldOf) || !held[keptFieldOf[action as ReplaceableAction]]?.trim()) return undefined;
  const kept = keptFieldOf[action as ReplaceableAction];
  const lacking: (keyof HeldMoveData)[] = [];
  for (const field of addedFieldsOf[action] ?? []) {
    const sent = (field === 'invoiceXml' ? (values.invoiceXml ?? values.invoiceXmlBase64) : values[field])?.trim();
    const heldValue = held[field]?.trim();
    if (!sent) continue;
    if (!heldValue) lacking.push(field);
    // The XML of one key is one document: the detail showing it there (or its size, a link) is enough.
    else if (field !== 'invoiceXml' && comparable(field, heldValue) !== comparable(field, sent))
      return moveConflict({ [field]: heldValue }, action, { [field]: sent }, field);
  }
  if (lacking.length === 0) return undefined;
  const words = lacking.map((field) => keptFieldWords[field]).join(' or ');
  const shown = lacking.map((field) =>
    field === 'invoiceXml' ? 'the NF-e XML' : `${keptFieldWords[field]} ${values[field]?.trim()}`,
  );
  return {
    field: lacking[0]!,
    held: '',
    sent: shown.join(' and '),
    message: `the order holds ${keptFieldWords[kept]} ${held[kept]?.trim()} with no ${words}; this move has ${shown.join(' and ')}`,
    offer: shown.join(' and '),
    done: `sent ${shown.join(' and ')}, which the order lacked`,
  };
}

/**
 * What an order's detail shows of a correction (`--replace`) sent with `values`, read again after an answer that did
 * not tell whether it was made (a 5xx, a lost answer, a 2xx that refuses it). A correction leaves the status as it
 * is, so only the value can tell. `corrects` is the field the correction was sent for (its conflict's: the kept value,
 * or data it adds, a carrier): `made` when the order holds the value sent there (and the kept value sent); `notMade`
 * when it still holds another value, or shows it empty; `unseen` when the detail does not show the field at all, which
 * tells nothing. `holds` says what the detail shows, for the report's message.
 */
export type CorrectionSeen =
  { seen: 'made'; holds: string } | { seen: 'notMade'; holds: string } | { seen: 'unseen'; field: string };

/** The field a correction is sent for: a kept value, or data a move adds beside it. */
export type CorrectedField = keyof HeldMoveData;

export function correctionSeen(
  held: HeldMoveData,
  action: ReplaceableAction,
  values: Readonly<Partial<Record<keyof HeldMoveData | 'invoiceXmlBase64', string>>>,
  corrects: CorrectedField = keptFieldOf[action],
): CorrectionSeen {
  const kept = keptFieldOf[action];
  const heldKept = held[kept]?.trim();
  if (heldKept === undefined) return { seen: 'unseen', field: keptFieldWords[kept] };
  if (heldKept === '') return { seen: 'notMade', holds: `the order still holds no ${keptFieldWords[kept]}` };
  const keptConflict = moveConflict(held, action, values);
  if (keptConflict !== undefined)
    return { seen: 'notMade', holds: `the order still holds ${keptFieldWords[kept]} ${keptConflict.held}` };
  // A corrected kept value is proof enough: data beside it (the XML of a new NF-e key) a detail may not show.
  if (corrects === kept) return { seen: 'made', holds: `the order holds ${keptFieldWords[kept]} ${heldKept}` };
  const heldAdded = held[corrects]?.trim();
  if (heldAdded === undefined) return { seen: 'unseen', field: keptFieldWords[corrects] };
  const keptShown = `${keptFieldWords[kept]} ${heldKept}`;
  if (heldAdded === '')
    return { seen: 'notMade', holds: `the order still holds ${keptShown} with no ${keptFieldWords[corrects]}` };
  const sent = (corrects === 'invoiceXml' ? (values.invoiceXml ?? values.invoiceXmlBase64) : values[corrects])?.trim();
  // The XML of one key is one document: the detail showing it there (or its size, a link) is enough.
  const same =
    corrects === 'invoiceXml' || sent === undefined || comparable(corrects, heldAdded) === comparable(corrects, sent);
  const addedShown = corrects === 'invoiceXml' ? 'the NF-e XML' : `${keptFieldWords[corrects]} ${heldAdded}`;
  if (same) return { seen: 'made', holds: `the order holds ${keptShown} and ${addedShown}` };
  return { seen: 'notMade', holds: `the order still holds ${addedShown}` };
}

/**
 * What of this move's own data an order whose status word b2bctl does not know holds (`ERP number PV-10`), when it
 * holds any: only this move gives it, so the move reached the order whatever the word says, and is compared as a
 * taken move is (the same value unchanged, another a conflict). Undefined for a known status, a move that keeps no
 * data (a cancellation), or an order holding none. Sent again, a ready the store had applied went twice (a user test).
 */
export function dataHeldUnderUnknownStatus(
  status: string,
  held: HeldMoveData,
  action: OrderAction,
): string | undefined {
  if (isKnownStatus(status) || !(action in keptFieldOf)) return undefined;
  const field = keptFieldOf[action as ReplaceableAction];
  const value = held[field]?.trim();
  return value ? `${keptFieldWords[field]} ${value}` : undefined;
}

/**
 * The words of the data a move carries (its ERP number, NF-e key or tracking code) when an order record shows that
 * place empty (`"erpOrderNumber": null`); undefined when it shows the data, does not show the place at all, or the
 * move carries none. A move's 2xx answer showing the order in its new status so may come from a store that moved the
 * status and dropped the data (a routes file's body naming a field it does not read): reported `applied`, exit 0, the
 * next run called the same move a conflict that "never reached" the order (a user test).
 */
export function carriedDataShownEmpty(
  held: HeldMoveData,
  action: OrderAction,
  values: Readonly<Partial<Record<keyof HeldMoveData, string>>>,
): string | undefined {
  if (!(action in keptFieldOf)) return undefined;
  const field = keptFieldOf[action as ReplaceableAction];
  return held[field] === '' && values[field]?.trim() ? keptFieldWords[field] : undefined;
}

/**
 * Why a move the order's status has passed never reached it: the order's detail shows this move's field empty
 * (`"invoice": null`), or shows what it keeps from its other moves (some of the ERP number, NF-e key and tracking
 * code) but not this move's (a SHIPPED order with no NF-e key, its invoice never sent). Not the same move again,
 * and too late for the platform to take: a conflict, not "unchanged". Undefined when the order holds this move's
 * data, or its detail shows none of those fields at all (a platform whose detail does not show them tells nothing by
 * their absence), except for a CANCELED order: a store cancels an order at any stage, so its status says nothing of
 * the moves it took, and an NF-e or a shipment the ERP made for an order the store canceled needs a person (a refund,
 * an NF-e to cancel), never an exit 0.
 */
export function moveNeverTaken(status: string, held: HeldMoveData, action: OrderAction): string | undefined {
  if (!(action in keptFieldOf)) return undefined;
  const field = keptFieldOf[action as ReplaceableAction];
  const words = keptFieldWords[field];
  if (held[field]?.trim()) return undefined;
  const shown = Object.values(keptFieldOf).filter((key) => held[key]?.trim());
  if (shown.length === 0 && held[field] === undefined) {
    if (status !== 'CANCELED') return undefined;
    return `the order is already CANCELED and its detail shows no ${words}: the store canceled it before this move reached it (or the platform does not show ${words}s), and the platform takes no move after a cancellation; not sent`;
  }
  const holds = shown.length === 0 ? '' : ` (it holds its ${shown.map((key) => keptFieldWords[key]).join(' and ')})`;
  // What the order holds from its earlier moves says nothing of why it lacks this one when the store canceled it.
  const why = status === 'CANCELED' ? canceledFirst : 'this move never reached it, and the platform takes no move back';
  return `the order is already ${status} and holds no ${words}${holds}: ${why}; not sent`;
}

/** Why a move for an order the store canceled is not sent, with its data or without. */
const canceledFirst =
  'the store canceled it before this move reached it, and the platform takes no move after a cancellation';

/**
 * The end of a conflict's line when it is not sent: `--replace` sends the correction, except to an order the store
 * canceled, which takes no move, a correction neither (an NF-e or a shipment for it needs a person, not a resend).
 */
export function conflictNotSent(status: string | undefined, conflict: MoveConflict): string {
  if (status === 'CANCELED')
    return `${conflict.message}, and the order is already CANCELED: ${canceledFirst}; not sent`;
  return `${conflict.message}: not sent (--replace sends ${conflict.offer})`;
}

function comparable(field: keyof HeldMoveData, value: string): string {
  // An access key may be written in groups of four; a Correios code, or a carrier's name, in either case.
  if (field === 'invoiceKey') return value.replace(/\s/g, '');
  return field === 'trackingCode' || field === 'carrier' ? value.toUpperCase() : value;
}

function article(words: string): string {
  return /^[aeiou]/.test(words) ? 'an' : 'a';
}

/** The problems of one move's own fields (the NF-e's contents are checked elsewhere: they need the file). */
export function moveFieldProblems(move: Partial<OrderMove>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const order = move.order?.trim() ?? '';
  if (order === '') problems.push(fieldProblem('order', '', 'the order id is required'));
  else if (!/^[0-9A-Za-z._-]{1,64}$/.test(order))
    problems.push(fieldProblem('order', order, 'an order id is letters, digits, . _ - (at most 64)'));
  // In a route's path `.` and `..` are no segment of their own: the URL would resolve them to another route
  // (`PUT /v1/orders/../status` is `PUT /v1/status`).
  else if (order === '.' || order === '..')
    problems.push(fieldProblem('order', order, 'an order id is not . or .., which a route would read as a folder'));
  switch (move.action) {
    case 'ready':
      problems.push(
        ...textProblems(
          'erpNumber',
          move.erpNumber,
          maximumErpNumberLength,
          'ready to ship needs the ERP order number',
        ),
      );
      break;
    case 'invoice':
      if ((move.invoiceXml ?? '') === '' && (move.invoiceKey ?? '') === '')
        problems.push(
          fieldProblem(
            'invoiceXml',
            '',
            'an invoice needs the NF-e XML file (invoiceXml) or its access key (invoiceKey)',
          ),
        );
      break;
    case 'ship': {
      const problem = trackingCodeProblem(move.trackingCode ?? '', move.carrier);
      if (problem) problems.push(fieldProblem('trackingCode', move.trackingCode ?? '', problem));
      if (move.carrier !== undefined) problems.push(...textProblems('carrier', move.carrier, maximumCarrierLength));
      const urlProblem = move.trackingUrl === undefined ? undefined : trackingUrlProblem(move.trackingUrl);
      if (urlProblem) problems.push(fieldProblem('trackingUrl', move.trackingUrl ?? '', urlProblem));
      break;
    }
    case 'cancel':
      problems.push(...textProblems('reason', move.reason, maximumReasonLength, 'a cancellation needs a reason'));
      break;
    default:
      problems.push(
        fieldProblem('action', String(move.action ?? ''), `the action is one of ${orderActions.join(', ')}`),
      );
  }
  return problems;
}

/**
 * A required (when `missing` says why) or optional text: not blank, capped, no control characters. Its characters are
 * counted as Unicode code points, as a database column of that many characters counts them: `length` counts UTF-16
 * units, and refused 260 emoji (260 characters) as over 500 (a user test).
 */
function textProblems(field: string, value: string | undefined, maximum: number, missing?: string): FieldProblem[] {
  if (value === undefined || value.trim() === '') return missing ? [fieldProblem(field, value ?? '', missing)] : [];
  if ([...value].length > maximum) return [fieldProblem(field, value, `at most ${maximum} characters`)];
  if (isSpreadsheetExponent(value)) return [fieldProblem(field, value, scientificNotationReason)];
  if (/\p{Cc}/u.test(value)) return [fieldProblem(field, value, 'must not contain control characters')];
  return [];
}

/** A move of a file, with the value its order keeps from it (the ERP number, NF-e key or tracking code). */
export type SequencedMove = Pick<OrderMove, 'order' | 'action'> & Partial<Record<keyof HeldMoveData, string>>;

/** A move of a file that gives its order another kept value than an earlier row of the same move did. */
export interface FileConflict<At> {
  field: keyof HeldMoveData;
  value: string;
  reason: string;
  /**
   * The earlier rows that gave the first value, as invalid as this one: where the caller kept them, their value,
   * and the reason in their words.
   */
  earlier: { at: At[]; value: string; reason: string };
}

/**
 * Follows the moves of a file, order by order, in file order: a move that the file's own earlier moves make
 * impossible (shipped, then ready to ship; anything after canceled) is refused before anything is sent, and so are
 * the rows of one move that give its order different ERP numbers, NF-e keys or tracking codes, every one of them (a
 * run would send the first and find the other a conflict, whichever was right: none is sent, and the operator
 * chooses). The same move again with the same value, and no other value in the file, is a repeat, taken as the real
 * run takes it (unchanged). `At` is where the caller keeps a row (its place in the file), handed back with a conflict.
 */
export class MoveSequence<At = undefined> {
  private readonly reached = new Map<string, { status: string; place: string }>();
  /** `order action` → the kept value its first row gave, where, the rows that gave it, and the first other value. */
  private readonly given = new Map<
    string,
    { value: string; place: string; at: At[]; disputed?: { value: string; place: string } }
  >();

  /** The conflict of `move` (at `place`, kept by the caller as `at`) with another row of the same move, if any. */
  disagreement(move: SequencedMove, place: string, at?: At): FileConflict<At> | undefined {
    if (!(move.action in keptFieldOf)) return undefined;
    const field = keptFieldOf[move.action as ReplaceableAction];
    const value = move[field]?.trim();
    if (!value) return undefined;
    const key = `${move.order} ${move.action}`;
    const first = this.given.get(key);
    if (first === undefined) {
      this.given.set(key, { value, place, at: [at as At] });
      return undefined;
    }
    const sameAsFirst = comparable(field, first.value) === comparable(field, value);
    if (sameAsFirst && first.disputed === undefined) {
      first.at.push(at as At);
      return undefined;
    }
    first.disputed ??= { value, place };
    // A row with the first value conflicts with the first other one; any other, with the first row.
    const other = sameAsFirst ? first.disputed : first;
    const words = keptFieldWords[field];
    const conflict = (otherPlace: string, otherValue: string, own: string) =>
      `a conflict within this file: ${otherPlace} gives this order ${words} ${otherValue}, this row ${own}; an order takes one ${words}: keep the row that is right`;
    return {
      field,
      value,
      reason: conflict(other.place, other.value, value),
      earlier: {
        at: first.at,
        value: first.value,
        reason: conflict(first.disputed.place, first.disputed.value, first.value),
      },
    };
  }

  /** The reason `move` (at `place`, e.g. `line 7`) cannot follow the earlier moves of its order, or undefined. */
  follow(move: Pick<OrderMove, 'order' | 'action'>, place: string): string | undefined {
    const before = this.reached.get(move.order);
    const problem = before ? forbiddenMove(before.status, move.action) : undefined;
    if (problem) return `${problem} (this file made it ${stageWords[before!.status]} on ${before!.place})`;
    this.reached.set(move.order, { status: statusAfter[move.action], place });
    return undefined;
  }
}
